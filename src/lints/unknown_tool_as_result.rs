//! A hand-written dispatcher answering an unknown tool name with a tool result. The spec makes
//! that a JSON-RPC error (-32602): the client learns the tool does not exist, rather than that
//! it ran and failed (or worse, succeeded).

use super::cx::Cx;
use super::exits::channel;
use super::{Lint, declare_lint};
use crate::analysis::facts::FallbackResult;
use crate::analysis::program::FnId;
use crate::diagnostic::{Finding, Span};
use crate::sdk::{Channel, Role};

declare_lint!(
    UnknownToolAsResult,
    "unknown_tool_as_result",
    Warn,
    "suspicious",
    "a manual tool dispatcher answers an unknown tool with a tool result instead of -32602"
);

impl Lint for UnknownToolAsResult {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let Some(sdk) = cx.sdk else { return Vec::new() };
        let mut out = Vec::new();
        for f in cx.a.program.fn_ids() {
            // The dispatcher's own name `match`, or that of a fn it hands its request to.
            let dispatcher = match cx.handlers.role(f) {
                Role::Dispatcher => f,
                _ => match cx.handlers.continues[f as usize] {
                    Some(d) => d,
                    None => continue,
                },
            };
            if !cx.is_own(f) {
                continue;
            }
            let node = cx.a.program.fn_node(dispatcher);
            // Only where the dispatcher can answer with a protocol error: the SDK sends its
            // `Err` as one, or the server writes its own responses.
            if channel(cx, node) != Channel::Protocol && !sdk.writes_own_responses() {
                continue;
            }
            for r in &cx.a.facts[f as usize].fallback_results {
                if r.owner.is_some() || answered_already(cx, r) {
                    continue;
                }
                let kind = if r.success {
                    "a successful tool result"
                } else {
                    "an `isError` tool result"
                };
                let (at, shared) = place(cx, f, r);
                let message = format!(
                    "{} answers an unknown tool name with {kind}",
                    cx.handler_phrase(node)
                );
                let label = "the client is told a tool ran, though no such tool exists";
                let mut finding = Finding::new(Self::NAME, at, message).label(label);
                if let Some(answered_at) = shared {
                    finding = finding
                        .secondary(
                            answered_at,
                            "every tool's error is answered here as a tool result, this one too",
                        )
                        .note(
                            "give the unknown name an error of its own here and answer it with \
                             a JSON-RPC error where the tools' errors become results",
                        );
                } else if r.from_error {
                    finding = finding.note(
                        "this result carries the text of an error that says the tool does not \
                         exist (a lookup by name failed): names no tool has end up here",
                    );
                }
                out.push(
                    finding
                    .note("the MCP spec answers an unknown tool with a JSON-RPC error, -32602 (invalid params)")
                    .help(format!(
                        "answer with a protocol error:\n    {}",
                        sdk.unknown_tool_error("name")
                    )),
                );
            }
        }
        out
    }
}

/// Where the answer to an unknown name `r` (found in fn `f`) is to change, and, when it moved
/// there from the answer itself, the answer's place. An answer that also carries the tools'
/// own failures must stay a result for them: the place is then where a selection by name
/// made the unknown name's error. Only a selection by name decides a name is unknown; an
/// error a lookup helper makes is answered where the dispatcher handed the name on.
pub(crate) fn place(cx: &Cx<'_>, f: FnId, r: &FallbackResult) -> (Span, Option<Span>) {
    let answered_at = cx.span(f, cx.a.program.def(f).body.expr(r.at).span);
    let made = r.made.filter(|_| r.shared).filter(|made| {
        cx.handlers.role(made.func) == Role::Dispatcher
            || cx.handlers.continues[made.func as usize].is_some()
    });
    match made {
        Some(made) => (cx.site_span(made), Some(answered_at)),
        None => (answered_at, None),
    }
}

/// Whether the unknown-tool text `r` carries was made inside a catch-all arm's own answer
/// (`_ => ToolResult::failed(..)`), which is reported itself: a result built again from that
/// answer's text is the same answer, not a second one.
pub(crate) fn answered_already(cx: &Cx<'_>, r: &FallbackResult) -> bool {
    let Some(made) = r.made.filter(|_| r.from_error) else {
        return false;
    };
    let body = &cx.a.program.def(made.func).body;
    let made_span = body.expr(made.expr).span;
    cx.a.facts[made.func as usize]
        .fallback_results
        .iter()
        .filter(|other| !other.from_error && other.owner.is_none())
        .any(|other| body.expr(other.at).span.contains(made_span))
}
