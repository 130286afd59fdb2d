//! A hand-rolled dispatcher's own rejections of the request, before it selects a tool: the
//! server not yet initialized, `params` it cannot read. No tool has run, so the spec's answer
//! is a JSON-RPC error, whatever channel the dispatcher's later `Err` takes for the tools.

use super::*;

/// Whether `exit` of dispatcher `hf` lies wholly before the dispatcher selects or runs a
/// tool: before its first call of a tool or of another dispatcher, its first call of a fn
/// held in a local or a field (a tool looked up by name), and its first `match` on the
/// requested tool's name. A dispatcher that selects nothing (the tool's own code) has no such
/// point.
pub(super) fn rejects_request(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> bool {
    if !cx.sdk.is_some_and(|s| s.writes_own_responses()) || exit.owner.is_some() {
        return false;
    }
    let Some(selection) = selection_start(cx, hf) else {
        return false;
    };
    let body = &cx.a.program.def(hf).body;
    body.expr(exit.at).span.end <= selection
}

/// Where fn `hf` first selects or runs a tool (a byte offset), if it does.
fn selection_start(cx: &Cx<'_>, hf: FnId) -> Option<u32> {
    let body = &cx.a.program.def(hf).body;
    let names = &cx.a.tool_names[hf as usize];
    let runs_tool = cx.a.resolved[hf as usize]
        .calls
        .iter()
        .filter(|c| {
            c.targets
                .iter()
                .any(|&t| t != hf && matches!(cx.handlers.role(t), Role::Tool | Role::Dispatcher))
        })
        .map(|c| body.expr(c.expr).span.start);
    let selects = body.exprs.iter().filter_map(|e| {
        let selecting = match &e.kind {
            ExprKind::Call { func, .. } => matches!(
                body.expr(*func).kind,
                ExprKind::Local(_) | ExprKind::Field { .. }
            ),
            ExprKind::Match { scrutinee, .. } => {
                crate::analysis::text::mentions_name_given(body, *scrutinee, names)
            }
            _ => false,
        };
        selecting.then_some(e.span.start)
    });
    runs_tool.chain(selects).min()
}
