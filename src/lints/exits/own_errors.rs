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
                // An error object a tool made and handed back enters the answer where the
                // response carrying it is built (`Response { error: Some(e), .. }`).
                let carried = made_by_tool(cx, f, at);
                // An error object on the dispatcher's own `Err` side, handed on by one of its
                // exits, is that exit's to report (see `forwards`).
                if o.part == Part::Err && exit_covers(cx, f, at) {
                    continue;
                }
                let at = carried.unwrap_or(at);
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
                // A failure of a tool: made in the arm that runs it, or by the tool itself.
                // Elsewhere the dispatcher answers for itself (not initialized, a result it
                // cannot serialize), except when it rejects a tool's arguments. A tool's own
                // -32602 rejects its arguments.
                let validation = match carried {
                    Some(_) => matches!(o.fact,
                        Fact::RpcErrorObject { code: Some(c), .. } if c == INVALID_PARAMS),
                    None => crate::analysis::text::mentions_arguments(&text),
                };
                if !validation
                    && carried.is_none()
                    && !facts.tool_arm_exprs.contains(&at)
                    && !fed_by_tool(cx, f, at)
                {
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
        responses_carrying_tool_errors(cx, f, &mut seen, &mut out);
        tool_errors_handed_back(cx, f, &mut seen, &mut out);
    }
    out
}

/// A dispatcher that hands a tool's own error object back as its value (`match tool(args) {
/// Err(e) => (None, Some(e)), .. }`) to a caller that answers it with a JSON-RPC error: the
/// call that runs the tool is where the tool's failure enters the dispatcher's answer.
fn tool_errors_handed_back(
    cx: &Cx<'_>,
    f: FnId,
    seen: &mut HashSet<Span>,
    out: &mut Vec<OwnErrorSite>,
) {
    let facts = &cx.a.facts[f as usize];
    let body = &cx.a.program.def(f).body;
    for r in facts.returns.iter().filter(|r| r.owner.is_none()) {
        for o in r.val.iter() {
            if o.fact != Fact::ErrValue || o.site.func != f || o.part == Part::Err {
                continue;
            }
            let call = body.peel(o.site.expr);
            if facts.rpc_error_calls.iter().any(|&(c, _)| c == call) {
                continue;
            }
            let held = matches!(&body.expr(call).kind, ExprKind::Call { func, .. }
                if matches!(body.expr(*func).kind, ExprKind::Local(_)));
            // A tool held in a registry: any of the registered tools, fns or closures.
            let tools: Vec<Node> = if held {
                let fns = cx.a.program.fn_ids().filter(|&t| {
                    cx.handlers.role(t) == Role::Tool
                        && cx.handlers.channels[t as usize] == Channel::Protocol
                });
                fns.map(|t| Node {
                    func: t,
                    closure: None,
                })
                .chain(
                    cx.handlers
                        .protocol_closures
                        .iter()
                        .map(|&n| cx.a.program.node(n)),
                )
                .collect()
            } else {
                as_nodes(tools_run_by(cx, f, call))
            };
            let Some(validation) = tool_error_codes_say_validation(cx, &tools) else {
                continue;
            };
            let span = cx.site_span(Site {
                func: f,
                expr: call,
            });
            if seen.insert(span) {
                out.push(OwnErrorSite {
                    handler: cx.a.program.fn_node(f),
                    span,
                    validation,
                });
            }
        }
    }
}

/// Tool fns as bodies.
fn as_nodes(fns: Vec<FnId>) -> Vec<Node> {
    fns.into_iter()
        .map(|func| Node {
            func,
            closure: None,
        })
        .collect()
}

/// Whether the error objects `tools` (fns or closures) make all say invalid params (`None`
/// when they make none).
fn tool_error_codes_say_validation(cx: &Cx<'_>, tools: &[Node]) -> Option<bool> {
    let mut codes = tools.iter().flat_map(|t| {
        cx.a.facts[t.func as usize]
            .exits
            .iter()
            .filter(move |e| e.owner == t.closure)
            .flat_map(|e| {
                e.err.iter().filter_map(|o| match o.fact {
                    Fact::RpcErrorObject { code, .. } => Some(code),
                    _ => None,
                })
            })
    });
    let first = codes.next()?;
    Some(first == Some(INVALID_PARAMS) && codes.all(|c| c == first))
}

