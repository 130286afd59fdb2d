//! Blocks, `if`, closures, `async` blocks and `let` statements → IR: each opens a scope
//! for the locals it binds.

use super::*;

impl<'s> BodyCx<'_, 's> {
    pub(super) fn if_expr(&mut self, i: &'s syn::ExprIf) -> ExprId {
        self.open();
        let cond = self.expr(&i.cond);
        let then = self.block_expr(&i.then_branch, BlockKind::Plain, None);
        self.close();
        let els = i.else_branch.as_ref().map(|(_, e)| self.expr(e));
        let mut span = sp_start(i.if_token.span).to(self.span_of(then));
        if let Some(e) = els {
            span = span.to(self.span_of(e));
        }
        self.push(ExprKind::If { cond, then, els }, span)
    }

    pub(super) fn closure(&mut self, c: &'s syn::ExprClosure) -> ExprId {
        let start = c
            .lifetimes
            .as_ref()
            .map(|l| sp(l.for_token.span))
            .or_else(|| c.constness.map(|t| sp(t.span)))
            .or_else(|| c.movability.map(|t| sp(t.span)))
            .or_else(|| c.asyncness.map(|t| sp(t.span)))
            .or_else(|| c.capture.map(|t| sp(t.span)))
            .unwrap_or_else(|| sp(c.or1_token.span));
        let id = self.body.closures.len() as ClosureId;
        self.body.closures.push(ClosureDef {
            params: Vec::new(),
            param_tys: Vec::new(),
            body: 0,
            span: start,
            parent: self.closure,
            is_async_block: false,
        });
        let outer = self.closure.replace(id);
        self.open();
        let mut params = Vec::new();
        let mut tys = Vec::new();
        for p in &c.inputs {
            params.push(self.pat(p));
            tys.push(match p {
                syn::Pat::Type(t) => Some(self.imports.ty(&t.ty)),
                _ => None,
            });
        }
        let body = self.expr(&c.body);
        self.close();
        self.closure = outer;
        let span = start.to(self.span_of(body));
        let def = &mut self.body.closures[id as usize];
        def.params = params;
        def.param_tys = tys;
        def.body = body;
        def.span = span;
        self.push(ExprKind::Closure(id), span)
    }

    /// An `async { .. }` block: a body of its own, like a closure without parameters.
    pub(super) fn async_block(&mut self, block: &'s syn::Block, start: Sp) -> ExprId {
        let id = self.body.closures.len() as ClosureId;
        self.body.closures.push(ClosureDef {
            params: Vec::new(),
            param_tys: Vec::new(),
            body: 0,
            span: start,
            parent: self.closure,
            is_async_block: true,
        });
        let outer = self.closure.replace(id);
        let body = self.block_expr(block, BlockKind::Async, Some(start));
        self.closure = outer;
        let span = start.to(self.span_of(body));
        let def = &mut self.body.closures[id as usize];
        def.body = body;
        def.span = span;
        self.push(ExprKind::Closure(id), span)
    }

    /// A block with its own scope. `start` widens the span to a leading keyword.
    pub fn block_expr(&mut self, b: &'s syn::Block, kind: BlockKind, start: Option<Sp>) -> ExprId {
        self.open();
        let mut stmts = Vec::new();
        let mut tail = None;
        let last = b.stmts.len().saturating_sub(1);
        for (i, stmt) in b.stmts.iter().enumerate() {
            match stmt {
                syn::Stmt::Local(l) => stmts.push(self.local(l)),
                syn::Stmt::Item(item) => self.nested.push(item),
                syn::Stmt::Expr(e, semi) => {
                    let id = self.expr(e);
                    if i == last && semi.is_none() {
                        tail = Some(id);
                    } else {
                        stmts.push(Stmt::Expr {
                            expr: id,
                            semi: semi.is_some(),
                        });
                    }
                }
                syn::Stmt::Macro(m) => {
                    let id = self.macro_call(&m.mac);
                    if i == last && m.semi_token.is_none() {
                        tail = Some(id);
                    } else {
                        stmts.push(Stmt::Expr {
                            expr: id,
                            semi: m.semi_token.is_some(),
                        });
                    }
                }
            }
        }
        self.close();
        let mut span = delim_sp(&b.brace_token.span);
        if let Some(s) = start {
            span = s.to(span);
        }
        self.push(ExprKind::Block { stmts, tail, kind }, span)
    }

    pub(super) fn local(&mut self, l: &'s syn::Local) -> Stmt {
        let init = l.init.as_ref().map(|i| self.expr(&i.expr));
        let els = l
            .init
            .as_ref()
            .and_then(|i| i.diverge.as_ref())
            .map(|(_, e)| self.expr(e));
        let ty = match &l.pat {
            syn::Pat::Type(t) => Some(Box::new(self.imports.ty(&t.ty))),
            _ => None,
        };
        let pat = self.pat(&l.pat);
        if els.is_none()
            && let Some(local) = plain_binding(&self.body, pat)
        {
            self.body.locals[local as usize].init = init;
        }
        if let Some(value) = init {
            if els.is_some() {
                self.note_unwrapped(pat, value);
            }
            self.note_elements(pat, value);
        }
        Stmt::Let { pat, ty, init, els }
    }

    /// `(x, y)` of `value`: each plain binding is the element of `value` at its position.
    pub(super) fn note_elements(&mut self, pat: PatId, value: ExprId) {
        // `let (x, y): (A, B) = ..` binds as `let (x, y) = ..` does.
        let pat = self.body.untyped(pat);
        let PatKind::Tuple(elems) = &self.body.pat(pat).kind else {
            return;
        };
        let bound: Vec<(u32, LocalId)> = elems
            .iter()
            .enumerate()
            .filter_map(|(i, &e)| Some((u32::try_from(i).ok()?, plain_binding(&self.body, e)?)))
            .collect();
        for (i, local) in bound {
            self.body.locals[local as usize].element_of = Some((value, i));
        }
    }

    /// `Some(x)` / `Ok(x)` of `value` in a `let .. else`, an `if let` or a `match` arm: `x` is
    /// the content of `value`.
    pub(super) fn note_unwrapped(&mut self, pat: PatId, value: ExprId) {
        let pat = self.body.untyped(pat);
        if let PatKind::TupleStruct { path, elems } = &self.body.pat(pat).kind
            && elems.len() == 1
            && path.last().is_some_and(|l| l == "Some" || l == "Ok")
            && let Some(local) = plain_binding(&self.body, elems[0])
        {
            self.body.locals[local as usize].unwraps = Some(value);
        }
    }
}

/// The local a pattern binds when it is a plain name (`x`, `mut x`, `x: T`).
fn plain_binding(body: &Body, pat: PatId) -> Option<LocalId> {
    match &body.pat(pat).kind {
        PatKind::Bind { local, sub: None } => Some(*local),
        PatKind::Typed { pat, .. } => plain_binding(body, *pat),
        _ => None,
    }
}
