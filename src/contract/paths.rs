//! A handler's failure paths, from the queries the lints run: the protocol-error sites of
//! `error_escapes_tool`/`validation_as_protocol_error` (with the ones they exempt and why),
//! the success-failure sites of `error_as_success`, the panic sites `panic_in_tool` and
//! `panic_abort_in_server` admit, and the `isError` exits and results of the summaries.
//! Each handler gets its own reach, so a helper two tools share is on both contracts.

use std::collections::HashSet;

use super::model::{Abort, Channel, Failure, Origin};
use crate::analysis::facts::{PanicKind, PanicSite};
use crate::analysis::graph::Reached;
use crate::analysis::handlers::Handlers;
use crate::analysis::program::{FnId, NodeId, Site};
use crate::analysis::value::{Fact, Part, Val};
use crate::diagnostic::Span;
use crate::lints::Cx;
use crate::lints::error_as_success::{self, SuccessSite};
use crate::lints::exits::{self, Exempt, ProtocolSite};
use crate::lints::panic_in_tool;
use crate::lints::validation_as_protocol_error::sdk_converts;
use crate::model::ir::{ExprId, ExprKind};
use crate::sdk::{Channel as ErrChannel, ErrorCtor};

/// What one handler reaches, not through other handlers (each has its own contract).
pub struct HandlerReach {
    pub handler: NodeId,
    pub plain: Vec<Option<Reached>>,
    pub panics: Vec<Option<Reached>>,
}

impl HandlerReach {
    pub fn new(cx: &Cx<'_>, handler: NodeId, roots: &HashSet<NodeId>) -> Self {
        let graph = &cx.a.graph;
        let plain = graph.reach([handler], |_, e| {
            !roots.contains(&e.to) && cx.handlers.follows(&cx.a.program, e)
        });
        let panics = graph.reach([handler], |_, e| {
            !roots.contains(&e.to) && cx.handlers.follows_for_panics(cx.a, e)
        });
        HandlerReach {
            handler,
            plain,
            panics,
        }
    }

    fn chain(&self, reach: &[Option<Reached>], n: NodeId) -> Option<Vec<NodeId>> {
        reach.get(n as usize).copied().flatten()?;
        Some(Handlers::chain(reach, n))
    }
}

/// Every failure path of handler `r.handler`.
pub fn failures(cx: &Cx<'_>, r: &HandlerReach) -> Vec<Failure> {
    let mut out = Vec::new();
    let h = r.handler;
    if cx.runs_tools(h) {
        unknown_tool_results(cx, r, &mut out);
        success_failures(cx, r, &mut out);
        protocol_failures(cx, r, &mut out);
        own_error_objects(cx, r, &mut out);
    } else {
        request_errors(cx, r, &mut out);
    }
    error_exits(cx, r, &mut out);
    error_results(cx, r, &mut out);
    panics(cx, r, &mut out);
    let mut seen: HashSet<(Channel, Origin)> = HashSet::new();
    out.retain(|f| seen.insert((f.channel, f.origin.clone())));
    out
}

/// Names of the fns along a chain of bodies (a closure adds no hop).
fn chain_names(cx: &Cx<'_>, chain: &[NodeId]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut last = None;
    for &n in chain {
        let f = cx.a.program.node(n).func;
        if last != Some(f) {
            names.push(cx.body_name(n));
        }
        last = Some(f);
    }
    names
}

/// The fn as a failure's origin names it: `Type::method` or `name`.
pub fn fn_label(cx: &Cx<'_>, f: FnId) -> String {
    let def = cx.a.program.def(f);
    match &def.owner {
        Some(o) => format!("{o}::{}", def.name),
        None => def.name.clone(),
    }
}

pub fn origin(cx: &Cx<'_>, span: Span, func: FnId) -> Origin {
    let file = cx.sources.get(span.file);
    let (line, column) = file.line_col(span.start);
    Origin {
        file: file.display.clone(),
        line,
        column,
        func: fn_label(cx, func),
    }
}

struct Path<'s> {
    channel: Channel,
    kind: &'s str,
    span: Span,
    func: FnId,
    chain: Vec<String>,
    what: String,
}

fn failure(cx: &Cx<'_>, p: Path<'_>, lint: Option<&'static str>) -> Failure {
    Failure {
        channel: p.channel,
        kind: p.kind.to_string(),
        code: None,
        constructor: None,
        what: p.what,
        origin: origin(cx, p.span, p.func),
        chain: p.chain,
        lint: None,
        level: None,
        reported_at: None,
        abort: Vec::new(),
        reported_as: lint.map(|l| (l, p.span)),
    }
}

