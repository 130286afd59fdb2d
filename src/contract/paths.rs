//! A handler's failure paths, from the queries the lints run: the protocol-error sites of
//! `error_escapes_tool`/`validation_as_protocol_error` (with the ones they exempt and why),
//! the success-failure sites of `error_as_success`, the panic sites `panic_in_tool` and
//! `panic_abort_in_server` admit, and the `isError` exits and results of the summaries.
//! Each handler gets its own reach, so a helper two tools share is on both contracts.

use std::collections::HashSet;

use super::model::{Channel, ErrChannel, Failure, Origin};
use crate::analysis::graph::Reached;
use crate::analysis::handlers::Handlers;
use crate::analysis::program::{FnId, NodeId};
use crate::analysis::value::Fact;
use crate::analysis::value::Val;
use crate::diagnostic::Span;
use crate::lints::Cx;
use crate::lints::error_as_success::{self, SuccessSite};
use crate::lints::exits::{self, Exempt, ProtocolSite};
use crate::lints::validation_as_protocol_error::sdk_converts;
use crate::sdk::{Channel as SdkChannel, ErrorCtor, Role};

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
        let panics = graph.reach_with([handler], &cx.handlers.answers, |_, e| {
            !roots.contains(&e.to) && cx.handlers.follows_for_panics(cx.a, e)
        });
        HandlerReach {
            handler,
            plain,
            panics,
        }
    }

    pub(super) fn chain(&self, reach: &[Option<Reached>], n: NodeId) -> Option<Vec<NodeId>> {
        reach.get(n as usize).copied().flatten()?;
        Some(Handlers::chain(reach, n))
    }
}

/// Names of the fns along a chain of bodies (a closure adds no hop).
pub(super) fn chain_names(cx: &Cx<'_>, chain: &[NodeId]) -> Vec<String> {
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
        None => def.name.to_string(),
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

pub(super) struct Path<'s> {
    pub channel: Channel,
    pub kind: &'s str,
    pub span: Span,
    pub func: FnId,
    pub chain: Vec<String>,
    pub what: String,
}

