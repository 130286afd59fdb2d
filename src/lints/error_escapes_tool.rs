//! An execution failure leaving a tool as a JSON-RPC error: the model never reads it.

use super::cx::Cx;
use super::exits::{
    ProtocolSite, match_code, message_code, operand_text, own_error_finding, own_error_sites,
    protocol_sites, result_edit,
};
use super::{Lint, declare_lint};
use crate::analysis::program::FnId;
use crate::diagnostic::{Applicability, Finding};
use crate::sdk::Role;

declare_lint!(
    ErrorEscapesTool,
    "error_escapes_tool",
    Warn,
    "correctness",
    "an execution failure leaves a tool as a JSON-RPC error instead of an isError result"
);

impl Lint for ErrorEscapesTool {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out: Vec<Finding> = protocol_sites(cx)
            .iter()
            .filter(|s| !s.is_validation())
            .filter_map(|s| finding(cx, s))
            .collect();
        out.extend(
            own_error_sites(cx)
                .iter()
                .filter(|s| !s.validation)
                .map(|s| own_error_finding(cx, s, Self::NAME, "a tool's failure")),
        );
        out
    }
}

fn finding(cx: &Cx<'_>, site: &ProtocolSite) -> Option<Finding> {
    let sdk = cx.sdk?;
    let role = cx.node_role(site.handler);
    let code = site
        .protocol
        .code
        .map(i64::from)
        .or_else(|| sdk.protocol_error_code(Some(site.protocol.ctor)))
        .map_or(String::new(), |c| format!(" ({c})"));
    let construct = if site.question_mark {
        "`?`".to_string()
    } else if site.early_return_macro {
        format!("`{}`", ctor_text(cx, site))
    } else {
        "`Err(..)`".to_string()
    };
    let reach = cx.reach_for(site.handler, site.node);
    let handler = reach.as_ref().map_or_else(
        || cx.handler_phrase(site.handler),
        |r| cx.reached_phrase(r, false),
    );
    if let Some(tool) = site.forwards {
        return Some(forward_finding(cx, site, tool, &code));
    }
    let message =
        if site.in_handler && (site.question_mark || site.wraps_err || site.early_return_macro) {
            format!("{construct} returns a failure of {handler} as a JSON-RPC error")
        } else {
            let what = if site.question_mark {
                "`?`".to_string()
            } else {
                format!("`{}`", ctor_text(cx, site))
            };
            format!(
                "{what} in `{}` makes a failure of {handler} a JSON-RPC error",
                cx.body_name(site.node)
            )
        };
    let label = format!(
        "the client gets a JSON-RPC error{code}, not a tool result: the model cannot read it or retry"
    );
    let mut finding = Finding::new(ErrorEscapesTool::NAME, site.span, message)
        .label(label)
        .note("a tool that ran and failed must answer with `isError: true`; JSON-RPC errors are for requests the server cannot process (unknown tool, malformed request)");
    for note in reach
        .as_ref()
        .map(|r| cx.chain_notes(r))
        .unwrap_or_default()
    {
        finding = finding.note(note);
    }
    if role == Role::TraitTool {
        finding = finding.note(format!(
            "every `Err` of this {} tool handler becomes a JSON-RPC error",
            sdk.name()
        ));
    }
    if let Some(help) = sdk.no_error_result() {
        return Some(finding.help(help));
    }
    let message_code = message_code(
        cx,
        site,
        ["\"the value is missing\"", "e.to_string()", "message"],
    );
    let error_result = sdk.error_result(role, &message_code);
    if let Some(edit) = result_edit(cx, site, &error_result) {
        return Some(finding.fix(
            "report the failure as a tool result with `isError: true`",
            vec![edit],
            Applicability::MaybeIncorrect,
        ));
    }
    let retype = if site.in_handler {
        retype_first(cx, site.handler, site.func, &error_result)
    } else {
        String::new()
    };
    let help = match (site.question_mark, operand_text(cx, site)) {
        (true, Some(operand)) => format!(
            "{retype}report the failure as a tool result with `isError: true`:\n    {}",
            match_code(operand, site.option, &site.binding, &error_result)
        ),
        _ if !site.in_handler => format!(
            "return an error the tool can answer with an `isError` result (`Result<_, String>`), and report it from the tool:\n    {error_result}"
        ),
        _ => {
            format!("report the failure as a tool result with `isError: true`:\n    {error_result}")
        }
    };
    Some(finding.help(help))
}

