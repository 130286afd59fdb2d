//! The syntactic checks of `match_if_let` and `let_else` (control.rs): which arms bind
//! nothing, which expressions surely diverge, where a scrutinee needs parentheses, and which
//! scrutinees may hold a lock or a borrow.

use proc_macro2::{Delimiter, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;

use crate::syntax;

pub(super) use crate::edit::overlaps;

/// A block with no label or attribute: it can be the block of an `if` or an `else`.
pub(super) fn plain_block(expr: &syn::Expr) -> bool {
    matches!(expr, syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty())
}

/// `_` or a binding: an `if let` of it draws `irrefutable_let_patterns` (and a match arm
/// after it `unreachable_patterns`).
pub(super) fn irrefutable(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Wild(_) => true,
        syn::Pat::Ident(i) => i.ident.to_string().starts_with(|c: char| c.is_lowercase()),
        _ => false,
    }
}

/// Whether the second arm matches exactly what the first does not, binding nothing: `_`,
/// `None` after `Some(..)`, `Err(_)` after `Ok(..)`.
pub(super) fn binds_nothing_after(first: &syn::Pat, second: &syn::Pat) -> bool {
    let variant = |pat: &syn::Pat| match pat {
        syn::Pat::TupleStruct(t) => t.path.get_ident().map(ToString::to_string),
        _ => None,
    };
    match second {
        syn::Pat::Wild(_) => true,
        syn::Pat::Ident(i) => {
            i.ident == "None"
                && i.subpat.is_none()
                && i.by_ref.is_none()
                && i.mutability.is_none()
                && variant(first).as_deref() == Some("Some")
        }
        syn::Pat::TupleStruct(t) => {
            t.path.is_ident("Err")
                && matches!(
                    t.elems.iter().collect::<Vec<_>>().as_slice(),
                    [syn::Pat::Wild(_)]
                )
                && variant(first).as_deref() == Some("Ok")
        }
        _ => false,
    }
}

/// The `Ok(v) => v` (or `Some(v) => v`) arm and the diverging arm of a let's match.
pub(super) fn value_and_diverging_arm(m: &syn::ExprMatch) -> Option<(&syn::Arm, &syn::Arm)> {
    let [a, b] = m.arms.as_slice() else {
        return None;
    };
    let (value, diverge) = if value_arm(a).is_some() {
        (a, b)
    } else {
        (b, a)
    };
    let variant = value_arm(value)?;
    let plain = |arm: &syn::Arm| arm.attrs.is_empty() && arm.guard.is_none();
    if !plain(value) || !plain(diverge) || !diverges(&diverge.body) {
        return None;
    }
    let other_ok = match &diverge.pat {
        syn::Pat::Wild(_) => true,
        syn::Pat::Ident(i) => variant == "Some" && i.ident == "None" && i.subpat.is_none(),
        syn::Pat::TupleStruct(t) if variant == "Ok" && t.path.is_ident("Err") => {
            match t.elems.iter().collect::<Vec<_>>().as_slice() {
                [syn::Pat::Wild(_)] => true,
                [syn::Pat::Ident(e)] => e.subpat.is_none() && !mentions(&diverge.body, &e.ident),
                _ => false,
            }
        }
        _ => false,
    };
    other_ok.then_some((value, diverge))
}

/// `Ok(v) => v` / `Some(v) => v` with a plain binding: the variant's name.
pub(super) fn value_arm(arm: &syn::Arm) -> Option<String> {
    let syn::Pat::TupleStruct(t) = &arm.pat else {
        return None;
    };
    let variant = t.path.get_ident()?.to_string();
    let [syn::Pat::Ident(v)] = t.elems.iter().collect::<Vec<_>>().as_slice() else {
        return None;
    };
    let syn::Expr::Path(body) = &*arm.body else {
        return None;
    };
    let plain = v.by_ref.is_none() && v.mutability.is_none() && v.subpat.is_none();
    let same = body.qself.is_none() && body.path.is_ident(&v.ident);
    (plain && same && (variant == "Ok" || variant == "Some")).then_some(variant)
}

