//! The JSON-RPC error objects a hand-rolled dispatcher answers a tool's failures with (the
//! server writes its own responses, so no SDK makes them).

use super::*;

/// A JSON-RPC error object a hand-rolled dispatcher answers a tool's failure with.
pub struct OwnErrorSite {
    pub handler: NodeId,
    pub span: Span,
    /// About the tool's arguments rather than its execution.
    pub validation: bool,
}

/// The JSON-RPC error objects (`json!({"error": {"code", "message"}})`, a helper building
/// one) a hand-rolled dispatcher returns for a tool's failure. Answers to a malformed
/// request (`params` that fail the schema) or an unknown tool are correct and left out.
pub fn own_error_sites(cx: &Cx<'_>) -> Vec<OwnErrorSite> {
    let mut out = Vec::new();
    if !cx.sdk.is_some_and(|s| s.writes_own_responses()) {
        return out;
    }
    let mut seen: HashSet<Span> = HashSet::new();
    let program = &cx.a.program;
    for f in program.fn_ids() {
        // A dispatcher, or a fn whose `tools/call` branch dispatches in place.
        let dispatches = cx.handlers.role(f) == Role::Dispatcher
            || cx.handlers.arms.iter().any(|(g, _)| *g == f);
        if !cx.is_own(f) || !dispatches {
            continue;
        }
        let facts = &cx.a.facts[f as usize];
        let answers = facts.returns.iter().chain(&facts.sent);
        for r in answers.filter(|r| r.owner.is_none()) {
            for o in r.val.iter() {
                if !matches!(o.fact, Fact::RpcErrorObject { .. }) {
                    continue;
                }
                let at = match o.via {
                    Some(via) if via.func == f => via.expr,
                    None if o.site.func == f => o.site.expr,
                    _ => continue,
                };
                if facts.fallback_exprs.contains(&at) {
                    continue;
                }
                let span = cx.site_span(Site { func: f, expr: at });
                let text = cx.snippet(span).to_lowercase();
                // "Invalid parameters" answers `params` that fail the `CallToolRequest`
                // schema: a malformed request, which the spec answers with a protocol error.
                if crate::analysis::text::mentions_unknown_tool(&text)
                    || (text.contains("param") && !text.contains("argument"))
                {
                    continue;
                }
                // A failure of a tool: made in the arm that runs it. Elsewhere the dispatcher
                // answers for itself (not initialized, a result it cannot serialize), except
                // when it rejects a tool's arguments.
                let validation = crate::analysis::text::mentions_arguments(&text);
                if !validation && !facts.tool_arm_exprs.contains(&at) && !fed_by_tool(cx, f, at) {
                    continue;
                }
                if seen.insert(span) {
                    out.push(OwnErrorSite {
                        handler: program.fn_node(f),
                        span,
                        validation,
                    });
                }
            }
        }
    }
    out
}

/// Whether the error object built at `at` in dispatcher `f` is built from the `Err` of a
/// tool it runs: a tool fn, a handler it looked up in a registry and called, or a dispatcher
/// that runs the tools (inline or not) and hands their failures back. That construction is
/// where the tools' failures enter the answer.
fn fed_by_tool(cx: &Cx<'_>, f: FnId, at: ExprId) -> bool {
    let body = &cx.a.program.def(f).body;
    let resolved = &cx.a.resolved[f as usize];
    cx.a.facts[f as usize]
        .rpc_error_calls
        .iter()
        .filter(|(_, c)| *c == at)
        .any(|&(call, _)| {
            // A tool held in a local: called (`tool(args)`), or a method of one that was
            // found by the requested name (`tools.iter().find(|t| t.name() == name)`, then
            // `tool.execute(args)`).
            let names = &cx.a.tool_names[f as usize];
            let held = match &body.expr(call).kind {
                ExprKind::Call { func, .. } => match body.expr(*func).kind {
                    ExprKind::Local(_) => true,
                    ExprKind::Field { .. } => {
                        crate::analysis::text::mentions_name_given(body, *func, names)
                    }
                    _ => false,
                },
                ExprKind::MethodCall { receiver, .. } => {
                    matches!(body.expr(*receiver).kind, ExprKind::Local(_))
                        && crate::analysis::text::mentions_name_given(body, *receiver, names)
                }
                _ => false,
            };
            held || resolved
                .targets(call)
                .filter(|c| !c.may)
                .flat_map(|c| c.targets.iter())
                .any(|&t| matches!(cx.handlers.role(t), Role::Tool | Role::Dispatcher))
        })
}

/// The finding for an [`OwnErrorSite`].
pub fn own_error_finding(
    cx: &Cx<'_>,
    site: &OwnErrorSite,
    lint: &'static str,
    what: &str,
) -> crate::diagnostic::Finding {
    crate::diagnostic::Finding::new(
        lint,
        site.span,
        format!(
            "{} answers {what} with a JSON-RPC error object",
            cx.handler_phrase(site.handler)
        ),
    )
    .label("the client gets a protocol error, not a tool result the model can read")
    .note("a tool that ran and failed must answer with a result that has `isError: true`; JSON-RPC errors are for requests the server cannot process")
    .help("answer with a result instead:\n    json!({ \"content\": [{ \"type\": \"text\", \"text\": message }], \"isError\": true })")
}
