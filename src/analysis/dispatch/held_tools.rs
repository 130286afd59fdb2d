//! Tools held as trait objects. A registry of `Box<dyn Tool>` values, or a list searched by
//! the tool's name, gives the dispatcher the value the requested name selects; a method
//! called on that value runs the implementation of whatever type is stored there. So each
//! trait implementation such a call resolves to is a tool, however the registry was built,
//! whatever its key expression, and whatever the trait and its methods are called.

use super::*;
use crate::analysis::text;

/// Bound on the steps back through locals and adapters from a receiver to the lookup that
/// gave it; each step goes to a smaller or earlier expression.
const MAX_STEPS: usize = 32;

/// The trait implementations that selector `s` runs through a value it selected by the
/// tool's name (`tools.get(name)`, `tools.iter().find(|t| t.name() == name)`).
pub(super) fn selected_implementations(a: &Analysis<'_>, s: FnId) -> Vec<FnId> {
    let body = &a.program.def(s).body;
    let names = &a.tool_names[s as usize];
    let mut out = Vec::new();
    for c in &a.resolved[s as usize].calls {
        if c.may || c.kind != CallKind::Method || c.targets.is_empty() {
            continue;
        }
        let ExprKind::MethodCall { receiver, .. } = &body.expr(c.expr).kind else {
            continue;
        };
        if !c.targets.iter().all(|&t| implements_trait(a, t))
            || !selected_by_name(body, *receiver, names)
        {
            continue;
        }
        out.extend(c.targets.iter().copied().filter(|&t| a.program.is_own(t)));
    }
    out
}

/// Whether fn `t` is a method of a trait implementation (what a call through a trait object
/// runs).
fn implements_trait(a: &Analysis<'_>, t: FnId) -> bool {
    match a.program.def(t).kind {
        FnKind::Method { impl_idx } => a
            .program
            .file_ir(t)
            .impls
            .get(impl_idx as usize)
            .is_some_and(|i| i.trait_path.is_some()),
        _ => false,
    }
}

/// Whether `e` is a value a lookup or a search by the tool's name gave: a method call one of
/// whose arguments is the name or a test against it, reached back through the locals that
/// hold its result, its `Some`/`Ok` content, `?`, `.await`, references and adapters.
fn selected_by_name(body: &Body, e: ExprId, names: &[LocalId]) -> bool {
    let mut at = e;
    for _ in 0..MAX_STEPS {
        match &body.expr(at).kind {
            ExprKind::Local(l) => {
                let local = body.local(*l);
                match local.unwraps.or(local.init) {
                    Some(v) => at = v,
                    None => return false,
                }
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                if args.iter().any(|&arg| {
                    text::mentions_name_given(body, arg, names)
                        || text::searches_by_name(body, arg, names)
                }) {
                    return true;
                }
                at = *receiver;
            }
            ExprKind::Ref(i) | ExprKind::Deref(i) | ExprKind::Await(i) => at = *i,
            ExprKind::Try { expr, .. } => at = *expr,
            ExprKind::Match { scrutinee, .. } => at = *scrutinee,
            ExprKind::Block { tail: Some(t), .. } => at = *t,
            _ => return false,
        }
    }
    false
}
