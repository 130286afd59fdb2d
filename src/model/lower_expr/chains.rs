//! Paths and the chains lowered without recursion: method calls, `?`, `.await`, fields
//! (`a.b().c?.await`) and binary operators, so a long chain costs no stack.

use super::*;
use smol_str::ToSmolStr;

impl<'s> BodyCx<'_, 's> {
    pub(super) fn path_expr(&mut self, p: &syn::ExprPath) -> ExprId {
        let span = path_sp(&p.path);
        if p.qself.is_none()
            && let Some(ident) = p.path.get_ident()
        {
            let name = ident.to_smolstr();
            if name == "self" {
                return self.push(ExprKind::SelfValue, span);
            }
            if let Some(local) = self.lookup(&name) {
                return self.push(ExprKind::Local(local), span);
            }
        }
        let mut path = segments(&p.path);
        if let Some(q) = &p.qself {
            // `<T as Trait>::f`: the type's name stands first.
            if let crate::model::resolve::Ty::Path { path: ty, .. } = self.imports.ty(&q.ty)
                && let Some(last) = ty.last()
            {
                let keep = path.len().saturating_sub(1);
                path = crate::model::intern::path(
                    std::iter::once(last.clone())
                        .chain(path[keep..].iter().cloned())
                        .collect(),
                );
            }
        }
        self.push(ExprKind::Path(path), span)
    }

    /// `a.b().c?.await.d`: the links are collected first, then lowered bottom-up.
    pub(super) fn chain(&mut self, e: &'s syn::Expr) -> ExprId {
        let mut links: Vec<Link<'s>> = Vec::new();
        let mut cur = e;
        loop {
            match cur {
                syn::Expr::MethodCall(m) => {
                    links.push(Link::Method(m));
                    cur = &m.receiver;
                }
                syn::Expr::Try(t) => {
                    links.push(Link::Try(t));
                    cur = &t.expr;
                }
                syn::Expr::Await(a) => {
                    links.push(Link::Await(a));
                    cur = &a.base;
                }
                syn::Expr::Field(f) => {
                    links.push(Link::Field(f));
                    cur = &f.base;
                }
                syn::Expr::Paren(p)
                    if matches!(
                        &*p.expr,
                        syn::Expr::MethodCall(_)
                            | syn::Expr::Try(_)
                            | syn::Expr::Await(_)
                            | syn::Expr::Field(_)
                    ) =>
                {
                    cur = &p.expr;
                }
                _ => break,
            }
        }
        let mut id = self.expr(cur);
        let start = self.span_of(id).start;
        for link in links.into_iter().rev() {
            id = match link {
                Link::Method(m) => {
                    let args = self.exprs(&m.args);
                    let end = delim_sp(&m.paren_token.span).end;
                    let method = m.method.to_smolstr();
                    let name = sp(m.method.span());
                    // The name's span is as long as its text: only its start is kept.
                    debug_assert_eq!(name.end - name.start, method.len() as u32, "{method}");
                    self.push(
                        ExprKind::MethodCall {
                            receiver: id,
                            method,
                            method_at: name.start,
                            args: args.into(),
                        },
                        Sp { start, end },
                    )
                }
                Link::Try(t) => {
                    let question = sp(t.question_token.span);
                    self.push(
                        ExprKind::Try { expr: id, question },
                        Sp {
                            start,
                            end: question.end,
                        },
                    )
                }
                Link::Await(a) => {
                    let end = sp(a.await_token.span).end;
                    self.push(ExprKind::Await(id), Sp { start, end })
                }
                Link::Field(f) => {
                    let (member, end) = match &f.member {
                        syn::Member::Named(n) => (n.to_smolstr(), sp(n.span()).end),
                        syn::Member::Unnamed(i) => (i.index.to_smolstr(), sp(i.span).end),
                    };
                    self.push(ExprKind::Field { base: id, member }, Sp { start, end })
                }
            };
        }
        id
    }

    /// `a + b + c` nests to the left; the spine is walked iteratively.
    pub(super) fn binary_chain(&mut self, e: &'s syn::Expr) -> ExprId {
        let mut spine: Vec<&'s syn::ExprBinary> = Vec::new();
        let mut cur = e;
        while let syn::Expr::Binary(b) = cur {
            spine.push(b);
            cur = &b.left;
        }
        let mut lhs = self.expr(cur);
        for b in spine.into_iter().rev() {
            let rhs = self.expr(&b.right);
            let (op, compound) = binop(&b.op);
            let span = self.span_of(lhs).to(self.span_of(rhs));
            lhs = if compound {
                self.push(
                    ExprKind::Assign {
                        place: lhs,
                        value: rhs,
                        compound: true,
                    },
                    span,
                )
            } else {
                self.push(ExprKind::Binary { op, lhs, rhs }, span)
            };
        }
        lhs
    }
}

/// The span of an expression's first token, without turning the expression into tokens.
pub(super) fn first_span(e: &syn::Expr) -> Sp {
    let mut cur = e;
    loop {
        cur = match cur {
            syn::Expr::MethodCall(m) => &m.receiver,
            syn::Expr::Try(t) => &t.expr,
            syn::Expr::Await(a) => &a.base,
            syn::Expr::Field(f) => &f.base,
            syn::Expr::Binary(b) => &b.left,
            syn::Expr::Call(c) => &c.func,
            syn::Expr::Index(i) => &i.expr,
            syn::Expr::Cast(c) => &c.expr,
            syn::Expr::Assign(a) => &a.left,
            syn::Expr::Paren(p) => return delim_sp(&p.paren_token.span),
            syn::Expr::Unary(u) => {
                return match u.op {
                    syn::UnOp::Deref(t) => sp(t.span),
                    syn::UnOp::Not(t) => sp(t.span),
                    syn::UnOp::Neg(t) => sp(t.span),
                    _ => Sp::default(),
                };
            }
            syn::Expr::Reference(r) => return sp(r.and_token.span),
            syn::Expr::Return(r) => return sp(r.return_token.span),
            syn::Expr::Closure(c) => return sp(c.or1_token.span),
            syn::Expr::Path(p) => return path_sp(&p.path),
            syn::Expr::Lit(l) => return sp(l.lit.span()),
            syn::Expr::Block(b) => return delim_sp(&b.block.brace_token.span),
            syn::Expr::Tuple(t) => return delim_sp(&t.paren_token.span),
            syn::Expr::Array(a) => return delim_sp(&a.bracket_token.span),
            syn::Expr::Macro(m) => return path_sp(&m.mac.path),
            syn::Expr::If(i) => return sp(i.if_token.span),
            syn::Expr::Match(m) => return sp(m.match_token.span),
            _ => return Sp::default(),
        };
    }
}
