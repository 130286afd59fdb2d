//! The calls whose result a fn returns as it is: its tail (through blocks, `.await` and the
//! branches of an `if` or `match`) and the values of its `return`s. Such a call adds nothing
//! to the value: failure text a helper made and the fn hands back unchanged is put into a
//! success where a caller further up wraps it, the same place as when the helper's body was
//! written in that caller.

use super::*;

/// The call expressions `body` returns unchanged.
pub(super) fn returned_calls(body: &Body) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut stack: Vec<ExprId> = body.root.into_iter().collect();
    stack.extend(body.exprs.iter().filter_map(|e| match e.kind {
        ExprKind::Return(Some(v)) => Some(v),
        _ => None,
    }));
    // Each step goes into a strictly smaller expression: the walk is linear in the body.
    while let Some(e) = stack.pop() {
        let mut v = body.value_of(e);
        while let ExprKind::Await(inner) = &body.expr(v).kind {
            v = body.value_of(*inner);
        }
        match &body.expr(v).kind {
            ExprKind::Call { .. } | ExprKind::MethodCall { .. } => out.push(v),
            ExprKind::If { then, els, .. } => {
                stack.push(*then);
                stack.extend(*els);
            }
            ExprKind::Match { arms, .. } => stack.extend(arms.iter().map(|a| a.body)),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
