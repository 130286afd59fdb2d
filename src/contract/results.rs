//! `isError` paths: the `Err` exits of a tool whose `Err` becomes an `isError` result, the
//! error results a handler returns (`CallToolResult::error(..)`, in it or from a helper),
//! a dispatcher's result for an unknown tool (`unknown_tool_as_result`); each with what its
//! text is made of, and internals in it as `error_leaks_internals` reports them.

use super::model::{Channel, Failure};
use super::paths::{HandlerReach, Path, chain_names, chain_to_fn, exit_what, failure};
use crate::analysis::program::{FnId, Site};
use crate::analysis::value::{Fact, Origin, Part, Val};
use crate::lints::Cx;
use crate::lints::exits;
use crate::model::ir::{Body, ExprId, ExprKind, Lit};
use crate::sdk::{Channel as ErrChannel, Role};

/// `unknown_tool_as_result`: a dispatcher answers an unknown tool with a tool result.
pub(super) fn unknown_tool_results(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let node = cx.a.program.node(r.handler);
    if node.closure.is_some() || cx.node_role(r.handler) != Role::Dispatcher {
        return;
    }
    let hf = node.func;
    // The dispatcher's own name `match`, and those of the fns it hands the request to.
    let continued =
        cx.a.program
            .fn_ids()
            .filter(|&g| cx.handlers.continues[g as usize] == Some(hf));
    for f in std::iter::once(hf).chain(continued) {
        let chain = if f == hf {
            chain_names(cx, &[r.handler])
        } else {
            match chain_to_fn(cx, r, f) {
                Some(chain) => chain,
                None => continue,
            }
        };
        fallback_results_of(cx, f, &chain, out);
    }
}

/// The results fn `f` answers unknown tools with, as failures of the handler reached by
/// `chain`.
fn fallback_results_of(cx: &Cx<'_>, f: FnId, chain: &[String], out: &mut Vec<Failure>) {
    for result in cx.a.facts[f as usize].fallback_results.iter() {
        if result.owner.is_some()
            || crate::lints::unknown_tool_as_result::answered_already(cx, result)
        {
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
                span: crate::lints::unknown_tool_as_result::place(cx, f, result).0,
                func: f,
                chain: chain.to_vec(),
                what: "a tool result for an unknown tool".to_string(),
            },
            Some("unknown_tool_as_result"),
        ));
    }
}

/// What a failure's text is made of: internals (`{e:?}`, a backtrace:
/// `error_leaks_internals`), an error value (`Error: {e}`, `e.to_string()`), text written
/// for the model (failure text, the tool's arguments, a literal in `written`), or not known
/// (it went through calls the analysis does not follow).
fn text_kind(text: &Val, written: bool) -> &'static str {
    if text.any(|o| matches!(o.fact, Fact::Internals(_))) {
        "internals"
    } else if text.any(|o| matches!(o.fact, Fact::ErrValue | Fact::ErrText { .. })) {
        "from_error"
    } else if written || text.any(|o| matches!(o.fact, Fact::FailText | Fact::Param(_))) {
        "written"
    } else {
        "unknown"
    }
}

/// Whether the text an expression makes is a literal written out in it: a string literal
/// or a format string without placeholders, inside the calls and macros that wrap it
/// (`Content::text(..)`, `vec![..]`, `.to_string()`, `CallToolError::new(..)`).
fn literal_text(body: &Body, e: ExprId, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    let inner = |e: ExprId| literal_text(body, e, depth + 1);
    match &body.expr(e).kind {
        ExprKind::Lit(Lit::Str(_)) => true,
        ExprKind::Macro(m) => match &m.format {
            Some(f) => f.placeholders.is_empty(),
            None => m.args.len() == 1 && m.args.iter().all(|&a| inner(a)),
        },
        ExprKind::Call { args, .. } => args.len() == 1 && inner(args[0]),
        ExprKind::MethodCall { receiver, args, .. } => args.is_empty() && inner(*receiver),
        ExprKind::Ref(x) => inner(*x),
        ExprKind::Array(items) => items.len() == 1 && inner(items[0]),
        _ => false,
    }
}

