//! Where code tests a string for a known value. Rust says `method == "tools/call"` in several
//! ways that mean the same: a `match` arm with the literal or with a `const` holding it,
//! `==` with either side literal or constant, and `PartialEq::eq` called either way round
//! (`method.eq("tools/call")`, `"tools/call".eq(method)`). A verdict must not depend on which
//! one a server uses.

use super::types::TypeTable;
use crate::model::ir::{BinOp, Body, ExprId, ExprKind, PatId, PatKind};

/// The string an expression is known to be: a literal, or a crate constant holding one
/// (through `&`).
pub fn expr_str<'b>(types: &TypeTable<'b>, body: &'b Body, e: ExprId) -> Option<&'b str> {
    if let Some(s) = body.str_lit(e) {
        return Some(s);
    }
    match &body.expr(body.peel(e)).kind {
        ExprKind::Path(p) => types.const_str(p.last()?),
        _ => None,
    }
}

/// The string a pattern matches: a literal, a crate constant, `Some(..)` of one (a `match` on
/// `.as_str()` of a JSON value), `&..` of one, the first of an or-pattern.
pub fn pattern_str<'b>(types: &TypeTable<'b>, body: &'b Body, mut p: PatId) -> Option<&'b str> {
    // Each step goes into a strictly smaller pattern; the bound is for hostile nesting.
    for _ in 0..8 {
        match &body.pat(p).kind {
            PatKind::Lit(crate::model::ir::Lit::Str(v)) => return Some(v),
            PatKind::Path(path) => {
                let last = path.last()?;
                // A constant holding the string, or a variant the crate parses it into.
                let ty = path.len().checked_sub(2).and_then(|i| path.get(i));
                return types
                    .const_str(last)
                    .or_else(|| types.variant_str(ty?, last));
            }
            PatKind::Or(cases) => return cases.iter().find_map(|&c| pattern_str(types, body, c)),
            PatKind::TupleStruct { path, elems }
                if elems.len() == 1 && path.last().is_some_and(|l| l == "Some" || l == "Ok") =>
            {
                p = elems[0]
            }
            PatKind::Ref(inner) => p = *inner,
            _ => return None,
        }
    }
    None
}

/// Whether a pattern matches the string `s` (in any alternative of an or-pattern).
pub fn pattern_is(types: &TypeTable<'_>, body: &Body, p: PatId, s: &str) -> bool {
    match &body.pat(p).kind {
        PatKind::Or(cases) => cases.iter().any(|&c| pattern_is(types, body, c, s)),
        _ => pattern_str(types, body, p) == Some(s),
    }
}

/// The two sides of a comparison: `a == b` or `a.eq(b)` when `equal`, `a != b` or `a.ne(b)`
/// otherwise.
pub fn compared(body: &Body, cond: ExprId, equal: bool) -> Option<(ExprId, ExprId)> {
    let (op, method) = if equal {
        (BinOp::Eq, "eq")
    } else {
        (BinOp::Ne, "ne")
    };
    match &body.expr(cond).kind {
        ExprKind::Binary { op: o, lhs, rhs } if *o == op => Some((*lhs, *rhs)),
        ExprKind::MethodCall {
            receiver,
            method: m,
            args,
            ..
        } if m == method && args.len() == 1 => Some((*receiver, args[0])),
        _ => None,
    }
}

/// Of two compared expressions, the one that is not a known string, and the string.
fn against_string<'b>(
    types: &TypeTable<'b>,
    body: &'b Body,
    (lhs, rhs): (ExprId, ExprId),
) -> Option<(ExprId, &'b str)> {
    match (expr_str(types, body, lhs), expr_str(types, body, rhs)) {
        (None, Some(v)) => Some((lhs, v)),
        (Some(v), None) => Some((rhs, v)),
        _ => None,
    }
}

/// The value a condition tests to differ from a string (`method != "tools/call"`,
/// `!(method == "tools/call")`, `method.ne("tools/call")`), and the string.
pub fn inequality<'b>(
    types: &TypeTable<'b>,
    body: &'b Body,
    cond: ExprId,
) -> Option<(ExprId, &'b str)> {
    if let ExprKind::Not(inner) = &body.expr(cond).kind {
        return equality(types, body, *inner);
    }
    against_string(types, body, compared(body, cond, false)?)
}

/// A test of one expression against a known string: `(subject, value)` for `subject ==
/// "v"`, `"v" == subject`, `subject.eq("v")`, `"v".eq(subject)` or `let "v" = subject`
/// (`if let Some("v") = subject`), the value literal or constant.
pub fn equality<'b>(
    types: &TypeTable<'b>,
    body: &'b Body,
    cond: ExprId,
) -> Option<(ExprId, &'b str)> {
    if let ExprKind::Let { pat, expr } = &body.expr(cond).kind {
        return Some((*expr, pattern_str(types, body, *pat)?));
    }
    against_string(types, body, compared(body, cond, true)?)
}
