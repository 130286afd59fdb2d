//! Where the `Err` a fn returns is made. An exit that returns what a crate fn it calls
//! returned, unchanged (`helper(x)?`, `helper(x).await` as the tail, `return helper(x)`),
//! adds nothing to the failure: its `Err`s are made at that callee's own exits. Following
//! those calls puts each failure path where its `Err` is made, so that moving a tool's body
//! into a helper does not move its paths.

use foldhash::HashSet;

use super::Analysis;
use super::calls::CallKind;
use super::facts::{Exit, ExitKind};
use super::program::FnId;
use crate::model::ir::{Body, ExprId, ExprKind};

/// How many forwarding calls one path may go through.
const MAX_DEPTH: usize = 8;

/// The exits where the `Err`s of `exits` (exits of fn `f`) are made: each exit itself, or,
/// for one that forwards a crate callee's result, that callee's exits, followed again. Each
/// fn's exits are followed once (a callee two exits forward to gives its paths once), so the
/// work is linear in the fns and exits reached, whatever the call graph's shape.
pub fn origin_exits<'a>(
    a: &'a Analysis<'_>,
    f: FnId,
    exits: impl IntoIterator<Item = &'a Exit>,
) -> Vec<(FnId, &'a Exit)> {
    let mut out = Vec::new();
    let mut expanded = HashSet::default();
    expanded.insert(f);
    for exit in exits {
        collect(a, f, exit, 0, &mut expanded, &mut out);
    }
    out
}

fn collect<'a>(
    a: &'a Analysis<'_>,
    f: FnId,
    exit: &'a Exit,
    depth: usize,
    expanded: &mut HashSet<FnId>,
    out: &mut Vec<(FnId, &'a Exit)>,
) {
    let callees = forwarded_callees(a, f, exit);
    if callees.is_empty() || depth >= MAX_DEPTH {
        out.push((f, exit));
        return;
    }
    for callee in callees {
        if !expanded.insert(callee) {
            continue;
        }
        for e in own_exits(a, callee) {
            collect(a, callee, e, depth + 1, expanded, out);
        }
    }
}

/// The exits of fn `f`'s own body (and of the `async` blocks it returns).
pub fn own_exits<'a>(a: &'a Analysis<'_>, f: FnId) -> impl Iterator<Item = &'a Exit> + 'a {
    let facts = &a.facts[f as usize];
    facts
        .exits
        .iter()
        .filter(move |e| e.owner.is_none_or(|c| facts.returned_async.contains(&c)))
}

/// The crate fns whose result `exit` returns unchanged: its value (or its `?` operand) is a
/// call resolved by type or path, awaited or not, with no adapter around it.
pub fn forwarded_callees(a: &Analysis<'_>, f: FnId, exit: &Exit) -> Vec<FnId> {
    let body = &a.program.def(f).body;
    let value = match (exit.kind, &body.expr(exit.at).kind) {
        (ExitKind::Question, ExprKind::Try { expr, .. }) => *expr,
        (ExitKind::Return, ExprKind::Return(Some(v))) => *v,
        (ExitKind::Tail, _) => exit.at,
        _ => return Vec::new(),
    };
    let call = without_await(body, value);
    if !matches!(
        body.expr(call).kind,
        ExprKind::Call { .. } | ExprKind::MethodCall { .. }
    ) {
        return Vec::new();
    }
    let resolved = &a.resolved[f as usize];
    resolved
        .at(call)
        .map(|i| &resolved.calls[i as usize])
        .filter(|c| matches!(c.kind, CallKind::Call | CallKind::Method) && !c.may)
        .flat_map(|c| c.targets.iter().copied())
        .filter(|&t| a.program.is_own(t))
        .collect()
}

fn without_await(body: &Body, mut e: ExprId) -> ExprId {
    while let ExprKind::Await(inner) = &body.expr(e).kind {
        e = *inner;
    }
    e
}
