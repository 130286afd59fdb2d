//! The protocol errors a tool's failures leave as, for `error_escapes_tool` and
//! `validation_as_protocol_error`: each error exit of a tool whose `Err` is a JSON-RPC error,
//! followed to where the protocol error is made — the `?`/`Err(..)` in the tool, or the
//! constructor in a helper (a `?` that only forwards a helper's protocol error is not a site).

use std::collections::HashSet;

use super::cx::Cx;
use crate::analysis::facts::{Exit, ExitKind};
use crate::analysis::program::{FnId, Node, NodeId, Site};
use crate::analysis::value::{Fact, Part, Protocol};
use crate::diagnostic::{Edit, Span};
use crate::model::ir::{ExprId, ExprKind};
use crate::sdk::{Channel, ErrorCtor, Role};

mod forwards;
mod own_errors;
mod request_gates;
pub use own_errors::{own_error_finding, own_error_sites};

/// Where a protocol error is made, as a lint reports it.
pub struct ProtocolSite {
    /// The tool handler whose failure it is.
    pub handler: NodeId,
    pub span: Span,
    /// The fn and body holding the site.
    pub func: FnId,
    pub node: NodeId,
    /// In the handler itself (its own `?` or `Err(..)`), not made in a helper.
    pub in_handler: bool,
    pub question_mark: bool,
    /// For `?` in the handler: the operand and whether it is an `Option` (`ok_or(..)?`).
    pub operand: Option<ExprId>,
    pub option: bool,
    pub protocol: Protocol,
    /// The constructor's message argument, for the help.
    pub message: Option<Span>,
    /// The name the user's `map_err` closure gives the error (`e` when there is none).
    pub binding: String,
    /// Why this protocol error is no finding here, when it is not.
    pub exempt: Option<Exempt>,
    /// The site is an `Err(..)` written here (not a `map_err` chain or a call that returns
    /// one): the only non-`?` site a fix can replace by a result.
    pub wraps_err: bool,
    /// The site is a macro that returns early with the error (`bail!`, `bail_public!`).
    pub early_return_macro: bool,
    /// The tool fn whose failure a hand-rolled dispatcher hands on here as its own `Err`,
    /// into an answer its callers also give to request errors (see `forwards`).
    pub forwards: Option<FnId>,
    /// What `forwards` hands on is a value held in a local (a tool a registry lookup found):
    /// `forwards` stands for every tool it can run.
    pub forwards_held: bool,
}

/// Why a protocol error a tool's exit carries is not reported at this tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exempt {
    /// The spec's answer to an unknown tool (or method).
    UnknownTool,
    /// `mutex.lock().map_err(..)?`: poisoning, a server bug rather than a tool failure.
    LockFailure,
    /// An error the SDK sends as an `isError` result (pmcp's `tool_rejected`).
    ToolRejection,
    /// Made in another tool whose own `Err` is a protocol error: reported there.
    OtherTool,
    /// A tool's `Err` in a server that writes its own responses: ordinary Rust until the
    /// dispatcher answers it with a JSON-RPC error object, which is where it is reported.
    AnsweredByDispatcher,
    /// A hand-rolled dispatcher rejects the request before it selects a tool (the server
    /// not initialized, `params` it cannot read): no tool ran.
    RequestRejected,
}

impl ProtocolSite {
    /// A site at `exit` of handler `h` (fn `hf`) itself, placed at `span`: what the exit
    /// tells of it (`?` or not, its operand), the rest as the caller sets it.
    fn at_exit(h: NodeId, hf: FnId, exit: &Exit, span: Span, protocol: Protocol) -> Self {
        ProtocolSite {
            handler: h,
            span,
            func: hf,
            node: h,
            in_handler: true,
            question_mark: exit.kind == ExitKind::Question,
            operand: exit.operand,
            option: exit.option,
            protocol,
            message: None,
            binding: "e".to_string(),
            exempt: None,
            wraps_err: false,
            early_return_macro: exit.kind == ExitKind::Macro,
            forwards: None,
            forwards_held: false,
        }
    }

