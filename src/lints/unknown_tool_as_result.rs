//! A hand-written dispatcher answering an unknown tool name with a tool result. The spec makes
//! that a JSON-RPC error (-32602): the client learns the tool does not exist, rather than that
//! it ran and failed (or worse, succeeded).

use super::cx::Cx;
use super::exits::channel;
use super::{Lint, declare_lint};
use crate::diagnostic::Finding;
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
            let body = &cx.a.program.def(f).body;
            for r in &cx.a.facts[f as usize].fallback_results {
                if r.owner.is_some() {
                    continue;
                }
                let kind = if r.success {
                    "a successful tool result"
                } else {
                    "an `isError` tool result"
                };
                let mut finding = Finding::new(
                    Self::NAME,
                    cx.span(f, body.expr(r.at).span),
                    format!(
                        "{} answers an unknown tool name with {kind}",
                        cx.handler_phrase(node)
                    ),
                )
                .label("the client is told a tool ran, though no such tool exists");
                if r.from_error {
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