pub(super) fn failure(cx: &Cx<'_>, p: Path<'_>, lint: Option<&'static str>) -> Failure {
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

/// The chain from the handler to fn `f` (its own body), if the handler reaches it (not only
/// through another handler).
pub(super) fn chain_to_fn(cx: &Cx<'_>, r: &HandlerReach, f: FnId) -> Option<Vec<String>> {
    let nodes = r.chain(&r.plain, cx.a.program.fn_node(f))?;
    Some(chain_names(cx, &nodes))
}

/// `error_as_success`: failures put into a successful result.
pub(super) fn success_failures(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let mut push = |site: &SuccessSite, chain: Vec<String>| {
        let kind = match site.why.fact {
            Fact::FailText => "failure_text",
            Fact::ErrJson => "failure_data",
            _ => "error_value",
        };
        let what = error_as_success::why_text(cx, &site.why, site.func)
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
            if let Some(chain) = chain_to_fn(cx, r, site.func) {
                push(&site, chain);
            }
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
        (false, false) => format!(
            "`{}`",
            crate::lints::error_escapes_tool::ctor_text(cx, site)
        ),
    }
}

/// The JSON-RPC errors of a tool's `Err` exits (`error_escapes_tool`,
/// `validation_as_protocol_error`, and the exempt ones).
pub(super) fn protocol_failures(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    // Where one place answers an execution failure and an argument failure alike, it is an
    // execution failure's place (as `exits::protocol_sites` has it): that path first.
    let mut sites = exits::handler_protocol_sites(cx, r.handler);
    sites.sort_by_key(|s| s.exempt.is_none() && s.is_validation());
    for site in sites {
        let chain = if site.in_handler {
            chain_names(cx, &[r.handler])
        } else {
            // Made in a helper only another handler calls: that handler's path.
            let Some(nodes) = r.chain(&r.plain, site.node) else {
                continue;
            };
            chain_names(cx, &nodes)
        };
        let what = site_what(cx, &site);
        let p = site.protocol;
        let (channel, kind, lint) = match site.exempt {
            Some(Exempt::OtherTool) => continue,
            Some(Exempt::AnsweredByDispatcher) => (Channel::JsonrpcError, "execution", None),
            Some(Exempt::ToolRejection) => (Channel::IsError, "unknown", None),
            Some(Exempt::UnknownTool) => (Channel::JsonrpcError, "unknown_tool", None),
            Some(Exempt::LockFailure) => (Channel::JsonrpcError, "lock_poisoned", None),
            Some(Exempt::RequestRejected) => (Channel::JsonrpcError, "request", None),
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
        // A server that writes its own responses answers with the code its dispatcher's error
        // object carries, not one the tool's error type suggests: unless the tool wrote the
        // code itself, it is not known here (the dispatcher's row has it when it is).
        let answered_elsewhere = site.exempt == Some(Exempt::AnsweredByDispatcher)
            && p.code.is_none()
            && cx.sdk.is_some_and(|s| s.writes_own_responses());
        if channel == Channel::JsonrpcError && !answered_elsewhere {
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
pub(super) fn own_error_objects(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
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
pub(super) fn request_errors(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    if err_channel(cx, r.handler) != ErrChannel::JsonrpcError {
        return;
    }
    let (hf, exits) = exits::body_exits(cx, r.handler);
    for exit in exits {
        // An exit that may answer with several errors (a call whose callees make different
        // ones) has a path per answer, in a fixed order.
        let mut answers: Vec<(Option<i64>, Option<&str>)> = exit
            .err
            .iter()
            .filter_map(|o| match o.fact {
                Fact::Protocol(p) => Some((code_of(cx, p.ctor, p.code), ctor_name(p.ctor))),
                _ => None,
            })
            .collect();
        answers.sort_unstable();
        answers.dedup();
        let wrap = exit.err.iter().find_map(|o| o.wrap);
        let span = exits::exit_span(cx, hf, exit, wrap);
        let f = failure(
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
        if answers.is_empty() {
            out.push(f);
            continue;
        }
        for (code, constructor) in answers {
            out.push(Failure {
                code,
                constructor: constructor.map(String::from),
                ..f.clone()
            });
        }
    }
}

pub(super) fn exit_what(exit: &crate::analysis::facts::Exit) -> String {
    use crate::analysis::facts::ExitKind;
    match exit.kind {
        ExitKind::Question => "`?`",
        ExitKind::Return | ExitKind::Tail => "`Err(..)`",
        ExitKind::Macro => "`bail!`",
    }
    .to_string()
}

/// What an `Err` of handler `h` becomes on the wire.
pub fn err_channel(cx: &Cx<'_>, h: NodeId) -> ErrChannel {
    let program = &cx.a.program;
    let f = program.node(h).func;
    match exits::channel(cx, h) {
        SdkChannel::ToolError => ErrChannel::IsError,
        SdkChannel::Protocol => ErrChannel::JsonrpcError,
        SdkChannel::Infallible => ErrChannel::None,
        // A hand-rolled server's request loop decides what an `Err` becomes.
        SdkChannel::Unknown if cx.sdk.is_some_and(|s| s.writes_own_responses()) => {
            ErrChannel::Unknown
        }
        SdkChannel::Unknown if program.node(h).closure.is_none() => {
            let ret = cx.a.types.ret(f);
            let name = &program.def(f).name;
            // A notification has no answer to carry an error.
            let notification = name.starts_with("on_") || name.contains("notification");
            match (cx.handlers.role(f), ret.as_result()) {
                (Role::Request, Some(_)) if notification => ErrChannel::Unknown,
                // Prompts, resources and other requests answer an `Err` with a JSON-RPC error.
                (Role::Request, Some(_)) => ErrChannel::JsonrpcError,
                (Role::Request, None) => ErrChannel::None,
                _ => ErrChannel::Unknown,
            }
        }
        SdkChannel::Unknown => ErrChannel::Unknown,
    }
}

/// The values handler `h` returns (its fn's own, or the closure's).
pub fn returns<'a>(cx: &'a Cx<'_>, h: NodeId) -> Vec<&'a Val> {
    error_as_success::returns_of(cx, h, cx.a.program.node(h).func)
}