/// Whether an expression surely does not complete (on its syntax alone).
/// Anything with an attribute (a `cfg` may take it away) does not count.
pub(super) fn diverges(expr: &syn::Expr) -> bool {
    if starts_with_attribute(expr) {
        return false;
    }
    match expr {
        syn::Expr::Return(_) | syn::Expr::Continue(_) | syn::Expr::Break(_) => true,
        syn::Expr::Macro(m) => diverging_macro(&m.mac),
        syn::Expr::Block(b) if b.label.is_none() => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, _)) => diverges(e),
            Some(syn::Stmt::Macro(m)) => m.attrs.is_empty() && diverging_macro(&m.mac),
            _ => false,
        },
        _ => false,
    }
}

fn starts_with_attribute(expr: &syn::Expr) -> bool {
    let first = expr.to_token_stream().into_iter().next();
    matches!(first, Some(TokenTree::Punct(p)) if p.as_char() == '#')
}

pub(super) fn diverging_macro(mac: &syn::Macro) -> bool {
    matches!(
        syntax::last_segment(&mac.path).as_deref(),
        Some("panic" | "unreachable")
    )
}

/// Whether `ident` occurs in `expr`: macro tokens included, and words of string literals too
/// (a format string captures `{e}` without naming `e` as a token).
pub(super) fn mentions(expr: &syn::Expr, ident: &syn::Ident) -> bool {
    fn walk(tokens: proc_macro2::TokenStream, name: &str) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == name,
            TokenTree::Group(g) => walk(g.stream(), name),
            TokenTree::Literal(lit) => lit
                .to_string()
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == name),
            TokenTree::Punct(_) => false,
        })
    }
    walk(expr.to_token_stream(), &ident.to_string())
}

/// Where a scrutinee goes: `if let _ = E {}`, `let _ = E else {};`, `match E {}`.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    IfLet,
    LetElse,
    Match,
}

/// Whether `E` must be put in parentheses in `slot`: when it would not parse back as itself
/// there (a struct literal, `&&` making a let chain), and where `let .. else` forbids it (an
/// expression ending in `}`, a lazy boolean). Parentheses that are not needed would draw an
/// `unused_parens` warning, an error under `#![deny(warnings)]`.
pub(super) fn needs_parens(expr: &syn::Expr, slot: Slot) -> bool {
    let text = expr.to_token_stream().to_string();
    let reparsed = match slot {
        Slot::IfLet => match syn::parse_str(&format!("if let _mm = {text} {{}}")) {
            Ok(syn::Expr::If(e)) => match *e.cond {
                syn::Expr::Let(l) => Some(*l.expr),
                _ => None,
            },
            _ => None,
        },
        Slot::Match => match syn::parse_str(&format!("match {text} {{}}")) {
            Ok(syn::Expr::Match(m)) => Some(*m.expr),
            _ => None,
        },
        Slot::LetElse => {
            let ends_in_brace = expr.to_token_stream().into_iter().last().is_some_and(
                |t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace),
            );
            let lazy = matches!(expr, syn::Expr::Binary(b)
                if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)));
            return ends_in_brace || lazy;
        }
    };
    reparsed.is_none_or(|e| e.to_token_stream().to_string() != text)
}

/// Methods whose result holds a lock or a borrow until it is dropped.
const GUARD_METHODS: &str = "lock try_lock read try_read write try_write borrow borrow_mut \
    try_borrow try_borrow_mut blocking_lock blocking_read blocking_write lock_owned upgradable_read";

/// Whether dropping the scrutinee's temporaries earlier or later cannot be seen.
pub(super) fn scrutinee_is_safe(expr: &syn::Expr, has_drop: bool) -> bool {
    struct Check {
        has_drop: bool,
        ok: bool,
    }
    impl<'ast> Visit<'ast> for Check {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let name = m.method.to_string();
            if self.has_drop || GUARD_METHODS.split_whitespace().any(|g| g == name) {
                self.ok = false;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            self.ok &= !self.has_drop;
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.ok &= !self.has_drop;
        }
        fn visit_expr_await(&mut self, _: &'ast syn::ExprAwait) {
            self.ok = false;
        }
    }
    let mut check = Check { has_drop, ok: true };
    check.visit_expr(expr);
    check.ok
}
