//! The JSON-RPC error objects a hand-rolled dispatcher answers a tool's failures with (the
//! server writes its own responses, so no SDK makes them).

use super::forwards::places_tool_failures;
use super::*;

/// A JSON-RPC error object a hand-rolled dispatcher answers a tool's failure with.
pub struct OwnErrorSite {
    pub handler: NodeId,
    pub span: Span,
    /// About the tool's arguments rather than its execution.
    pub validation: bool,
    /// The site is the call that runs a tool (the tool fn, when known) whose failure enters
    /// an error object built at `.1`, which also answers the request's own failures.
    pub forwards: Option<(Option<FnId>, Span)>,
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
                if facts.fallback_exprs.contains(&at) || outside_own_arms(cx, f, at) {
                    continue;
                }
                let span = cx.site_span(Site { func: f, expr: at });
                let text =
                    crate::analysis::text::written_text(&program.def(f).body, at).to_lowercase();
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
                if !validation && carried.is_none() && shared_with_request_errors(cx, f, at) {
                    for (call, tool) in tool_calls_answered(cx, f, at) {
                        let call_span = cx.site_span(Site {
                            func: f,
                            expr: call,
                        });
                        if seen.insert(call_span) {
                            out.push(OwnErrorSite {
                                handler: program.fn_node(f),
                                span: call_span,
                                validation,
                                forwards: Some((tool, span)),
                            });
                        }
                    }
                    continue;
                }
                if seen.insert(span) {
                    out.push(OwnErrorSite {
                        handler: program.fn_node(f),
                        span,
                        validation,
                        forwards: None,
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
                    forwards: None,
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
                forwards: None,
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
    cx.a.facts[f as usize]
        .rpc_error_calls
        .iter()
        .any(|&(call, c)| c == at && runs_tool(cx, f, call).is_some())
}

/// Whether `call` (in dispatcher `f`) runs a tool: a tool held in a local, called
/// (`tool(args)`), or a method of one that was found by the requested name
/// (`tools.iter().find(|t| t.name() == name)`, then `tool.execute(args)`); or a tool fn.
/// `Some(the tool fn)` when the call names one.
fn runs_tool(cx: &Cx<'_>, f: FnId, call: ExprId) -> Option<Option<FnId>> {
    let body = &cx.a.program.def(f).body;
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
    let tool = cx.a.resolved[f as usize]
        .targets(call)
        .filter(|c| !c.may)
        .flat_map(|c| c.targets.iter().copied())
        .find(|&t| matches!(cx.handlers.role(t), Role::Tool | Role::Dispatcher));
    // In a `tools/call` arm that runs the one tool itself, every call is the tool's code.
    let in_own_arm = cx.handlers.in_own_arm(&cx.a.program, f, call);
    match (tool, held || in_own_arm) {
        (Some(t), _) => Some(Some(t)),
        (None, true) => Some(None),
        (None, false) => None,
    }
}

/// Whether the error object built at `at` in dispatcher `f` also answers failures that are
/// no tool's: an `Err` the fn makes outside the arms that run tools (an unknown name), or
/// the failure of a call that runs no tool (reading the request).
fn shared_with_request_errors(cx: &Cx<'_>, f: FnId, at: ExprId) -> bool {
    let facts = &cx.a.facts[f as usize];
    let in_tool_arm = |e: ExprId| facts.tool_arm_exprs.contains(&e);
    let own = facts
        .rpc_error_others
        .iter()
        .any(|&(made, c)| c == at && !in_tool_arm(made));
    let calls = facts
        .rpc_error_calls
        .iter()
        .filter(|&&(call, c)| c == at && !in_tool_arm(call))
        .any(|&(call, _)| match runs_tool(cx, f, call) {
            None => true,
            Some(tool) => tool.is_some_and(|t| places_tool_failures(cx, t)),
        });
    own || calls
}

/// Where a tool's failure joins the request's own that the error object built at `at`
/// answers: each call that runs a tool, and each failure made by tool code written in the
/// arm that selects it.
fn tool_calls_answered(cx: &Cx<'_>, f: FnId, at: ExprId) -> Vec<(ExprId, Option<FnId>)> {
    let facts = &cx.a.facts[f as usize];
    let calls = facts
        .rpc_error_calls
        .iter()
        .filter(|&&(_, c)| c == at)
        .filter_map(|&(call, _)| runs_tool(cx, f, call).map(|tool| (call, tool)))
        .filter(|&(_, tool)| !tool.is_some_and(|t| places_tool_failures(cx, t)));
    let inline = facts
        .rpc_error_others
        .iter()
        .filter(|&&(made, c)| c == at && facts.tool_arm_exprs.contains(&made))
        .map(|&(made, _)| (selecting_arm(cx, f, made).unwrap_or(made), None));
    calls.chain(inline).collect()
}

/// The innermost arm around `e` that selects a tool by its name (a string pattern, or a
/// variant of an enum parsed from the name): tool code written in place, whose failures
/// all join the dispatcher's there.
fn selecting_arm(cx: &Cx<'_>, f: FnId, e: ExprId) -> Option<ExprId> {
    let body = &cx.a.program.def(f).body;
    let facts = &cx.a.facts[f as usize];
    let within = body.expr(e).span;
    let mut best: Option<(u32, ExprId)> = None;
    for x in &body.exprs {
        let ExprKind::Match { arms, .. } = &x.kind else {
            continue;
        };
        for arm in arms {
            let span = body.expr(arm.body).span;
            let selects = crate::analysis::strings::pattern_str(&cx.a.types, body, arm.pat)
                .is_some()
                || facts.parsed_name_arms.contains(&arm.body);
            let around = span.start <= within.start && within.end <= span.end;
            let size = span.end - span.start;
            if selects && around && best.is_none_or(|(b, _)| size < b) {
                best = Some((size, arm.body));
            }
        }
    }
    best.map(|(_, arm)| arm)
}

/// Whether `at` lies outside every `tools/call` arm of `f` when those arms are what makes
/// `f` dispatch (a request handler whose `tools/call` arm runs the tool): its answers to
/// other methods answer no tool.
fn outside_own_arms(cx: &Cx<'_>, f: FnId, at: ExprId) -> bool {
    cx.handlers.role(f) != Role::Dispatcher && !cx.handlers.in_own_arm(&cx.a.program, f, at)
}

/// The finding for an [`OwnErrorSite`].
pub fn own_error_finding(
    cx: &Cx<'_>,
    site: &OwnErrorSite,
    lint: &'static str,
    what: &str,
) -> crate::diagnostic::Finding {
    if let Some((tool, answered_at)) = site.forwards {
        return forward_finding(cx, site, lint, tool, answered_at);
    }
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

/// The finding for a call whose tool's failure enters an error object that also answers the
/// request's own failures: that answer stays, the tool's failure is answered here.
fn forward_finding(
    cx: &Cx<'_>,
    site: &OwnErrorSite,
    lint: &'static str,
    tool: Option<FnId>,
    answered_at: Span,
) -> crate::diagnostic::Finding {
    let tool = match tool {
        Some(t) => format!("tool `{}`", cx.a.program.name(t)),
        None => "the tool it runs".to_string(),
    };
    crate::diagnostic::Finding::new(
        lint,
        site.span,
        format!(
            "{} answers a failure of {tool} with the JSON-RPC error object it keeps for the request's own failures",
            cx.handler_phrase(site.handler)
        ),
    )
    .label("the client gets a JSON-RPC error, not a tool result: the model cannot read it or retry")
    .secondary(answered_at, "right for an unknown tool or unreadable `params`, wrong for a tool that ran")
    .note("a tool that ran and failed must answer with a result that has `isError: true`; JSON-RPC errors are for requests the server cannot process")
    .help("answer the tool's failure with a result here, and keep the error object for the request's own failures:\n    Err(e) => Ok(json!({ \"content\": [{ \"type\": \"text\", \"text\": e.to_string() }], \"isError\": true }))")
}