    pub fn is_validation(&self) -> bool {
        self.protocol.ctor == ErrorCtor::InvalidParams || self.protocol.sdk_parse
    }
}

/// The channel a handler body's `Err` goes to.
pub fn channel(cx: &Cx<'_>, handler: NodeId) -> Channel {
    let node = cx.a.program.node(handler);
    if cx.handlers.protocol_closures.contains(&handler) {
        return Channel::Protocol;
    }
    if cx.handlers.closures.contains(&handler) {
        return cx.sdk.map_or(Channel::Unknown, |s| s.closure_channel());
    }
    match node.closure {
        None => cx.handlers.channels[node.func as usize],
        Some(_) => Channel::Unknown,
    }
}

/// The exits of a handler body: the fn's own (with the async blocks it returns), or the
/// closure's.
pub fn handler_exits<'a>(cx: &'a Cx<'_>, handler: NodeId) -> impl Iterator<Item = &'a Exit> + 'a {
    let node = cx.a.program.node(handler);
    let facts = &cx.a.facts[node.func as usize];
    facts.exits.iter().filter(move |e| match node.closure {
        Some(c) => {
            e.owner == Some(c)
                || e.owner
                    .is_some_and(|b| facts.closure_async.contains(&(c, b)))
        }
        None => e.owner.is_none_or(|c| facts.returned_async.contains(&c)),
    })
}

/// The exits of handler `h` and the fn they are in: its own ([`handler_exits`]), or, for a fn
/// whose whole body is a helper's call, the helper's: it fails where the helper does.
pub fn body_exits<'a>(cx: &'a Cx<'_>, h: NodeId) -> (FnId, impl Iterator<Item = &'a Exit> + 'a) {
    let node = cx.a.program.node(h);
    match cx.handlers.body[node.func as usize] {
        Some(t) if node.closure.is_none() => (t, handler_exits(cx, cx.a.program.fn_node(t))),
        _ => (node.func, handler_exits(cx, h)),
    }
}

/// The handlers that run tools: the package's tools and dispatchers, and handler closures.
pub fn tool_handlers(cx: &Cx<'_>) -> Vec<NodeId> {
    let program = &cx.a.program;
    let mut handlers: Vec<NodeId> = program
        .fn_ids()
        .filter(|&f| cx.is_own(f) && cx.handlers.role(f).handles_tools())
        .map(|f| program.fn_node(f))
        .collect();
    handlers.extend(cx.handlers.closures.iter().copied());
    handlers
}

/// Every protocol-error site of every tool whose `Err` is a JSON-RPC error, once per span.
pub fn protocol_sites(cx: &Cx<'_>) -> Vec<ProtocolSite> {
    let mut out: Vec<ProtocolSite> = Vec::new();
    let mut seen: std::collections::HashMap<Span, usize> = std::collections::HashMap::new();
    for h in tool_handlers(cx) {
        for site in handler_protocol_sites(cx, h) {
            if site.exempt.is_some() {
                continue;
            }
            match seen.get(&site.span) {
                None => {
                    seen.insert(site.span, out.len());
                    out.push(site);
                }
                // One place that answers argument and execution failures alike is an
                // execution failure's place (with argument failures too).
                Some(&i) if out[i].is_validation() && !site.is_validation() => out[i] = site,
                Some(_) => {}
            }
        }
    }
    out
}

