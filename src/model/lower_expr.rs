//! Expressions, blocks and patterns → IR. Locals are resolved through a scope stack as the
//! body is lowered, so every use points at its binding. Method-call, `?`, `.await`, field and
//! binary chains are lowered iteratively; other nesting is followed up to [`MAX_DEPTH`] (the
//! stack grows on demand), deeper parts become `Opaque` and are reported as incomplete.

use smol_str::ToSmolStr;
use std::rc::Rc;

use super::expand::MacroRules;
use super::ir::*;
use super::resolve::{Imports, segments};
use super::scope::Scope;
use super::span::{delim_end, delim_sp, sp, sp_end, sp_start};
use crate::diagnostic::FileId;

mod blocks;
mod chains;
mod patterns;

use chains::first_span;

/// How deep the lowering follows nested expressions before giving up on a part. The source
/// stage already leaves out items nested deeper than its stack budget admits, so this is a
/// backstop above that budget, not the bound users meet.
pub const MAX_DEPTH: u32 = 1 << 16;

/// Stack kept free before recursing, and the size of each extra segment.
const RED_ZONE: usize = 128 * 1024;
const GROW_BY: usize = 4 * 1024 * 1024;

pub struct BodyCx<'i, 's> {
    pub file: FileId,
    pub imports: &'i Imports,
    pub body: Body,
    /// Bindings in scope.
    scope: Scope,
    closure: Option<ClosureId>,
    depth: u32,
    incomplete: Vec<Incomplete>,
    nested: Vec<&'s syn::Item>,
    /// While lowering the second and later cases of an or-pattern: the first case's bindings.
    or_bindings: Option<foldhash::HashMap<Name, LocalId>>,
    /// The file's own `macro_rules!`, expanded at their calls.
    pub macros: Rc<MacroRules>,
    /// Expansions being lowered, innermost last (bounded by [`super::expand::MAX_NESTED`]).
    pub expanding: u32,
    /// The loops and labelled blocks being lowered, innermost last, with the `break`s that
    /// leave them with a value.
    break_targets: Vec<BreakTarget>,
}

/// A loop or labelled block a `break` may leave.
struct BreakTarget {
    label: Option<Name>,
    is_loop: bool,
    breaks: Vec<ExprId>,
}

/// The value of an integer literal, negated or not, through parentheses and casts.
pub fn int_literal(expr: &syn::Expr) -> Option<i64> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<i64>().ok(),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => int_literal(expr).map(|v| -v),
        syn::Expr::Paren(p) => int_literal(&p.expr),
        syn::Expr::Group(g) => int_literal(&g.expr),
        syn::Expr::Cast(c) => int_literal(&c.expr),
        _ => None,
    }
}

fn lit_of(lit: &syn::Lit) -> Lit {
    match lit {
        syn::Lit::Str(s) => Lit::Str(s.value().into_boxed_str()),
        syn::Lit::Int(i) => i.base10_parse::<i64>().map_or(Lit::Other, Lit::Int),
        syn::Lit::Char(c) => Lit::Char(c.value()),
        syn::Lit::Bool(b) => Lit::Bool(b.value),
        syn::Lit::Byte(b) => Lit::Byte(b.value()),
        _ => Lit::Other,
    }
}

fn binop(op: &syn::BinOp) -> (BinOp, bool) {
    use syn::BinOp as B;
    match op {
        B::Add(_) => (BinOp::Add, false),
        B::Sub(_) => (BinOp::Sub, false),
        B::And(_) => (BinOp::And, false),
        B::Or(_) => (BinOp::Or, false),
        B::Eq(_) => (BinOp::Eq, false),
        B::Ne(_) => (BinOp::Ne, false),
        B::Lt(_) => (BinOp::Lt, false),
        B::Le(_) => (BinOp::Le, false),
        B::Gt(_) => (BinOp::Gt, false),
        B::Ge(_) => (BinOp::Ge, false),
        B::AddAssign(_) => (BinOp::Add, true),
        B::SubAssign(_) => (BinOp::Sub, true),
        B::Mul(_) | B::Div(_) | B::Rem(_) | B::Shl(_) | B::Shr(_) => (BinOp::Arith, false),
        B::BitXor(_) | B::BitAnd(_) | B::BitOr(_) => (BinOp::Arith, false),
        B::MulAssign(_) | B::DivAssign(_) | B::RemAssign(_) => (BinOp::Arith, true),
        B::BitXorAssign(_) | B::BitAndAssign(_) | B::BitOrAssign(_) => (BinOp::Arith, true),
        B::ShlAssign(_) | B::ShrAssign(_) => (BinOp::Arith, true),
        _ => (BinOp::Other, false),
    }
}