/// The chain from the handler to fn `f` (its own body), or to the handler itself.
fn chain_to_fn(cx: &Cx<'_>, r: &HandlerReach, f: FnId) -> Vec<String> {
    let n = cx.a.program.fn_node(f);
    let nodes = r.chain(&r.plain, n).unwrap_or_else(|| vec![r.handler, n]);
    chain_names(cx, &nodes)
}

/// `error_as_success`: failures put into a successful result.
fn success_failures(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let mut push = |site: &SuccessSite, chain: Vec<String>| {
        let kind = match site.why.fact {
            Fact::FailText => "failure_text",
            Fact::ErrJson => "failure_data",
            _ => "error_value",
        };
        let what = error_as_success::why_text(cx, &site.why)
            .trim_end_matches(',')
            .to_string();
        out.push(failure(
            cx,
            Path {
                channel: Channel::Success,
                kind,
                span: site.at,
                func: site.func,
                chain,
                what,
            },
            Some("error_as_success"),
        ));
    };
    for (n, reached) in r.plain.iter().enumerate() {
        if reached.is_none() {
            continue;
        }
        let n = n as NodeId;
        let f = program.node(n).func;
        for (node, site) in error_as_success::success_sites(cx, f) {
            if node == n {
                let chain = r.chain(&r.plain, n).unwrap_or_default();
                push(&site, chain_names(cx, &chain));
            }
        }
    }
    let h = r.handler;
    if let Some((_, f)) = error_as_success::text_tools(cx)
        .into_iter()
        .find(|&(t, _)| t == h)
    {
        for site in error_as_success::returned_failures(cx, h, f) {
            push(&site, chain_to_fn(cx, r, site.func));
        }
    }
}

/// The code and constructor of a protocol error built by `ctor`.
fn code_of(cx: &Cx<'_>, ctor: ErrorCtor, code: Option<i32>) -> Option<i64> {
    code.map(i64::from)
        .or_else(|| cx.sdk.and_then(|s| s.protocol_error_code(Some(ctor))))
}

fn ctor_name(ctor: ErrorCtor) -> Option<&'static str> {
    match ctor {
        ErrorCtor::InvalidParams => Some("invalid_params"),
        ErrorCtor::InternalError => Some("internal_error"),
        ErrorCtor::MethodNotFound => Some("method_not_found"),
        ErrorCtor::ResourceNotFound => Some("resource_not_found"),
        ErrorCtor::ToolRejection => Some("tool_rejected"),
        ErrorCtor::Other => None,
    }
}

/// The construct a protocol site is, as the lints name it.
fn site_what(cx: &Cx<'_>, site: &ProtocolSite) -> String {
    if site.protocol.sdk_parse {
        return "`parse_json_object(..)?`".to_string();
    }
    match (site.in_handler, site.question_mark) {
        (true, true) => "`?`".to_string(),
        (true, false) => "`Err(..)`".to_string(),
        (false, true) => format!("`?` in `{}`", cx.body_name(site.node)),
        (false, false) => crate::lints::error_escapes_tool::ctor_text(cx, site),
    }
}

/// The JSON-RPC errors of a tool's `Err` exits (`error_escapes_tool`,
/// `validation_as_protocol_error`, and the exempt ones).
fn protocol_failures(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    for site in exits::handler_protocol_sites(cx, r.handler) {
        let chain = if site.in_handler {
            chain_names(cx, &[r.handler])
        } else {
            chain_names(
                cx,
                &r.chain(&r.plain, site.node)
                    .unwrap_or_else(|| vec![r.handler, site.node]),
            )
        };
        let what = site_what(cx, &site);
        let p = site.protocol;
        let (channel, kind, lint) = match site.exempt {
            Some(Exempt::OtherTool) => continue,
            Some(Exempt::ToolRejection) => (Channel::IsError, "unknown", None),
            Some(Exempt::UnknownTool) => (Channel::JsonrpcError, "unknown_tool", None),
            Some(Exempt::LockFailure) => (Channel::JsonrpcError, "lock_poisoned", None),
            None if sdk_converts(cx, &site) => (Channel::IsError, "from_error", None),
            None if site.is_validation() => (
                Channel::JsonrpcError,
                "validation",
                Some("validation_as_protocol_error"),
            ),
            None => (
                Channel::JsonrpcError,
                "execution",
                Some("error_escapes_tool"),
            ),
        };
        let mut f = failure(
            cx,
            Path {
                channel,
                kind,
                span: site.span,
                func: site.func,
                chain,
                what,
            },
            lint,
        );
        if channel == Channel::JsonrpcError {
            f.code = if site.is_validation() && lint.is_some() {
                code_of(cx, ErrorCtor::InvalidParams, p.code).or(Some(-32602))
            } else {
                code_of(cx, p.ctor, p.code)
            };
            f.constructor = if p.sdk_parse {
                Some("parse_json_object".to_string())
            } else {
                ctor_name(p.ctor).map(String::from)
            };
        }
        out.push(f);
    }
}

