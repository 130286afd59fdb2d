//! Panics reachable from a handler: unless the SDK catches them, the client never gets an
//! answer for that request (or, with `panic = "abort"`, the server dies).

use super::cx::{Cx, Reach};
use super::{Lint, declare_lint};
use crate::analysis::facts::{CONSTANT_BOUND, PanicKind, PanicSite};
use crate::analysis::graph;
use crate::analysis::program::{FnId, Site};
use crate::diagnostic::Finding;
use crate::sdk::Channel;

declare_lint!(
    PanicInTool,
    "panic_in_tool",
    Warn,
    "correctness",
    "a panic reachable from a tool or request handler leaves the request unanswered"
);

/// How a panic site is reached from a handler, when it is: not under a panic guard (the
/// SDK's or the project's), and for indexing either in the handler itself or with a bound
/// the handler's arguments choose. With `panic = "abort"` no guard catches anything, so
/// `under_abort` counts guarded sites too.
pub(crate) fn reached(cx: &Cx<'_>, f: FnId, site: &PanicSite, under_abort: bool) -> Option<Reach> {
    let node = cx.node(f, site.owner);
    let reach = if under_abort {
        cx.reach(node)?
    } else {
        if !unguarded(cx, f, site) {
            return None;
        }
        cx.panic_reach(node)?
    };
    admitted(cx, f, site, reach)
}

/// Whether no panic guard (the SDK's or the project's) catches a panic at the site.
pub(crate) fn unguarded(cx: &Cx<'_>, f: FnId, site: &PanicSite) -> bool {
    !(cx.handlers.sdk_catches_panics
        || site.guarded
        || graph::inside_guard(&cx.a.resolved, f, site.within))
}

/// `reach` when a panic at the site, reached so, is one [`reached`] reports.
pub(crate) fn admitted(cx: &Cx<'_>, f: FnId, site: &PanicSite, reach: Reach) -> Option<Reach> {
    // Other requests (listing, prompts, resources) are judged in the handler itself: their
    // helpers mostly build static data (schemas, descriptions).
    // The helper that is the handler's whole body is the handler itself.
    let handler = cx.a.program.node(reach.handler).func;
    let in_handler = reach.in_handler() || cx.handlers.handler_of(f) == handler;
    if !in_handler && !cx.runs_tools(reach.handler) {
        return None;
    }
    // Slicing with a cut the code fixes (`&text[..500.min(text.len())]` splits a UTF-8
    // character) counts anywhere; other indexing in a helper, and slicing at offsets the code
    // computes from the data, only with a bound the arguments (or a constant) choose.
    if ((site.kind == PanicKind::Index && !in_handler) || site.computed_bounds)
        && chosen_by(cx, f, site, &reach).next().is_none()
    {
        return None;
    }
    Some(reach)
}

/// What chooses a bound of an index site in fn `f`, as the handler reached so sees it: its
/// parameters, or [`CONSTANT_BOUND`] for a constant a call on the way passes (a slice's cut
/// only; an element index the code fixes is its own business).
fn chosen_by<'a>(
    cx: &'a Cx<'_>,
    f: FnId,
    site: &'a PanicSite,
    reach: &Reach,
) -> impl Iterator<Item = u16> + 'a {
    let handler = cx.a.program.node(reach.handler).func;
    let at = site.at.map(|expr| Site { func: f, expr });
    cx.a.summaries[handler as usize]
        .index
        .iter()
        .filter(move |&&(k, s)| {
            Some(s) == at && (k != CONSTANT_BOUND || site.kind != PanicKind::Index)
        })
        .map(|&(k, _)| k)
}

impl Lint for PanicInTool {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for f in cx.a.program.fn_ids() {
            for site in &cx.a.facts[f as usize].panics {
                if site.invariant.is_some() {
                    continue;
                }
                if let Some(reach) = reached(cx, f, site, false) {
                    out.push(finding(cx, f, site, &reach));
                }
            }
        }
        // A handler's own arms are judged with the handler.
        for &(f, arm) in &cx.handlers.arms {
            if !cx.handlers.role(f).is_handler() {
                out.extend(arm_findings(cx, f, arm));
            }
        }
        out
    }
}

/// Panics in a `tools/call` arm that is the dispatcher itself (a request loop unpacking the
/// call's `params` with `unwrap`): a malformed request ends the server.
fn arm_findings(cx: &Cx<'_>, f: FnId, arm: crate::model::ir::ExprId) -> Vec<Finding> {
    let program = &cx.a.program;
    let within = program.def(f).body.expr(arm).span;
    let name = program.name(f);
    cx.a.facts[f as usize]
        .panics
        .iter()
        .filter(|site| {
            site.invariant.is_none()
                && site.kind != PanicKind::Exit
                && site.span.start >= within.start
                && site.span.end <= within.end
                && unguarded(cx, f, site)
        })
        .map(|site| {
            let mut finding = Finding::new(
                PanicInTool::NAME,
                cx.span(f, site.span),
                format!(
                    "{} can panic in the `tools/call` branch of `{name}`, on a request the client sent",
                    site.what
                ),
            )
            .label("a malformed `tools/call` request panics here: no response, and the request loop ends");
            if let Some(sdk) = cx.sdk {
                finding = finding.note(sdk.panic_note());
            }
            finding.help(
                "answer a request that does not decode with a JSON-RPC error (-32602, invalid params) instead of unwrapping it",
            )
        })
        .collect()
}