/// The protocol errors the exits of tool handler `h` carry, when its `Err` is a JSON-RPC
/// error: the sites [`protocol_sites`] reports, and those it leaves out with the reason.
pub fn handler_protocol_sites(cx: &Cx<'_>, h: NodeId) -> Vec<ProtocolSite> {
    if channel(cx, h) != Channel::Protocol {
        return Vec::new();
    }
    let role = cx.node_role(h);
    let (hf, exits) = body_exits(cx, h);
    let own_responses = cx.sdk.is_some_and(|s| s.writes_own_responses());
    let mut out = Vec::new();
    for exit in exits {
        let exempt = if exit.lock_failure {
            Some(Exempt::LockFailure)
        } else if role == Role::Dispatcher && exit.in_fallback {
            Some(Exempt::UnknownTool)
        } else if role == Role::Dispatcher && request_gates::rejects_request(cx, hf, exit) {
            Some(Exempt::RequestRejected)
        } else if own_responses && (role != Role::Dispatcher || in_tool_arm(cx, hf, exit)) {
            Some(Exempt::AnsweredByDispatcher)
        } else if own_responses && forwards::forwards_dispatcher(cx, hf, exit) {
            // The dispatcher it hands the request to decides, exit by exit: reported there.
            Some(Exempt::OtherTool)
        } else {
            None
        };
        // A hand-rolled dispatcher's forward of tool code's result is the site, also where
        // the tool code's own exits are left to the dispatcher.
        if matches!(exempt, None | Some(Exempt::AnsweredByDispatcher))
            && let Some(site) = forwards::forward_site(cx, h, hf, exit)
        {
            out.push(site);
            continue;
        }
        for mut site in exit_sites(cx, h, hf, exit) {
            site.exempt = exempt.or(site.exempt);
            out.push(site);
        }
    }
    out
}