/// A tool's failure a hand-rolled dispatcher hands on as its own `Err`, which its callers
/// answer with a JSON-RPC error object, as they must for request errors.
fn forward_finding(cx: &Cx<'_>, site: &ProtocolSite, tool: FnId, code: &str) -> Finding {
    let construct = if site.question_mark {
        "`?`"
    } else {
        "this arm"
    };
    // The fn handed on is a tool of its own, or a fn the tool's arm calls (`read_args(..)?`),
    // or one of the tools a registry lookup finds.
    let callee = cx.a.program.def(tool).name.clone();
    let failure = if site.forwards_held {
        "a failure of the tool it looked up".to_string()
    } else if cx.handlers.role(tool) == Role::Tool {
        format!("a failure of tool `{callee}`")
    } else {
        format!("the failure of `{callee}`, called in a tool's arm,")
    };
    let message = format!(
        "{construct} hands {failure} on as the {}'s error, which the server answers with a JSON-RPC error",
        cx.handler_phrase(site.handler),
    );
    Finding::new(ErrorEscapesTool::NAME, site.span, message)
        .label(format!(
            "the client gets a JSON-RPC error{code}, not a tool result: the model cannot read it or retry"
        ))
        .note("the same answer is right for an unknown tool or unreadable `params`, so the tool's failure is the one to answer differently, here")
        .help("answer the tool's failure with a result here, and keep the error for the request's own failures:\n    Err(e) => Ok(json!({ \"content\": [{ \"type\": \"text\", \"text\": e.to_string() }], \"isError\": true }))")
}

/// `McpError::internal_error(..)`: the constructor's path as written.
pub(crate) fn ctor_text(cx: &Cx<'_>, site: &ProtocolSite) -> String {
    let text = cx.snippet(site.span);
    let paren = text.find('(');
    // A struct literal (`ToolError { code: -32602, message: format!(..) }`): its name.
    if let Some(b) = text.find('{')
        && paren.is_none_or(|p| b < p)
        && is_path(text[..b].trim())
    {
        return format!("{} {{ .. }}", text[..b].trim());
    }
    let head = match paren {
        Some(i) => format!("{}(..)", &text[..i]),
        None => text.to_string(),
    };
    // On one line: `|_| { Error::new(..)`, not the closure's line breaks and indentation.
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `ToolError`, `rmcp::ErrorData`: a path a struct literal can name.
fn is_path(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

/// "make the tool return `CallToolResult` .., then " when tool fn `func` (the body of handler
/// `handler`) cannot return the SDK's error result as it is written: its success is no result
/// type (`String`, `Result<String, E>`), and the error result is a value the tool returns (not
/// an `Err` the SDK converts). A closure's return type is not written: nothing is said.
pub(crate) fn retype_first(
    cx: &Cx<'_>,
    handler: crate::analysis::program::NodeId,
    func: crate::analysis::program::FnId,
    error_result: &str,
) -> String {
    let Some(sdk) = cx.sdk else {
        return String::new();
    };
    let role = cx.node_role(handler);
    if cx.handlers.closures.contains(&handler)
        || !matches!(role, Role::Tool | Role::TraitTool)
        || !error_result.starts_with("Ok(")
        || sdk.can_return_error_result(role, cx.a.types.ret(func))
    {
        return String::new();
    }
    format!(
        "make the tool return a `Result` of `{}` (its successes wrapped in one), then ",
        sdk.result_type_names()
            .first()
            .copied()
            .unwrap_or("CallToolResult")
    )
}