fn finding(cx: &Cx<'_>, f: FnId, site: &PanicSite, reach: &Reach) -> Finding {
    let verb = match site.kind {
        PanicKind::Exit => "ends the server process",
        _ => "can panic",
    };
    reported(cx, f, site, reach, PanicInTool::NAME, verb)
}

/// The finding for a panic site reached from a handler, under `lint` (this one, or the
/// opt-in lint for asserted invariants), with `verb` saying what the site does.
pub(crate) fn reported(
    cx: &Cx<'_>,
    f: FnId,
    site: &PanicSite,
    reach: &Reach,
    lint: &'static str,
    verb: &str,
) -> Finding {
    let node = cx.node(f, site.owner);
    let place = cx.place_phrase(reach, node);
    let mut finding = Finding::new(
        lint,
        cx.span(f, site.span),
        format!("{} {verb} {place}", site.what),
    )
    .label(match site.kind {
        PanicKind::Exit => "the server exits: every request in flight is lost",
        _ => "if this panics, the client gets no response for this request",
    });
    // Why the bound may miss: the request's arguments choose it, or what the walk saw.
    let from_arguments =
        site.kind != PanicKind::Index && chosen_by(cx, f, site, reach).any(|k| k != CONSTANT_BOUND);
    if from_arguments {
        finding = finding.note("a bound comes from the request's arguments: the caller can send one past the end, or a start after the end");
    } else if let Some(risk) = site.risk {
        finding = finding.note(risk.why());
    } else if site.computed_bounds {
        finding = finding.note("a caller passes a fixed offset as the bound: input shorter than it makes the range invalid");
    }
    if site.kind == PanicKind::TextSplit {
        finding = finding.note("a byte offset can fall inside a multi-byte character (`é` is 2 bytes, `😀` 4): slicing there panics however long the text is known to be in bytes");
    }
    for note in cx.panic_chain_notes(reach) {
        finding = finding.note(note);
    }
    if let Some(sdk) = cx.sdk {
        finding = finding.note(sdk.panic_note());
    }
    let handler_fn = cx.a.program.node(reach.handler).func;
    let channel = cx.handlers.channels[handler_fn as usize];
    // A request other than a tool call (a prompt, a resource) fails the protocol's way.
    let tool_call = cx.runs_tools(reach.handler);
    let help = match (site.kind, reach.in_handler(), channel) {
        (PanicKind::Unwrap | PanicKind::Expect | PanicKind::Index | PanicKind::Slice, _, _)
            if !tool_call =>
        {
            "handle the failure and answer the request with an error (`Err(..)`): a request other than a tool call fails with a JSON-RPC error".to_string()
        }
        (PanicKind::Unwrap | PanicKind::Expect, true, Channel::ToolError) => {
            "return the failure to the model instead: `.map_err(|e| e.to_string())?` for a `Result`, `.ok_or(\"what was missing\")?` for an `Option`".to_string()
        }
        (PanicKind::Unwrap | PanicKind::Expect, true, _) => cx.sdk.filter(|s| s.error_channel_known()).map_or_else(
            || "handle the `Err`/`None` case and report it as a tool error".to_string(),
            |sdk| {
                let error_result = sdk.error_result(cx.node_role(reach.handler), "e.to_string()");
                // No tool result can say `isError` in this SDK version: an `Err` at least
                // answers the request.
                if let Some(why) = sdk.no_error_result() {
                    return format!(
                        "handle the failure and return it as an `Err` (`return {error_result}`), which answers the request; {why}"
                    );
                }
                format!(
                    "{}handle the failure and report it as a tool error:\n    let value = match result {{\n        Ok(value) => value,\n        Err(e) => return {error_result},\n    }};",
                    super::error_escapes_tool::retype_first(cx, reach.handler, handler_fn, &error_result)
                )
            },
        ),
        // A helper that already returns a `Result` hands the failure back with `?`.
        (PanicKind::Unwrap | PanicKind::Expect, false, _)
            if cx.a.types.ret(f).as_result().is_some() =>
        {
            "this helper returns a `Result`: hand the failure back with `?` (`.ok_or(\"what was missing\")?` for an `Option`, `.map_err(..)?` for another error type) and let the handler report it as a tool error".to_string()
        }
        (PanicKind::Unwrap | PanicKind::Expect, false, _) => {
            "return a `Result` from this helper and let the handler turn `Err` into a tool error".to_string()
        }
        (PanicKind::Index | PanicKind::Slice, ..) => {
            "use `.get(..)` and handle `None` as a tool error".to_string()
        }
        (PanicKind::TextSplit, ..) => {
            "cut at a char boundary: `text.get(..n)` is `None` off one, `text.floor_char_boundary(n)` moves `n` to one, and `text.char_indices().nth(n)` counts characters".to_string()
        }
        (PanicKind::Exit, ..) => "return an error from the handler instead of exiting".to_string(),
        (PanicKind::Macro, ..) => "return an error result instead of panicking".to_string(),
    };
    finding.help(help)
}
