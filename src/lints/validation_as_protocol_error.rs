//! Argument validation inside a tool answered with a JSON-RPC -32602 error. Since MCP
//! 2025-11-25 (SEP-1303) such failures are tool execution errors, so the model can correct
//! its arguments.

use super::cx::Cx;
use super::error_escapes_tool::ctor_text;
use super::exits::{
    ProtocolSite, match_code, message_code, operand_text, own_error_finding, own_error_sites,
    protocol_sites, result_edit,
};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Finding};
use crate::sdk::ErrorCtor;

declare_lint!(
    ValidationAsProtocolError,
    "validation_as_protocol_error",
    Warn,
    "correctness",
    "argument validation in a tool returns a JSON-RPC -32602 error instead of an isError result"
);

impl Lint for ValidationAsProtocolError {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out: Vec<Finding> = protocol_sites(cx)
            .iter()
            .filter(|s| s.is_validation())
            .filter_map(|s| finding(cx, s))
            .collect();
        out.extend(
            own_error_sites(cx)
                .iter()
                .filter(|s| s.validation)
                .map(|s| own_error_finding(cx, s, Self::NAME, "invalid tool arguments")),
        );
        out
    }
}

/// Whether the SDK itself sends this argument error as an `isError` result: rmcp ≥ 1.8 does
/// for errors with its deserialization prefix in router tools.
pub(crate) fn sdk_converts(cx: &Cx<'_>, site: &ProtocolSite) -> bool {
    site.protocol.deserialize_prefix
        && cx
            .sdk
            .is_some_and(|s| s.converts_argument_errors(cx.node_role(site.handler)))
}

fn finding(cx: &Cx<'_>, site: &ProtocolSite) -> Option<Finding> {
    let sdk = cx.sdk?;
    let role = cx.node_role(site.handler);
    if sdk_converts(cx, site) {
        return None;
    }
    let handler = cx.reach_for(site.handler, site.node).map_or_else(
        || cx.handler_phrase(site.handler),
        |r| cx.reached_phrase(&r, false),
    );
    let what = if site.protocol.sdk_parse {
        format!(
            "`{}?`",
            operand_text(cx, site).unwrap_or("parse_json_object(..)")
        )
    } else if site.question_mark {
        "`?`".to_string()
    } else if site.in_handler && cx.snippet(site.span).starts_with("Err(") {
        "`Err(invalid_params(..))`".to_string()
    } else {
        format!("`{}`", ctor_text(cx, site))
    };
    // Named only when known: written at the site, or the SDK's code for its invalid-params
    // constructor (a server writing its own responses picks it in its dispatcher; a foreign
    // error about the arguments gets whatever code the SDK gives foreign errors).
    let code = match site.protocol.code.map(i64::from) {
        Some(c) => format!(" ({c})"),
        None if sdk.writes_own_responses() => String::new(),
        None if !site.protocol.sdk_parse && !names_invalid_params(cx.snippet(site.span)) => sdk
            .protocol_error_code(None)
            .map_or(String::new(), |c| format!(" ({c})")),
        None => format!(
            " ({})",
            sdk.protocol_error_code(Some(ErrorCtor::InvalidParams))
                .unwrap_or(-32602)
        ),
    };
    let message = if site.in_handler {
        format!("{what} rejects the arguments of {handler} with a JSON-RPC error{code}")
    } else {
        format!(
            "{what} in `{}` rejects the arguments of {handler} with a JSON-RPC error{code}",
            cx.body_name(site.node)
        )
    };
    let message_code = message_code(
        cx,
        site,
        [
            "\"a required argument is missing\"",
            "format!(\"invalid arguments: {e}\")",
            "\"describe what is wrong and what is expected\"",
        ],
    );
    let error_result = sdk.error_result(role, &message_code);
    let mut finding = Finding::new(ValidationAsProtocolError::NAME, site.span, message)
        .label("the model gets a protocol error instead of a message it can correct its arguments from")
        .note("since MCP 2025-11-25 (SEP-1303), input validation errors are tool execution errors; -32602 is for requests that fail the `CallToolRequest` schema or name an unknown tool");
    for note in cx
        .reach_for(site.handler, site.node)
        .map(|r| cx.chain_notes(&r))
        .unwrap_or_default()
    {
        finding = finding.note(note);
    }
    let edit = result_edit(cx, site, &error_result);
    let help = if edit.is_some() {
        "report invalid arguments as a tool result with `isError: true`".to_string()
    } else {
        match (site.question_mark, operand_text(cx, site)) {
            (true, Some(operand)) => format!(
                "report invalid arguments as a tool result with `isError: true`:\n    {}",
                match_code(operand, site.option, &site.binding, &error_result)
            ),
            _ => format!(
                "report invalid arguments as a tool result with `isError: true`:\n    {error_result}"
            ),
        }
    };
    Some(finding.fix(
        help,
        edit.into_iter().collect(),
        Applicability::MaybeIncorrect,
    ))
}

/// Whether constructor text names the SDK's invalid-params error.
fn names_invalid_params(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("invalid_params") || t.contains("invalidparams")
}
