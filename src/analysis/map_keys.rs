//! Keys taken from a map itself: `for k in m.keys()`, `m.keys().filter(|k| ..)`, a set
//! collected from `m.keys()` and the elements of its difference or intersection with another
//! set are keys `m` has, so `m.get(k)` finds an entry (as long as nothing removes one, which
//! a fn iterating the keys cannot do to the map it borrows).

use crate::model::ir::{Body, ExprId, ExprKind, LocalId, PatKind};

/// Iterator adapters whose items are some of their receiver's items.
const SUBSET_ADAPTERS: &[&str] = &[
    "iter",
    "into_iter",
    "cloned",
    "copied",
    "difference",
    "intersection",
    "filter",
    "skip",
    "take",
    "rev",
    "collect",
];

/// Methods whose closure gets each item of the receiver as its first parameter.
const ITEM_CLOSURES: &[&str] = &[
    "map",
    "filter",
    "filter_map",
    "for_each",
    "flat_map",
    "any",
    "all",
    "find",
    "inspect",
];

/// The locals of `body` bound to keys of a map, with the map's expression.
pub fn key_locals(body: &Body) -> Vec<(LocalId, ExprId)> {
    let mut out = Vec::new();
    for expr in &body.exprs {
        let (pat, items) = match &expr.kind {
            ExprKind::For { pat, iter, .. } => (Some(*pat), *iter),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if ITEM_CLOSURES.contains(&method.as_str()) => {
                let param = args.iter().find_map(|&a| match body.expr(a).kind {
                    ExprKind::Closure(c) => body.closure(c).params.first().copied(),
                    _ => None,
                });
                (param, *receiver)
            }
            _ => continue,
        };
        if let Some(local) = pat.and_then(|p| bound_local(body, p)) {
            let mut maps = Vec::new();
            maps_of_keys(body, items, 0, &mut maps);
            out.extend(maps.into_iter().map(|map| (local, map)));
        }
    }
    out
}

/// The local a pattern binds, through `&` and a type annotation (`|&k|`, `k: &str`).
fn bound_local(body: &Body, mut p: crate::model::ir::PatId) -> Option<LocalId> {
    for _ in 0..4 {
        match &body.pat(body.untyped(p)).kind {
            PatKind::Bind { local, sub: None } => return Some(*local),
            PatKind::Ref(inner) => p = *inner,
            _ => return None,
        }
    }
    None
}

/// The maps whose keys `e` yields: `m.keys()`, some of them (`filter`, `difference`, ..), a
/// never reassigned local collected from them, and for an intersection the keys of both sets'
/// maps (its items are in both).
fn maps_of_keys(body: &Body, e: ExprId, depth: u32, out: &mut Vec<ExprId>) {
    if depth > 8 || out.len() > 4 {
        return;
    }
    match &body.expr(body.peel(e)).kind {
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if method == "keys" && args.is_empty() => out.push(*receiver),
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if SUBSET_ADAPTERS.contains(&method.as_str()) => {
            maps_of_keys(body, *receiver, depth + 1, out);
            if method == "intersection"
                && let [other] = &args[..]
            {
                maps_of_keys(body, *other, depth + 1, out);
            }
        }
        ExprKind::Local(l) if !super::found::is_assigned(body, *l) => {
            if let Some(init) = body.local(*l).init {
                maps_of_keys(body, init, depth + 1, out);
            }
        }
        _ => {}
    }
}