/// JSON-RPC error objects a hand-rolled dispatcher answers a tool's failure with.
fn own_error_objects(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let hf = cx.a.program.node(r.handler).func;
    for site in exits::own_error_sites(cx) {
        if site.handler != r.handler {
            continue;
        }
        let (kind, lint) = if site.validation {
            ("validation", "validation_as_protocol_error")
        } else {
            ("execution", "error_escapes_tool")
        };
        out.push(failure(
            cx,
            Path {
                channel: Channel::JsonrpcError,
                kind,
                span: site.span,
                func: hf,
                chain: chain_names(cx, &[r.handler]),
                what: "a JSON-RPC error object".to_string(),
            },
            Some(lint),
        ));
    }
}

/// A request handler's `Err` (prompts, resources, ..): a JSON-RPC error, as the spec has it.
fn request_errors(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let hf = cx.a.program.node(r.handler).func;
    if cx.a.program.def(hf).ret.as_result().is_none() {
        return;
    }
    for exit in exits::handler_exits(cx, r.handler) {
        let protocol = exit.err.iter().find_map(|o| match o.fact {
            Fact::Protocol(p) => Some(p),
            _ => None,
        });
        let wrap = exit.err.iter().find_map(|o| o.wrap);
        let span = exits::exit_span(cx, hf, exit, wrap);
        let mut f = failure(
            cx,
            Path {
                channel: Channel::JsonrpcError,
                kind: "request",
                span,
                func: hf,
                chain: chain_names(cx, &[r.handler]),
                what: exit_what(exit),
            },
            None,
        );
        if let Some(p) = protocol {
            f.code = code_of(cx, p.ctor, p.code);
            f.constructor = ctor_name(p.ctor).map(String::from);
        }
        out.push(f);
    }
}

fn exit_what(exit: &crate::analysis::facts::Exit) -> String {
    use crate::analysis::facts::ExitKind;
    match exit.kind {
        ExitKind::Question => "`?`",
        ExitKind::Return | ExitKind::Tail => "`Err(..)`",
        ExitKind::Macro => "`bail!`",
    }
    .to_string()
}

/// `unknown_tool_as_result`: a dispatcher answers an unknown tool with a tool result.
fn unknown_tool_results(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let node = cx.a.program.node(r.handler);
    if node.closure.is_some() || cx.node_role(r.handler) != crate::sdk::Role::Dispatcher {
        return;
    }
    let f = node.func;
    let body = &cx.a.program.def(f).body;
    for result in cx.a.facts[f as usize].fallback_results.iter() {
        if result.owner.is_some() {
            continue;
        }
        out.push(failure(
            cx,
            Path {
                channel: if result.success {
                    Channel::Success
                } else {
                    Channel::IsError
                },
                kind: "unknown_tool",
                span: cx.span(f, body.expr(result.at).span),
                func: f,
                chain: chain_names(cx, &[r.handler]),
                what: "a tool result for an unknown tool".to_string(),
            },
            Some("unknown_tool_as_result"),
        ));
    }
}

/// Whether text is built from an error value (`Error: {e}`, `e.to_string()`), carries
/// internals (`{e:?}`, a backtrace: `error_leaks_internals`), or is written.
fn text_kind(text: &Val) -> &'static str {
    if text.any(|o| matches!(o.fact, Fact::Internals(_))) {
        "internals"
    } else if text.any(|o| matches!(o.fact, Fact::ErrValue | Fact::ErrText)) {
        "from_error"
    } else {
        "written"
    }
}

/// An `isError` path whose text carries internals, as `error_leaks_internals` reports it.
fn with_leak(cx: &Cx<'_>, mut f: Failure, text: &Val) -> Failure {
    if let Some(o) = text.iter().find(|o| matches!(o.fact, Fact::Internals(_))) {
        f.reported_as = Some((
            "error_leaks_internals",
            crate::lints::error_leaks_internals::leak_span(cx, o),
        ));
    }
    f
}

/// Text with what the error results in it are made of.
fn text_of(cx: &Cx<'_>, val: &Val) -> Val {
    let mut text = val.clone();
    for o in val.iter().filter(|o| o.fact == Fact::ToolError) {
        if let Some((_, t)) = error_text(cx, o.site) {
            text.join(t);
        }
    }
    text
}

/// What the text of the error result made at `site` is made of.
fn error_text<'a>(cx: &'a Cx<'_>, site: Site) -> Option<&'a (ExprId, Val)> {
    cx.a.facts[site.func as usize]
        .error_texts
        .iter()
        .find(|(at, _)| *at == site.expr)
}