/// Whether an exit of dispatcher `hf` is tool code: inside an arm that runs a tool it selects
/// by name (its operand, its `Err(..)` or its value is a call made there), and not the arm's
/// forward of a tool fn's result (`"check" => run_check(args)`), which is where the tool's
/// failure enters the dispatcher's answer.
fn in_tool_arm(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> bool {
    let forwards_tool = crate::analysis::forwarding::forwarded_callees(cx.a, hf, exit)
        .iter()
        .any(|&t| cx.handlers.role(t) == Role::Tool);
    // An error object built right there (`Err(ToolError { code: -32602, .. })?` in the arm)
    // is the construction a tool's failure enters: the site.
    let builds_error_object = exit
        .err
        .iter()
        .any(|o| matches!(o.fact, Fact::RpcErrorObject { .. }) && o.site.func == hf);
    !forwards_tool && !builds_error_object && made_in_tool_arm(cx, hf, exit)
}

fn made_in_tool_arm(cx: &Cx<'_>, hf: FnId, exit: &Exit) -> bool {
    let facts = &cx.a.facts[hf as usize];
    let body = &cx.a.program.def(hf).body;
    let value = match &body.expr(exit.at).kind {
        ExprKind::Return(Some(v)) => Some(*v),
        _ => None,
    };
    let wrap = exit.err.iter().find_map(|o| o.wrap);
    [exit.operand, value, wrap, Some(exit.at)]
        .into_iter()
        .flatten()
        .any(|e| facts.tool_arm_exprs.contains(&e))
}

/// Where an exit of fn `hf` is reported: its `?`, the `Err(..)` that wrapped the error
/// (`wrap`), or the exit itself.
pub fn exit_span(cx: &Cx<'_>, hf: FnId, exit: &Exit, wrap: Option<ExprId>) -> Span {
    let body = &cx.a.program.def(hf).body;
    match (exit.kind, exit.question, wrap) {
        (ExitKind::Question, Some(q), _) => cx.span(hf, q),
        (_, _, Some(w)) => cx.span(hf, body.expr(w).span),
        _ => cx.span(hf, body.expr(exit.at).span),
    }
}

fn exit_sites(cx: &Cx<'_>, h: NodeId, hf: FnId, exit: &Exit) -> Vec<ProtocolSite> {
    let body = &cx.a.program.def(hf).body;
    let mut out = Vec::new();
    // Where the exit is neither a `?` nor an `Err(..)` written around the error, the error is
    // made inside the exit's value (`r.map_err(|e| internal_error(e))`): the constructor is
    // the place, as it is when the same code sits in a helper.
    let place = |wrap: Option<ExprId>, ctor_site: Option<Site>| match ctor_site {
        Some(site) if wrap.is_none() && exit.kind != ExitKind::Question => cx.site_span(site),
        _ => exit_span(cx, hf, exit, wrap),
    };
    let local = |protocol: Protocol, wrap: Option<ExprId>, ctor_site: Option<Site>| ProtocolSite {
        message: ctor_site
            .filter(|_| !protocol.sdk_parse)
            .and_then(|s| ctor_message(cx, s)),
        binding: adapter_binding(body, exit.at),
        wraps_err: wrap.is_some(),
        ..ProtocolSite::at_exit(h, hf, exit, place(wrap, ctor_site), protocol)
    };
    let mut other = false;
    let own = cx.sdk.is_some_and(|s| s.writes_own_responses());
    for o in exit.err.iter() {
        // An error of another type a helper returned: the SDK converts it where it leaves
        // the tool, but the helper's `?` is where the failure is and what the user changes.
        // Where the server writes its own responses no SDK converts anything: a helper's error
        // is ordinary Rust until the dispatcher answers it.
        let from_helper = (o.site.func != hf && !own)
            .then(|| converted_in_helper(o.fact))
            .flatten();
        let Some(p) = protocol_of(o.fact, own).or(from_helper) else {
            other |= !matches!(o.fact, Fact::Param(_) | Fact::Returned);
            continue;
        };
        let exempt = if p.unknown_tool || p.ctor == ErrorCtor::MethodNotFound {
            Some(Exempt::UnknownTool)
        } else if p.ctor == ErrorCtor::ToolRejection {
            Some(Exempt::ToolRejection)
        } else {
            None
        };
        if o.site.func == hf {
            // Made in the catch-all arm of a dispatcher's `match` on the tool name, also when
            // the `match` is the tail: the spec's answer to an unknown tool.
            let fallback = &cx.a.facts[hf as usize].fallback_exprs;
            let in_fallback = cx.node_role(h) == Role::Dispatcher
                && fallback
                    .iter()
                    .any(|&e| e == o.site.expr || Some(e) == o.wrap);
            let exempt = exempt.or(in_fallback.then_some(Exempt::UnknownTool));
            // Made here (or made here and come back through recursion): the exit is the site.
            if o.via.is_none() {
                out.push(ProtocolSite {
                    exempt,
                    ..local(p, o.wrap, Some(o.site))
                });
            }
            continue;
        }
        let func = o.site.func;
        // Made in the catch-all arm of the name `match` of a fn the dispatcher hands its
        // request to: as in the dispatcher's own, the answer to an unknown tool.
        let continued_fallback = cx.node_role(h) == Role::Dispatcher
            && cx.handlers.continues[func as usize] == Some(cx.handlers.handler_of(hf))
            && cx.a.facts[func as usize]
                .fallback_exprs
                .contains(&o.site.expr);
        let exempt = exempt.or(continued_fallback.then_some(Exempt::UnknownTool));
        // Made in another tool whose own `Err` is a protocol error: reported there.
        let tool = cx.handlers.handler_of(func);
        let exempt = if func != hf
            && tool != hf
            && cx.handlers.role(tool).handles_tools()
            && cx.handlers.channels[tool as usize] == Channel::Protocol
        {
            exempt.or(Some(Exempt::OtherTool))
        } else {
            exempt
        };
        let def = cx.a.program.def(func);
        let span = match &def.body.expr(o.site.expr).kind {
            ExprKind::Try { question, .. } => cx.span(func, *question),
            _ => cx.site_span(o.site),
        };
        out.push(ProtocolSite {
            handler: h,
            span,
            func,
            node: crate::analysis::stdio::owner_node(cx.a, func, o.site.expr),
            in_handler: false,
            question_mark: matches!(def.body.expr(o.site.expr).kind, ExprKind::Try { .. }),
            operand: None,
            option: false,
            protocol: p,
            message: (!p.sdk_parse).then(|| ctor_message(cx, o.site)).flatten(),
            binding: "e".to_string(),
            exempt,
            wraps_err: false,
            early_return_macro: false,
            forwards: None,
            forwards_held: false,
        });
    }
    // An `Err` of another type in a tool whose every `Err` is a protocol error (trait
    // tools, pmcp): the SDK converts it where it leaves the tool.
    if other && !exit.err.any(|o| matches!(o.fact, Fact::Protocol(_))) {
        let unknown = exit.err.any(|o| {
            matches!(
                o.fact,
                Fact::Foreign {
                    unknown_tool: true,
                    ..
                }
            )
        });
        let about_args = exit.err.any(|o| {
            matches!(
                o.fact,
                Fact::Foreign {
                    about_args: true,
                    ..
                }
            )
        });
        let wrap = exit.err.iter().find_map(|o| o.wrap);
        out.push(ProtocolSite {
            exempt: unknown.then_some(Exempt::UnknownTool),
            ..local(
                Protocol {
                    ctor: if about_args {
                        ErrorCtor::InvalidParams
                    } else {
                        ErrorCtor::Other
                    },
                    code: None,
                    deserialize_prefix: false,
                    unknown_tool: unknown,
                    sdk_parse: false,
                },
                wrap,
                None,
            )
        });
    }
    out
}

/// The protocol error an error a helper made with `?` on a call we cannot see into becomes
/// once a tool whose every `Err` is a JSON-RPC error returns it.
fn converted_in_helper(fact: Fact) -> Option<Protocol> {
    let Fact::Foreign {
        about_args,
        unknown_tool,
    } = fact
    else {
        return None;
    };
    Some(Protocol {
        ctor: if about_args {
            ErrorCtor::InvalidParams
        } else {
            ErrorCtor::Other
        },
        code: None,
        deserialize_prefix: false,
        unknown_tool,
        sdk_parse: false,
    })
}

/// The protocol error an error origin becomes: the SDK's, or in a server that answers with
/// its own JSON-RPC error objects (`own`), any error its dispatcher turns into one.
fn protocol_of(fact: Fact, own: bool) -> Option<Protocol> {
    let plain = |ctor, code| Protocol {
        ctor,
        code,
        deserialize_prefix: false,
        unknown_tool: false,
        sdk_parse: false,
    };
    match fact {
        Fact::Protocol(p) => Some(p),
        Fact::Foreign {
            about_args,
            unknown_tool,
        } if own => Some(Protocol {
            unknown_tool,
            ..plain(
                if about_args {
                    ErrorCtor::InvalidParams
                } else {
                    ErrorCtor::Other
                },
                None,
            )
        }),
        Fact::RpcErrorObject { code, request } if own => Some(Protocol {
            unknown_tool: request,
            ..plain(
                match code {
                    Some(-32602) => ErrorCtor::InvalidParams,
                    Some(-32601) => ErrorCtor::MethodNotFound,
                    _ => ErrorCtor::Other,
                },
                code,
            )
        }),
        _ => None,
    }
}

/// The name a `?` operand's `map_err(|b| ..)` closure binds the error to.
fn adapter_binding(body: &crate::model::ir::Body, at: ExprId) -> String {
    let ExprKind::Try { expr, .. } = &body.expr(at).kind else {
        return "e".into();
    };
    let ExprKind::MethodCall { method, args, .. } = &body.expr(*expr).kind else {
        return "e".into();
    };
    let closure = match args.first().map(|&a| &body.expr(a).kind) {
        Some(ExprKind::Closure(c)) if method == "map_err" => body.closure(*c),
        _ => return "e".into(),
    };
    match closure.params.first().map(|&p| &body.pat(p).kind) {
        Some(crate::model::ir::PatKind::Bind { local, .. }) => body.local(*local).name.to_string(),
        Some(crate::model::ir::PatKind::Wild) => "_".into(),
        _ => "e".into(),
    }
}

/// The message argument of a protocol-error constructor call at `site`
/// (`internal_error(msg, data)`, `new(code, msg, data)`); none for conversions.
fn ctor_message(cx: &Cx<'_>, site: Site) -> Option<Span> {
    let def = cx.a.program.def(site.func);
    let body = &def.body;
    let ExprKind::Call { func, args } = &body.expr(site.expr).kind else {
        return None;
    };
    let last = match &body.expr(*func).kind {
        ExprKind::Path(p) => p
            .last()
            .map(crate::model::ir::Name::as_str)
            .unwrap_or_default(),
        _ => "",
    };
    if last == "from" || last == "into" {
        return None;
    }
    let new = last == "new";
    let arg = *args.get(usize::from(new))?;
    Some(cx.site_span(Site {
        func: site.func,
        expr: arg,
    }))
}

/// The message expression a fix puts in the error result: for `option?`, for `result?` (with
/// the error `e` in scope), or for `Err(..)` — the constructor's own message when known.
pub fn message_code(
    cx: &Cx<'_>,
    site: &ProtocolSite,
    [missing, error, fallback]: [&str; 3],
) -> String {
    match (site.question_mark, site.option, site.message) {
        (_, _, Some(m)) => cx.snippet(m).to_string(),
        (true, true, _) => missing.to_string(),
        (true, false, _) => error.to_string(),
        (false, _, None) => fallback.to_string(),
    }
}

/// The code that replaces `operand?` so a failure returns `error_result` instead; the error
/// is bound to `binding`.
pub fn match_code(operand: &str, option: bool, binding: &str, error_result: &str) -> String {
    if option {
        format!("match {operand} {{ Some(value) => value, None => return {error_result} }}")
    } else {
        format!("match {operand} {{ Ok(value) => value, Err({binding}) => return {error_result} }}")
    }
}

/// The operand's source text, for help code.
pub fn operand_text<'a>(cx: &Cx<'a>, site: &ProtocolSite) -> Option<&'a str> {
    let operand = site.operand?;
    Some(cx.snippet(cx.site_span(Site {
        func: site.func,
        expr: operand,
    })))
}

