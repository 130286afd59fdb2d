//! Argument validation inside a tool answered with a JSON-RPC -32602 error. Since MCP
//! 2025-11-25 (SEP-1303) such failures are tool execution errors, so the model can correct
//! its arguments.

use syn::spanned::Spanned;

use super::error_escapes_tool::{
    OwnErrorResponse, ctor_message, err_call_arg, error_ctor_of, is_option_adapter,
    is_sdk_argument_parse, match_code, mentions_unknown_tool, message_code, operand_span,
    own_error_finding, own_error_response, result_edit,
};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Finding};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::ExprCx;
use crate::sdk::{Channel, ErrorCtor, Role};
use crate::source::span_of;

declare_lint!(
    ValidationAsProtocolError,
    "validation_as_protocol_error",
    Warn,
    "correctness",
    "argument validation in a tool returns a JSON-RPC -32602 error instead of an isError result"
);

struct Site {
    question_mark: bool,
    /// The operand of `?` is an `Option` (`.ok_or_else(|| invalid_params(..))?`).
    option: bool,
    operand: crate::diagnostic::Span,
    deserialize_prefix: bool,
    fallback_arm: bool,
    /// `parse_json_object(..)?` and friends: the SDK's own argument parsing.
    sdk_parse: bool,
    /// The message argument of `invalid_params(msg, ..)`, reused in the help.
    message: Option<crate::diagnostic::Span>,
}

fn literal_starts_with_deserialize_prefix(expr: &syn::Expr) -> bool {
    quote::ToTokens::to_token_stream(expr)
        .to_string()
        .contains("\"failed to deserialize parameters:")
}

impl Lint for ValidationAsProtocolError {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        if cx.fn_idx.is_none() || !cx.state.at_fn_level() {
            return;
        }
        if own_error_response(cx, expr) == Some(true) {
            out.push(cx.candidate(Self::NAME, cx.span(expr), OwnErrorResponse));
            return;
        }
        let fallback_arm = cx.state.fallback_arm > 0;
        let (span, site) = match expr {
            syn::Expr::Try(t) => {
                let sdk_parse = is_sdk_argument_parse(&t.expr);
                if !sdk_parse && error_ctor_of(cx, &t.expr) != Some(ErrorCtor::InvalidParams) {
                    return;
                }
                (
                    span_of(cx.file, t.question_token.span()),
                    Site {
                        question_mark: true,
                        option: is_option_adapter(&t.expr),
                        operand: operand_span(cx, &t.expr),
                        deserialize_prefix: literal_starts_with_deserialize_prefix(&t.expr),
                        fallback_arm,
                        sdk_parse,
                        message: None,
                    },
                )
            }
            _ => {
                let Some(arg) = err_call_arg(expr) else {
                    return;
                };
                if error_ctor_of(cx, arg) != Some(ErrorCtor::InvalidParams)
                    || mentions_unknown_tool(arg)
                {
                    return;
                }
                (
                    cx.span(expr),
                    Site {
                        question_mark: false,
                        option: false,
                        operand: operand_span(cx, arg),
                        deserialize_prefix: literal_starts_with_deserialize_prefix(arg),
                        fallback_arm,
                        sdk_parse: false,
                        message: ctor_message(cx, arg),
                    },
                )
            }
        };
        out.push(cx.candidate(Self::NAME, span, site));
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        if cand.data.is::<OwnErrorResponse>() {
            return own_error_finding(cand, facts, Self::NAME, "invalid tool arguments");
        }
        let site = cand.data.downcast_ref::<Site>()?;
        let id = facts.fn_id(cand)?;
        let role = facts.role(id);
        let sdk = facts.sdk?;
        if !role.handles_tools() || facts.graph.channels[id] != Channel::Protocol {
            return None;
        }
        if role == Role::Dispatcher && site.fallback_arm {
            return None;
        }
        // rmcp ≥ 1.8 turns errors with this prefix into isError results for router tools.
        // (A fn a hand-written dispatcher calls is not routed: it keeps its declared role.)
        if site.deserialize_prefix && sdk.converts_argument_errors(facts.fn_model(id).role) {
            return None;
        }
        let what = if site.sdk_parse {
            format!(
                "`{}?`",
                facts
                    .sources
                    .get(site.operand.file)
                    .quoted(site.operand, super::error_escapes_tool::QUOTED_OPERAND)
            )
        } else if site.question_mark {
            "`?`".to_string()
        } else {
            "`Err(invalid_params(..))`".to_string()
        };
        let message = format!(
            "{what} rejects the arguments of {} with a JSON-RPC error ({})",
            facts.handler_phrase(id),
            sdk.protocol_error_code(Some(ErrorCtor::InvalidParams))
                .unwrap_or(-32602)
        );
        let message_code = message_code(
            facts,
            (site.question_mark, site.option, site.message),
            [
                "\"a required argument is missing\"",
                "format!(\"invalid arguments: {e}\")",
                "\"describe what is wrong and what is expected\"",
            ],
        );
        let error_result = sdk.error_result(role, &message_code);
        let fix = if site.question_mark {
            format!(
                "report invalid arguments as a tool result with `isError: true`:\n    {}",
                match_code(
                    &facts
                        .sources
                        .get(site.operand.file)
                        .quoted(site.operand, super::error_escapes_tool::QUOTED_OPERAND),
                    site.option,
                    &error_result
                )
            )
        } else {
            format!(
                "report invalid arguments as a tool result with `isError: true`:\n    {error_result}"
            )
        };
        let edit = result_edit(
            facts,
            id,
            (site.operand, cand.span),
            site.question_mark,
            site.option,
            &error_result,
        );
        Some(
            Finding::new(Self::NAME, cand.span, message)
                .label("the model gets a protocol error instead of a message it can correct its arguments from")
                .note("since MCP 2025-11-25 (SEP-1303), input validation errors are tool execution errors; -32602 is for requests that fail the `CallToolRequest` schema or name an unknown tool")
                .fix(
                    if edit.is_some() {
                        "report invalid arguments as a tool result with `isError: true`".to_string()
                    } else {
                        fix
                    },
                    edit.into_iter().collect(),
                    Applicability::MaybeIncorrect,
                ),
        )
    }
}