/// The responses dispatcher `f` builds (or has a helper build, `reply(id, tool.call(..))`)
/// with a tool's own error object in their `error` member: where the tools' failures enter
/// the answer. They reject the arguments when every error object the tools make says so
/// (-32602).
fn responses_carrying_tool_errors(
    cx: &Cx<'_>,
    f: FnId,
    seen: &mut HashSet<Span>,
    out: &mut Vec<OwnErrorSite>,
) {
    for &(call, construction) in &cx.a.facts[f as usize].rpc_error_calls {
        let tools = tools_run_by(cx, f, call);
        if tools.is_empty() {
            continue;
        }
        let Some(validation) = tool_error_codes_say_validation(cx, &as_nodes(tools)) else {
            continue;
        };
        let span = cx.site_span(built_in_helper(cx, f, construction).unwrap_or(Site {
            func: f,
            expr: construction,
        }));
        if seen.insert(span) {
            out.push(OwnErrorSite {
                handler: cx.a.program.fn_node(f),
                span,
                validation,
            });
        }
    }
}

/// Where a helper that `call` in fn `f` runs builds the response from the `Err` it is given
/// (`fn reply(id, result) { match result { Err(e) => Reply { error: Some(e), .. } } }`): the
/// one place every caller's tool failures enter the answer.
fn built_in_helper(cx: &Cx<'_>, f: FnId, call: ExprId) -> Option<Site> {
    let mut at = Site {
        func: f,
        expr: call,
    };
    let mut found = None;
    // Down a chain of helpers that hand the result on (`reply` calling `build`); the bound
    // is for recursion.
    for _ in 0..8 {
        let next = cx.a.resolved[at.func as usize]
            .targets(at.expr)
            .filter(|c| !c.may)
            .flat_map(|c| c.targets.iter().copied())
            .find_map(|g| {
                let &(_, expr) = cx.a.facts[g as usize].rpc_error_params.first()?;
                Some(Site { func: g, expr })
            });
        match next {
            Some(site) if Some(site) != found => {
                found = Some(site);
                at = site;
            }
            _ => break,
        }
    }
    found
}

/// The tool fns `call` in fn `f` runs.
fn tools_run_by(cx: &Cx<'_>, f: FnId, call: ExprId) -> Vec<FnId> {
    cx.a.resolved[f as usize]
        .targets(call)
        .filter(|c| !c.may)
        .flat_map(|c| c.targets.iter().copied())
        .filter(|&t| cx.handlers.role(t) == Role::Tool)
        .collect()
}

/// Whether an exit of fn `f` (its `?`, `return`, tail) is or contains expression `at`.
fn exit_covers(cx: &Cx<'_>, f: FnId, at: ExprId) -> bool {
    let body = &cx.a.program.def(f).body;
    let inner = body.expr(at).span;
    cx.a.facts[f as usize].exits.iter().any(|e| {
        let outer = body.expr(e.at).span;
        e.owner.is_none() && outer.start <= inner.start && inner.end <= outer.end
    })
}

/// JSON-RPC's code for invalid params.
const INVALID_PARAMS: i32 = -32602;

/// Where an error object that `call` in dispatcher `f` returned, when `call` runs a tool,
/// enters the dispatcher's answer: the response built from it (`Response { error: Some(e),
/// .. }`), or else the call itself (the dispatcher hands the object back as its value). The
/// object is the tool's; the answer is the dispatcher's.
fn made_by_tool(cx: &Cx<'_>, f: FnId, call: ExprId) -> Option<ExprId> {
    if tools_run_by(cx, f, call).is_empty() {
        return None;
    }
    let response = cx.a.facts[f as usize]
        .rpc_error_calls
        .iter()
        .find(|(c, _)| *c == call)
        .map(|&(_, construction)| construction);
    Some(response.unwrap_or(call))
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