/// A path's span from its first to its last token.
fn path_sp(path: &syn::Path) -> Sp {
    let start = path
        .leading_colon
        .map(|c| sp_start(c.spans[0]))
        .or_else(|| path.segments.first().map(|s| sp_start(s.ident.span())))
        .unwrap_or_default();
    let end = path.segments.last().map_or(start, |s| match &s.arguments {
        syn::PathArguments::AngleBracketed(a) => sp_end(a.gt_token.span),
        syn::PathArguments::Parenthesized(p) => delim_end(&p.paren_token.span),
        syn::PathArguments::None => sp_end(s.ident.span()),
    });
    start.to(end)
}

/// A link of a chain that is lowered iteratively.
enum Link<'e> {
    Method(&'e syn::ExprMethodCall),
    Try(&'e syn::ExprTry),
    Await(&'e syn::ExprAwait),
    Field(&'e syn::ExprField),
}

impl<'i, 's> BodyCx<'i, 's> {
    pub fn new(file: FileId, imports: &'i Imports, macros: Rc<MacroRules>) -> Self {
        BodyCx {
            file,
            imports,
            body: Body::default(),
            scope: Scope::default(),
            closure: None,
            depth: 0,
            incomplete: Vec::new(),
            nested: Vec::new(),
            or_bindings: None,
            macros,
            expanding: 0,
            break_targets: Vec::new(),
        }
    }

    pub fn finish(mut self) -> (Body, Vec<Incomplete>, Vec<&'s syn::Item>) {
        // Every file's bodies stay alive until its package is analysed: no slack is kept.
        self.body.exprs.shrink_to_fit();
        self.body.pats.shrink_to_fit();
        self.body.locals.shrink_to_fit();
        self.body.closures.shrink_to_fit();
        self.body.break_targets.sort_unstable();
        self.body.break_targets.shrink_to_fit();
        (self.body, self.incomplete, self.nested)
    }

    /// Lowers a loop or labelled block with `lower`, which returns the expression a `break`
    /// inside it leaves (for `for`/`while`, whose value is `()`, their body: only so that the
    /// `break`s in it do not count for an outer loop).
    fn break_target(
        &mut self,
        label: Option<&syn::Label>,
        is_loop: bool,
        lower: impl FnOnce(&mut Self) -> ExprId,
    ) -> ExprId {
        self.break_targets.push(BreakTarget {
            label: label.map(|l| l.name.ident.to_smolstr()),
            is_loop,
            breaks: Vec::new(),
        });
        let target = lower(self);
        if let Some(t) = self.break_targets.pop() {
            self.body
                .break_targets
                .extend(t.breaks.into_iter().map(|b| (b, target)));
        }
        target
    }

    pub fn push(&mut self, kind: ExprKind, span: Sp) -> ExprId {
        self.body.exprs.push(Expr { kind, span });
        (self.body.exprs.len() - 1) as ExprId
    }

    fn push_pat(&mut self, kind: PatKind, span: Sp) -> PatId {
        self.body.pats.push(Pat { kind, span });
        (self.body.pats.len() - 1) as PatId
    }

    pub fn span_of(&self, id: ExprId) -> Sp {
        self.body.expr(id).span
    }

    fn open(&mut self) {
        self.scope.open();
    }

    fn close(&mut self) {
        self.scope.close();
    }

    /// The binding a name refers to here.
    pub fn lookup(&self, name: &str) -> Option<LocalId> {
        self.scope.lookup(name)
    }

    fn bind(&mut self, name: Name, span: Sp) -> LocalId {
        if let Some(first) = &self.or_bindings
            && let Some(&id) = first.get(&name)
        {
            return id;
        }
        self.body.locals.push(LocalDef {
            name: name.clone(),
            span,
            init: None,
            unwraps: None,
            element_of: None,
        });
        let id = (self.body.locals.len() - 1) as LocalId;
        self.scope.bind(name, id);
        id
    }

    fn too_deep(&mut self, span: Sp) -> ExprId {
        self.incomplete.push(Incomplete {
            span,
            reason: format!("expressions nest deeper than {MAX_DEPTH} levels here"),
        });
        self.push(ExprKind::Opaque, span)
    }

    pub fn expr(&mut self, e: &'s syn::Expr) -> ExprId {
        if self.depth >= MAX_DEPTH {
            let span = first_span(e);
            return self.too_deep(span);
        }
        self.depth += 1;
        let id = stacker::maybe_grow(RED_ZONE, GROW_BY, || self.expr_inner(e));
        self.depth -= 1;
        id
    }

    /// Runs `lower` on a short-lived context that shares this body, scope and incomplete
    /// parts: syntax parsed out of macro tokens lives shorter than `'s`.
    pub(super) fn with_foreign<'x, R>(
        &mut self,
        lower: impl FnOnce(&mut BodyCx<'i, 'x>) -> R,
    ) -> R {
        let mut sub = BodyCx {
            file: self.file,
            imports: self.imports,
            body: std::mem::take(&mut self.body),
            scope: std::mem::take(&mut self.scope),
            closure: self.closure,
            depth: self.depth,
            incomplete: std::mem::take(&mut self.incomplete),
            nested: Vec::new(),
            or_bindings: None,
            macros: self.macros.clone(),
            expanding: self.expanding,
            break_targets: std::mem::take(&mut self.break_targets),
        };
        let out = lower(&mut sub);
        self.body = sub.body;
        self.scope = sub.scope;
        self.break_targets = sub.break_targets;
        self.incomplete = sub.incomplete;
        out
    }

    /// Lowers an expression parsed out of macro tokens: its items are not collected.
    pub fn foreign_expr(&mut self, e: &syn::Expr) -> ExprId {
        self.with_foreign(|sub| sub.expr(e))
    }

    /// Lowers a block parsed out of macro tokens (`tokio::select!` arm bodies).
    pub fn foreign_block(&mut self, stmts: &[syn::Stmt], span: Sp) -> ExprId {
        let block = syn::Block {
            brace_token: Default::default(),
            stmts: stmts.to_vec(),
        };
        self.with_foreign(|sub| sub.block_expr(&block, BlockKind::Plain, Some(span)))
    }

    fn exprs(&mut self, es: impl IntoIterator<Item = &'s syn::Expr>) -> Vec<ExprId> {
        es.into_iter().map(|e| self.expr(e)).collect()
    }

    fn expr_inner(&mut self, e: &'s syn::Expr) -> ExprId {
        use syn::Expr as E;
        match e {
            E::Array(a) => {
                let elems = self.exprs(&a.elems);
                self.push(
                    ExprKind::Array(elems.into()),
                    delim_sp(&a.bracket_token.span),
                )
            }
            E::Assign(a) => {
                let place = self.expr(&a.left);
                let value = self.expr(&a.right);
                let span = self.span_of(place).to(self.span_of(value));
                self.push(
                    ExprKind::Assign {
                        place,
                        value,
                        compound: false,
                    },
                    span,
                )
            }
            E::Async(a) => {
                let start = sp(a.async_token.span);
                self.async_block(&a.block, start)
            }
            E::Binary(_) => self.binary_chain(e),
            E::Block(b) if b.label.is_some() => self.break_target(b.label.as_ref(), false, |cx| {
                cx.block_expr(&b.block, BlockKind::Plain, None)
            }),
            E::Block(b) => self.block_expr(&b.block, BlockKind::Plain, None),
            E::Break(b) => {
                let value = b.expr.as_ref().map(|v| self.expr(v));
                let mut span = sp(b.break_token.span);
                if let Some(v) = value {
                    span = span.to(self.span_of(v));
                }
                let id = self.push(ExprKind::Break(value), span);
                if value.is_some() {
                    let label = b.label.as_ref().map(|l| l.ident.to_smolstr());
                    let target = self.break_targets.iter_mut().rev().find(|t| match &label {
                        Some(l) => t.label.as_ref() == Some(l),
                        None => t.is_loop,
                    });
                    if let Some(t) = target {
                        t.breaks.push(id);
                    }
                }
                id
            }
            E::Call(c) => {
                let func = self.expr(&c.func);
                let args = self.exprs(&c.args);
                let span = self.span_of(func).to(delim_end(&c.paren_token.span));
                self.push(
                    ExprKind::Call {
                        func,
                        args: args.into(),
                    },
                    span,
                )
            }
            E::Cast(c) => {
                let inner = self.expr(&c.expr);
                let ty = self.imports.ty(&c.ty);
                let span = self.span_of(inner).to(sp_end(c.as_token.span));
                self.push(
                    ExprKind::Cast {
                        expr: inner,
                        ty: Box::new(ty),
                    },
                    span,
                )
            }
            E::Closure(c) => self.closure(c),
            E::Const(c) => {
                self.block_expr(&c.block, BlockKind::Const, Some(sp(c.const_token.span)))
            }
            E::Continue(c) => self.push(ExprKind::Continue, sp(c.continue_token.span)),
            E::Field(_) | E::MethodCall(_) | E::Try(_) | E::Await(_) => self.chain(e),
            E::ForLoop(f) => {
                let iter = self.expr(&f.expr);
                self.open();
                let pat = self.pat(&f.pat);
                let body = self.break_target(f.label.as_ref(), true, |cx| {
                    cx.block_expr(&f.body, BlockKind::Plain, None)
                });
                self.close();
                let span = sp_start(f.for_token.span).to(self.span_of(body));
                self.push(ExprKind::For { pat, iter, body }, span)
            }
            E::Group(g) => self.expr(&g.expr),
            E::If(i) => self.if_expr(i),
            E::Index(i) => {
                let base = self.expr(&i.expr);
                let index = self.expr(&i.index);
                let bracket = delim_sp(&i.bracket_token.span);
                let span = self.span_of(base).to(bracket);
                self.push(
                    ExprKind::Index {
                        base,
                        index,
                        bracket,
                    },
                    span,
                )
            }
            E::Let(l) => {
                let value = self.expr(&l.expr);
                let pat = self.pat(&l.pat);
                self.note_unwrapped(pat, value);
                let span = sp_start(l.let_token.span).to(self.span_of(value));
                self.push(ExprKind::Let { pat, expr: value }, span)
            }
            E::Lit(l) => self.push(ExprKind::Lit(lit_of(&l.lit)), sp(l.lit.span())),
            E::Loop(l) => self.break_target(l.label.as_ref(), true, |cx| {
                let body = cx.block_expr(&l.body, BlockKind::Plain, None);
                let span = sp_start(l.loop_token.span).to(cx.span_of(body));
                cx.push(ExprKind::Loop { body }, span)
            }),
            E::Macro(m) => self.macro_call(&m.mac),
            E::Match(m) => {
                let scrutinee = self.expr(&m.expr);
                let mut arms = Vec::new();
                for arm in &m.arms {
                    self.open();
                    let pat = self.pat(&arm.pat);
                    self.note_elements(pat, scrutinee);
                    self.note_unwrapped(pat, scrutinee);
                    let guard = arm.guard.as_ref().map(|(_, g)| self.expr(g));
                    let body = self.expr(&arm.body);
                    self.close();
                    arms.push(Arm { pat, guard, body });
                }
                let span = sp_start(m.match_token.span).to(delim_end(&m.brace_token.span));
                self.push(ExprKind::Match { scrutinee, arms }, span)
            }
            E::Paren(p) => self.expr(&p.expr),
            E::Path(p) => self.path_expr(p),
            E::Range(r) => {
                let start = r.start.as_ref().map(|s| self.expr(s));
                let end = r.end.as_ref().map(|s| self.expr(s));
                let (limits, inclusive) = match &r.limits {
                    syn::RangeLimits::HalfOpen(t) => (sp(t.spans[0]), false),
                    syn::RangeLimits::Closed(t) => (sp(t.spans[0]), true),
                };
                let mut span = limits;
                for part in [start, end].into_iter().flatten() {
                    span = span.to(self.span_of(part));
                }
                self.push(
                    ExprKind::Range {
                        start,
                        end,
                        inclusive,
                    },
                    span,
                )
            }
            E::RawAddr(r) => {
                let inner = self.expr(&r.expr);
                let span = sp_start(r.and_token.span).to(self.span_of(inner));
                self.push(ExprKind::Ref(inner), span)
            }
            E::Reference(r) => {
                let inner = self.expr(&r.expr);
                let span = sp_start(r.and_token.span).to(self.span_of(inner));
                self.push(ExprKind::Ref(inner), span)
            }
            E::Repeat(r) => {
                let value = self.expr(&r.expr);
                let len = self.expr(&r.len);
                self.push(
                    ExprKind::Repeat { value, len },
                    delim_sp(&r.bracket_token.span),
                )
            }
            E::Return(r) => {
                let value = r.expr.as_ref().map(|v| self.expr(v));
                let mut span = sp(r.return_token.span);
                if let Some(v) = value {
                    span = span.to(self.span_of(v));
                }
                self.push(ExprKind::Return(value), span)
            }
            E::Struct(s) => {
                let path = segments(&s.path);
                let mut fields = Vec::new();
                for f in &s.fields {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_smolstr(),
                        syn::Member::Unnamed(i) => i.index.to_smolstr(),
                    };
                    fields.push((name, self.expr(&f.expr)));
                }
                let rest = s.rest.as_ref().map(|r| self.expr(r));
                let span = path_sp(&s.path).to(delim_end(&s.brace_token.span));
                self.push(
                    ExprKind::Struct {
                        path,
                        fields: fields.into(),
                        rest,
                    },
                    span,
                )
            }
            E::TryBlock(t) => {
                self.block_expr(&t.block, BlockKind::Plain, Some(sp(t.try_token.span)))
            }
            E::Tuple(t) => {
                let elems = self.exprs(&t.elems);
                self.push(ExprKind::Tuple(elems.into()), delim_sp(&t.paren_token.span))
            }
            E::Unary(u) => {
                let inner = self.expr(&u.expr);
                let (kind, op) = match u.op {
                    syn::UnOp::Deref(t) => (ExprKind::Deref(inner), sp(t.span)),
                    syn::UnOp::Not(t) => (ExprKind::Not(inner), sp(t.span)),
                    syn::UnOp::Neg(t) => (ExprKind::Neg(inner), sp(t.span)),
                    _ => (ExprKind::Deref(inner), self.span_of(inner)),
                };
                let span = op.to(self.span_of(inner));
                self.push(kind, span)
            }
            E::Unsafe(u) => {
                self.block_expr(&u.block, BlockKind::Unsafe, Some(sp(u.unsafe_token.span)))
            }
            E::While(w) => {
                self.open();
                let cond = self.expr(&w.cond);
                let body = self.break_target(w.label.as_ref(), true, |cx| {
                    cx.block_expr(&w.body, BlockKind::Plain, None)
                });
                self.close();
                let span = sp_start(w.while_token.span).to(self.span_of(body));
                self.push(ExprKind::While { cond, body }, span)
            }
            E::Yield(y) => {
                // The value is lowered for the calls in it; a generator's yield is not modelled.
                if let Some(v) = &y.expr {
                    let value = self.expr(v);
                    let stmts = vec![Stmt::Expr {
                        expr: value,
                        semi: true,
                    }];
                    let span = sp_start(y.yield_token.span).to(self.span_of(value));
                    return self.push(
                        ExprKind::Block {
                            stmts,
                            tail: None,
                            kind: BlockKind::Plain,
                        },
                        span,
                    );
                }
                self.push(ExprKind::Opaque, sp(y.yield_token.span))
            }
            E::Infer(i) => self.push(ExprKind::Opaque, sp(i.underscore_token.span)),
            _ => {
                let span = first_span(e);
                self.push(ExprKind::Opaque, span)
            }
        }
    }
}
