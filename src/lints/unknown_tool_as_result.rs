//! A hand-written dispatcher answering an unknown tool name with a tool result. The spec makes
//! that a JSON-RPC error (-32602): the client learns the tool does not exist, rather than that
//! it ran and failed (or worse, succeeded).

use super::{Lint, declare_lint};
use crate::diagnostic::Finding;
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::ExprCx;
use crate::sdk::{Channel, Role};

declare_lint!(
    UnknownToolAsResult,
    "unknown_tool_as_result",
    Warn,
    "suspicious",
    "a manual tool dispatcher answers an unknown tool with a tool result instead of -32602"
);

struct Site {
    success: bool,
}

impl Lint for UnknownToolAsResult {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        let Some(sdk) = cx.sdk else { return };
        if cx.state.unknown_name_arm == 0 || !cx.state.at_fn_level() {
            return;
        }
        if let syn::Expr::Struct(lit) = expr {
            // `ToolResult { content, is_error: Some(true) }`.
            let is_result = lit
                .path
                .segments
                .last()
                .is_some_and(|seg| sdk.result_type_names().iter().any(|n| seg.ident == n));
            if is_result {
                let error = lit.fields.iter().any(|f| {
                    matches!(&f.member, syn::Member::Named(n) if n == "is_error")
                        && quote::ToTokens::to_token_stream(&f.expr)
                            .to_string()
                            .contains("true")
                });
                out.push(cx.candidate(Self::NAME, cx.span(expr), Site { success: !error }));
            }
            return;
        }
        let Some((path, _)) = cx.call else {
            return;
        };
        let success = sdk.is_success_result_ctor(cx.imports, path);
        if success || sdk.is_error_result_ctor(cx.imports, path) {
            out.push(cx.candidate(Self::NAME, cx.span(expr), Site { success }));
        }
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let site = cand.data.downcast_ref::<Site>()?;
        let id = facts.fn_id(cand)?;
        // Only where the SDK lets the dispatcher answer with a protocol error.
        if facts.role(id) != Role::Dispatcher || facts.graph.channels[id] != Channel::Protocol {
            return None;
        }
        let sdk = facts.sdk?;
        let kind = if site.success {
            "a successful tool result"
        } else {
            "an `isError` tool result"
        };
        Some(
            Finding::new(
                Self::NAME,
                cand.span,
                format!(
                    "{} answers an unknown tool name with {kind}",
                    facts.handler_phrase(id)
                ),
            )
            .label("the client is told a tool ran, though no such tool exists")
            .note("the MCP spec answers an unknown tool with a JSON-RPC error, -32602 (invalid params)")
            .help(format!(
                "answer with a protocol error:\n    {}",
                sdk.unknown_tool_error("name")
            )),
        )
    }
}