/// The edit that turns a site in the handler into an `isError` result: `operand?` becomes a
/// `match`, `Err(..)` becomes the result. `None` where the SDK cannot spell that result for
/// this fn's return type, or for sites in helpers.
pub fn result_edit(cx: &Cx<'_>, site: &ProtocolSite, error_result: &str) -> Option<Edit> {
    // Without the user's own message the result needs one made up (`e.to_string()` needs
    // `Display`, `message` names nothing): the help shows it, `--fix` does not write it. An
    // `Option`'s `None` gets a literal, which always compiles; so does the SDK's own parse.
    let known =
        site.message.is_some() || (site.question_mark && site.option) || site.protocol.sdk_parse;
    if !known {
        return None;
    }
    let sdk = cx.sdk?;
    if !site.in_handler || cx.handlers.closures.contains(&site.handler) {
        return None;
    }
    // The return type with its aliases expanded (`type ToolResult = Result<CallToolResult, E>`).
    if !sdk.can_return_error_result(cx.node_role(site.handler), cx.a.types.ret(site.func)) {
        return None;
    }
    if site.question_mark {
        let operand = site.operand?;
        let operand_span = cx.site_span(Site {
            func: site.func,
            expr: operand,
        });
        Some(Edit {
            span: Span {
                end: site.span.end,
                ..operand_span
            },
            replacement: match_code(
                cx.snippet(operand_span),
                site.option,
                &site.binding,
                error_result,
            ),
        })
    } else if site.wraps_err {
        Some(Edit {
            span: site.span,
            replacement: error_result.to_string(),
        })
    } else {
        // A chain that makes the error (`r.map_err(|e| internal_error(e))`) also carries the
        // success: replacing it would answer every call with an error.
        None
    }
}
