//! Where a hand-rolled dispatcher hands a tool's failure on. A server that writes its own
//! responses answers the dispatcher's `Err` with a JSON-RPC error object somewhere up the
//! call chain. When the dispatcher's `Err` also carries request errors (an unknown tool,
//! `params` it cannot read), that answer is right for them and must stay; the place to change
//! is where a tool's result becomes the dispatcher's own: its `?` on the tool's call, the
//! `return run(args)`, or the arm `"run" => run(args)` that is the dispatcher's value.

use super::*;
use crate::analysis::forwarding::{forwarded_callees, own_exits};

/// The site of `exit` of dispatcher `hf` when it hands a tool fn's result on unchanged into
/// an `Err` that request errors share.
pub(super) fn forward_site(cx: &Cx<'_>, h: NodeId, hf: FnId, exit: &Exit) -> Option<ProtocolSite> {
    if !cx.sdk.is_some_and(|s| s.writes_own_responses())
        || cx.node_role(h) != Role::Dispatcher
        || cx.a.program.node(h).closure.is_some()
        || exit.in_fallback
    {
        return None;
    }
    let tool = forwarded_into_answer(cx, hf, exit)?;
    if !shares_with_request_errors(cx, hf) {
        return None;
    }
    // The answer's code is the construction's, up the chain, which answers every failure
    // alike: argument failures reach it as execution failures do.
    let protocol = Protocol {
        ctor: ErrorCtor::Other,
        code: None,
        deserialize_prefix: false,
        unknown_tool: false,
        sdk_parse: false,
    };
    Some(ProtocolSite {
        forwards: Some(tool),
        forwards_held: forwards_held_value(cx, hf, exit),
        ..ProtocolSite::at_exit(h, hf, exit, exit_span(cx, hf, exit, None), protocol)
    })
}

/// The crate fn whose result `exit` hands on unchanged as the dispatcher's: a tool fn, or
/// any fn called in an arm that runs a tool (`"load" => Ok(load(args)?)`), whose failure is
/// that tool's.
fn forwarded_into_answer(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> Option<FnId> {
    let callees = forwarded_callees(cx.a, hf, exit);
    let tool = callees
        .iter()
        .copied()
        .find(|&t| cx.handlers.role(t) == Role::Tool);
    tool.or_else(|| {
        callees
            .first()
            .copied()
            .filter(|_| super::made_in_tool_arm(cx, hf, exit))
    })
    .or_else(|| held_tool(cx, hf, exit))
}

/// For an exit that hands on what a value held in a local returns (`handler(args).await`,
/// the tool a registry lookup found): a tool fn whose `Err` is answered with a JSON-RPC
/// error, standing for the registered tools that call can run, or the dispatcher itself when
/// the registered tools are closures.
fn held_tool(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> Option<FnId> {
    if !forwards_held_value(cx, hf, exit) {
        return None;
    }
    let tool_fn = cx.a.program.fn_ids().find(|&t| {
        cx.handlers.role(t) == Role::Tool && cx.handlers.channels[t as usize] == Channel::Protocol
    });
    tool_fn.or_else(|| (!cx.handlers.protocol_closures.is_empty()).then_some(hf))
}

/// Whether `exit` of `hf` hands on the result of calling a value held in a local.
pub(super) fn forwards_held_value(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> bool {
    let body = &cx.a.program.def(hf).body;
    let mut value = match (exit.kind, &body.expr(exit.at).kind) {
        (ExitKind::Question, ExprKind::Try { expr, .. }) => *expr,
        (ExitKind::Return, ExprKind::Return(Some(v))) => *v,
        (ExitKind::Tail, _) => exit.at,
        _ => return false,
    };
    while let ExprKind::Await(inner) = &body.expr(value).kind {
        value = *inner;
    }
    matches!(&body.expr(value).kind, ExprKind::Call { func, .. }
        if matches!(body.expr(*func).kind, ExprKind::Local(_)))
}

/// Whether the dispatcher's `Err` carries more than its tools' failures: some error exit of
/// its own is neither tool code (made in an arm that runs a tool) nor a tool's result handed
/// on — the request's own failure, or an unknown tool.
fn shares_with_request_errors(cx: &Cx<'_>, hf: FnId) -> bool {
    own_exits(cx.a, hf)
        .any(|e| !super::made_in_tool_arm(cx, hf, e) && forwarded_into_answer(cx, hf, e).is_none())
}

/// Whether every failure of a tool dispatcher `hf` runs is reported where it enters `hf`'s
/// `Err` ([`forward_site`]): that `Err` carries request errors too, and each of `hf`'s own
/// exits in a tool's arm hands on a crate fn's result (no tool code written in place fails
/// there, whose failures are placed where the `Err` is answered).
pub(super) fn places_tool_failures(cx: &Cx<'_>, hf: FnId) -> bool {
    // A dispatcher whose whole body is a helper's call (or another dispatcher's) fails where
    // that one does.
    let mut body = cx.handlers.body[hf as usize].unwrap_or(hf);
    for _ in 0..4 {
        match crate::analysis::continuations::forwarded_whole(cx.a, body) {
            Some(t) if cx.handlers.role(t) == Role::Dispatcher => body = t,
            _ => break,
        }
    }
    cx.handlers.role(hf) == Role::Dispatcher
        && shares_with_request_errors(cx, body)
        && own_exits(cx.a, body).all(|e| {
            !super::made_in_tool_arm(cx, body, e) || forwarded_into_answer(cx, body, e).is_some()
        })
}

/// Whether `exit` of dispatcher `hf` hands on the result of another dispatcher, one the
/// request is handed to before a tool is selected.
pub(super) fn forwards_dispatcher(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> bool {
    forwarded_callees(cx.a, hf, exit)
        .into_iter()
        .any(|t| t != hf && cx.handlers.role(t) == Role::Dispatcher)
}
