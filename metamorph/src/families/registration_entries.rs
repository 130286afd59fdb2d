//! How a key or value of a registration run may stand in a tuple of an array: as it is, or
//! cast to the type the map's `let` spells.

use super::super::fns::{Index, type_name};
use crate::syntax;

/// What a key or value is, for how it may stand in a tuple of an array.
pub(super) enum Kind<'a> {
    /// Its type is its own and nothing coerces to it: a number, a struct literal, a `String`,
    /// or left to inference (`.into()`).
    Data,
    /// A string literal: `&'static str`, which may coerce (to `&dyn Display`, ...).
    Str,
    /// `e as T`: typed already.
    Cast(&'a syn::Type),
    /// Typed without help from the context, and may have coerced: casts well to the slot type.
    Castable(Need),
}

/// What the slot type must be for the cast to be the coercion `insert` made.
pub(super) enum Need {
    Any,
    /// A closure: the cast gives it its signature only when the target is a fn pointer.
    FnPointer,
    /// A boxed fn or closure: only an unsizing to `Box<dyn ..>` is the same.
    DynBox,
}

impl Need {
    pub(super) fn met_by(&self, slot: &syn::Type, index: &Index) -> bool {
        let slot = resolved(slot, index);
        match self {
            Need::Any => true,
            Need::FnPointer => matches!(slot, syn::Type::BareFn(_)),
            Need::DynBox => super::super::scope::boxed_fn_like(slot, index).is_some(),
        }
    }
}

/// A type with the tree's non-generic aliases followed.
fn resolved<'a>(mut ty: &'a syn::Type, index: &'a Index) -> &'a syn::Type {
    for _ in 0..4 {
        match type_name(ty).and_then(|n| index.alias(&n)) {
            Some(target) if matches!(ty, syn::Type::Path(p) if p.path.segments.len() == 1) => {
                ty = target
            }
            _ => break,
        }
    }
    ty
}

pub(super) fn is_str_ref(ty: &syn::Type, index: &Index) -> bool {
    matches!(resolved(ty, index), syn::Type::Reference(r)
        if r.mutability.is_none() && matches!(&*r.elem, syn::Type::Path(p) if p.path.is_ident("str")))
}

pub(super) fn kind<'a>(expr: &'a syn::Expr, index: &Index) -> Option<Kind<'a>> {
    use syn::Expr as E;
    Some(match expr {
        E::Lit(l) => match l.lit {
            syn::Lit::Str(_) | syn::Lit::ByteStr(_) | syn::Lit::CStr(_) => Kind::Str,
            _ => Kind::Data,
        },
        E::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) && matches!(*u.expr, E::Lit(_)) => {
            Kind::Data
        }
        E::Paren(p) => return kind(&p.expr, index),
        E::Cast(c) => Kind::Cast(&c.ty),
        E::Path(p) if plain_value_path(p, index) => Kind::Castable(Need::Any),
        E::Closure(c) if c.asyncness.is_none() && c.constness.is_none() => {
            Kind::Castable(Need::FnPointer)
        }
        E::Call(c) if is_pointer_new(&c.func) && c.args.len() == 1 => {
            Kind::Castable(boxed_need(&c.args[0], index)?)
        }
        E::MethodCall(m)
            if m.method == "clone"
                && m.args.is_empty()
                && matches!(*m.receiver, E::Path(_) | E::Field(_)) =>
        {
            Kind::Castable(Need::Any)
        }
        E::MethodCall(m) if m.method == "into" && m.args.is_empty() && m.turbofish.is_none() => {
            Kind::Data
        }
        e if self_typed(e) => Kind::Data,
        _ => return None,
    })
}

/// Expressions whose type is theirs alone and never a pointer.
fn self_typed(expr: &syn::Expr) -> bool {
    use syn::Expr as E;
    match expr {
        E::Lit(l) => !matches!(
            l.lit,
            syn::Lit::Str(_) | syn::Lit::ByteStr(_) | syn::Lit::CStr(_)
        ),
        E::Struct(_) => true,
        E::Macro(m) => matches!(
            syntax::last_segment(&m.mac.path).as_deref(),
            Some("format" | "json")
        ),
        E::MethodCall(m) if m.args.is_empty() && m.turbofish.is_none() => {
            m.method == "to_string"
                || (m.method == "to_owned"
                    && matches!(&*m.receiver, E::Lit(l) if matches!(l.lit, syn::Lit::Str(_))))
        }
        E::Call(c) => path_is(&c.func, &["String", "from"]) || path_is(&c.func, &["String", "new"]),
        _ => false,
    }
}

/// What `Box::new(arg)` needs of the slot type.
fn boxed_need(arg: &syn::Expr, index: &Index) -> Option<Need> {
    match arg {
        syn::Expr::Path(p) if plain_value_path(p, index) => Some(Need::DynBox),
        // An untyped closure param gets no type from a cast through `Box::new`.
        syn::Expr::Closure(c)
            if c.asyncness.is_none() && c.inputs.iter().all(|p| matches!(p, syn::Pat::Type(_))) =>
        {
            Some(Need::DynBox)
        }
        syn::Expr::Call(c)
            if is_type_new(&c.func)
                && c.args
                    .iter()
                    .all(|a| self_typed(a) || matches!(a, syn::Expr::Lit(_))) =>
        {
            Some(Need::Any)
        }
        e if self_typed(e) => Some(Need::Any),
        _ => None,
    }
}

/// A path without generic arguments that is not a generic fn of the tree.
fn plain_value_path(p: &syn::ExprPath, index: &Index) -> bool {
    let last = p.path.segments.last().map(|s| s.ident.to_string());
    p.qself.is_none()
        && p.path.segments.iter().all(|s| s.arguments.is_none())
        && last.is_some_and(|l| l != "self" && !index.generic_fn_named(&l))
}

/// `Box::new`, `Arc::new`, `Rc::new` (any prefix).
fn is_pointer_new(func: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = func else {
        return false;
    };
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(segs.as_slice(), [.., ty, new] if new == "new" && matches!(ty.as_str(), "Box" | "Arc" | "Rc"))
        && p.path.segments.iter().all(|s| s.arguments.is_none())
}

/// `Type::new` for a type written without generic arguments.
fn is_type_new(func: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = func else {
        return false;
    };
    let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
    matches!(segs.as_slice(), [.., ty, new] if new.ident == "new"
        && ty.ident.to_string().starts_with(|c: char| c.is_uppercase()))
        && segs.iter().all(|s| s.arguments.is_none())
}

fn path_is(expr: &syn::Expr, names: &[&str]) -> bool {
    matches!(expr, syn::Expr::Path(p) if p.qself.is_none()
        && p.path.segments.iter().map(|s| s.ident.to_string()).eq(names.iter().map(|n| n.to_string())))
}

/// Whether `e as T` must be written `(e) as T`.
pub(super) fn needs_parens(expr: &syn::Expr) -> bool {
    use syn::Expr as E;
    !matches!(
        expr,
        E::Path(_)
            | E::Call(_)
            | E::MethodCall(_)
            | E::Macro(_)
            | E::Paren(_)
            | E::Field(_)
            | E::Index(_)
            | E::Struct(_)
            | E::Tuple(_)
            | E::Array(_)
            | E::Lit(_)
    )
}

/// Whether an expression uses the identifier `name` anywhere (macro tokens included).
pub(super) fn mentions(expr: &syn::Expr, name: &str) -> bool {
    let mut idents = Vec::new();
    syntax::idents(&quote::ToTokens::to_token_stream(expr), &mut idents);
    idents.iter().any(|i| i.ident == name)
}