/// The `Err` exits of a tool whose `Err` becomes an `isError` result.
fn error_exits(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    if exits::channel(cx, r.handler) != ErrChannel::ToolError {
        return;
    }
    let hf = cx.a.program.node(r.handler).func;
    let dispatcher = cx.node_role(r.handler) == crate::sdk::Role::Dispatcher;
    for exit in exits::handler_exits(cx, r.handler) {
        let wrap = exit.err.iter().find_map(|o| o.wrap);
        let text = text_of(cx, &exit.err);
        let path = failure(
            cx,
            Path {
                channel: Channel::IsError,
                kind: if dispatcher && exit.in_fallback {
                    "unknown_tool"
                } else {
                    text_kind(&text)
                },
                span: exits::exit_span(cx, hf, exit, wrap),
                func: hf,
                chain: chain_names(cx, &[r.handler]),
                what: exit_what(exit),
            },
            None,
        );
        out.push(with_leak(cx, path, &text));
    }
}

/// Error results (`CallToolResult::error(..)`) the handler returns, made in it or in a helper.
fn error_results(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let hf = program.node(r.handler).func;
    for val in super::build::returns(cx, r.handler) {
        for o in val.iter() {
            if o.fact != Fact::ToolError || o.part == Part::Err {
                continue;
            }
            let f = o.site.func;
            if f != hf && cx.handlers.role(f).is_handler() {
                continue;
            }
            let text = error_text(cx, o.site).map(|(_, t)| t);
            let span = cx.call_head_span(o.site);
            let what = match &program.def(f).body.expr(o.site.expr).kind {
                ExprKind::Call { .. } | ExprKind::MethodCall { .. } => {
                    format!("`{}(..)`", cx.snippet(span))
                }
                _ => "an `isError` result".to_string(),
            };
            let path = failure(
                cx,
                Path {
                    channel: Channel::IsError,
                    kind: text.map_or("unknown", text_kind),
                    span,
                    func: f,
                    chain: chain_to_fn(cx, r, f),
                    what,
                },
                None,
            );
            out.push(match text {
                Some(text) => with_leak(cx, path, text),
                None => path,
            });
        }
    }
}

fn panic_kind(site: &PanicSite) -> &'static str {
    match site.kind {
        PanicKind::Unwrap => "unwrap",
        PanicKind::Expect => "expect",
        PanicKind::Macro => "panic",
        PanicKind::Exit => "exit",
        PanicKind::Index if site.what == "slicing" => "slicing",
        PanicKind::Index => "index",
    }
}

/// Panics and exits (`panic_in_tool`); with `panic = "abort"`, every panic the handler
/// reaches ends the server (`panic_abort_in_server`).
fn panics(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let abort: Vec<Abort> = cx
        .abort_settings
        .iter()
        .map(|s| {
            let file = cx.sources.get(s.span.file);
            Abort {
                file: file.display.clone(),
                line: file.line_col(s.span.start).0,
                profile: s.profile.clone(),
            }
        })
        .collect();
    for (n, reached) in r.plain.iter().enumerate() {
        if reached.is_none() {
            continue;
        }
        let n = n as NodeId;
        let f = program.node(n).func;
        for site in &cx.a.facts[f as usize].panics {
            if cx.node(f, site.owner) != n {
                continue;
            }
            // As `panic_in_tool` judges it: not guarded, reached along the edges it follows.
            let reported = (!site.invariant && panic_in_tool::unguarded(cx, f, site))
                .then(|| r.chain(&r.panics, n))
                .flatten()
                .and_then(|chain| {
                    panic_in_tool::admitted(cx, f, site, cx.reach_of(r.handler, chain))
                });
            // As `panic_abort_in_server` counts it: any site, guarded or not.
            let aborts = (!abort.is_empty())
                .then(|| r.chain(&r.plain, n))
                .flatten()
                .and_then(|chain| {
                    panic_in_tool::admitted(cx, f, site, cx.reach_of(r.handler, chain))
                });
            let Some(reach) = reported.as_ref().or(aborts.as_ref()) else {
                continue;
            };
            let channel = if aborts.is_some() || site.kind == PanicKind::Exit {
                Channel::ServerExit
            } else {
                Channel::NoAnswer
            };
            let (lint, span) = match (&reported, cx.abort_settings.first()) {
                (Some(_), _) | (None, None) => ("panic_in_tool", cx.span(f, site.span)),
                (None, Some(setting)) => ("panic_abort_in_server", setting.span),
            };
            let mut failure = failure(
                cx,
                Path {
                    channel,
                    kind: panic_kind(site),
                    span: cx.span(f, site.span),
                    func: f,
                    chain: chain_names(cx, &reach.chain),
                    what: site.what.clone(),
                },
                Some(lint),
            );
            failure.reported_as = Some((lint, span));
            if aborts.is_some() {
                failure.abort = abort.clone();
            }
            out.push(failure);
        }
    }
}