/// Whether the error an exit carries is a literal: `Err("..")`, `.ok_or("..")?`,
/// `.map_err(|_| "..")?`.
fn literal_exit(body: &Body, exit: &crate::analysis::facts::Exit, wrap: Option<ExprId>) -> bool {
    if let Some(w) = wrap
        && let ExprKind::Call { args, .. } = &body.expr(w).kind
    {
        return args.len() == 1 && literal_text(body, args[0], 0);
    }
    let ExprKind::Try { expr, .. } = &body.expr(exit.at).kind else {
        return false;
    };
    match &body.expr(*expr).kind {
        ExprKind::MethodCall { method, args, .. }
            if matches!(
                method.as_str(),
                "ok_or" | "map_err" | "ok_or_else" | "context"
            ) =>
        {
            args.len() == 1
                && match &body.expr(args[0]).kind {
                    ExprKind::Closure(c) => literal_text(body, body.closure(*c).body, 0),
                    _ => literal_text(body, args[0], 0),
                }
        }
        _ => false,
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

/// An `isError` result a helper builds from what the caller passes it (`fail(format!("{e:?}"))`):
/// internals in the arguments of that `call` are the leak `error_leaks_internals` reports.
fn with_passed_leak(cx: &Cx<'_>, mut f: Failure, call: Site) -> Failure {
    let args = cx.site_span(call);
    let leak = cx.a.facts[call.func as usize].leaks.iter().find(|l| {
        let at = cx.site_span(l.at);
        l.at.func == call.func && at.start >= args.start && at.end <= args.end
    });
    if let Some(l) = leak {
        let origin = Origin {
            fact: Fact::Internals(l.kind),
            part: Part::Plain,
            site: l.at,
            via: None,
            wrap: None,
            local: l.local,
        };
        f.reported_as = Some((
            "error_leaks_internals",
            crate::lints::error_leaks_internals::leak_span(cx, &origin),
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
pub(super) fn error_exits(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    if exits::channel(cx, r.handler) != ErrChannel::ToolError {
        return;
    }
    let dispatcher = cx.node_role(r.handler) == Role::Dispatcher;
    let (hf, exits) = exits::body_exits(cx, r.handler);
    for (f, exit) in crate::analysis::forwarding::origin_exits(cx.a, hf, exits) {
        let chain = if f == hf {
            chain_names(cx, &[r.handler])
        } else {
            let Some(chain) = chain_to_fn(cx, r, f) else {
                continue;
            };
            chain
        };
        let body = &cx.a.program.def(f).body;
        let wrap = exit.err.iter().find_map(|o| o.wrap);
        let text = text_of(cx, &exit.err);
        let path = failure(
            cx,
            Path {
                channel: Channel::IsError,
                kind: if dispatcher
                    && (f == hf
                        || cx.handlers.continues[f as usize] == Some(cx.handlers.handler_of(hf)))
                    && exit.in_fallback
                {
                    "unknown_tool"
                } else {
                    text_kind(&text, literal_exit(body, exit, wrap))
                },
                span: exits::exit_span(cx, f, exit, wrap),
                func: f,
                chain,
                what: exit_what(exit),
            },
            None,
        );
        out.push(with_leak(cx, path, &text));
    }
}

/// Error results (`CallToolResult::error(..)`) the handler returns, made in it or in a helper.
pub(super) fn error_results(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let hf = program.node(r.handler).func;
    for val in super::paths::returns(cx, r.handler) {
        for o in val.iter() {
            if o.fact != Fact::ToolError || o.part == Part::Err {
                continue;
            }
            let f = o.site.func;
            let chain = if f == hf {
                chain_names(cx, &[r.handler])
            } else {
                // Made in a helper only another handler calls: that handler's path.
                let Some(chain) = chain_to_fn(cx, r, f) else {
                    continue;
                };
                chain
            };
            let text = error_text(cx, o.site).map(|(_, t)| t);
            let body = &program.def(f).body;
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
                    kind: text.map_or("unknown", |t| {
                        text_kind(t, literal_text(body, o.site.expr, 0))
                    }),
                    span,
                    func: f,
                    chain,
                    what,
                },
                None,
            );
            let path = match text {
                Some(text) => with_leak(cx, path, text),
                None => path,
            };
            out.push(match o.via {
                Some(call) if path.reported_as.is_none() => with_passed_leak(cx, path, call),
                _ => path,
            });
        }
    }
}
