//! An execution failure leaving a tool as a JSON-RPC error: the model never reads it.

use syn::spanned::Spanned;

use super::exprs::{call_path, peel};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::ExprCx;
use crate::sdk::{Channel, ErrorCtor, Role};
use crate::source::span_of;

declare_lint!(
    ErrorEscapesTool,
    "error_escapes_tool",
    Warn,
    "correctness",
    "an execution failure leaves a tool as a JSON-RPC error instead of an isError result"
);

pub(crate) struct Site {
    pub question_mark: bool,
    /// The operand of `?` is an `Option` (`.ok_or(..)?`).
    pub option: bool,
    /// The failing expression without `?` and its `map_err`, for the help.
    pub operand: crate::diagnostic::Span,
    pub ctor: Option<ErrorCtor>,
    pub fallback_arm: bool,
    /// The message argument of the error constructor, reused in the help.
    pub message: Option<crate::diagnostic::Span>,
}

/// The message argument of `ErrorData::internal_error(msg, data)` / `ErrorData::new(code, msg, data)`.
pub(crate) fn ctor_message(cx: &ExprCx<'_>, expr: &syn::Expr) -> Option<crate::diagnostic::Span> {
    let (path, call) = call_path(peel(expr))?;
    let index = usize::from(path.last().is_some_and(|m| m == "new"));
    call.args.get(index).map(|a| cx.span(a))
}

/// The protocol-error constructor an expression builds, looking through `map_err` closures,
/// `ok_or(..)` and `ok_or_else(..)`.
pub(crate) fn error_ctor_of(cx: &ExprCx<'_>, expr: &syn::Expr) -> Option<ErrorCtor> {
    if crate::budget::helper_too_deep() {
        return None;
    }
    let sdk = cx.sdk?;
    match peel(expr) {
        syn::Expr::Call(_) => {
            let (path, call) = call_path(peel(expr))?;
            if let Some(ctor) = sdk.error_ctor(cx.imports, &path) {
                // `ErrorData::new(ErrorCode::INVALID_PARAMS, ..)`.
                if ctor == ErrorCtor::Other
                    && call.args.first().is_some_and(|a| {
                        quote::ToTokens::to_token_stream(a)
                            .to_string()
                            .contains("INVALID_PARAMS")
                    })
                {
                    return Some(ErrorCtor::InvalidParams);
                }
                return Some(ctor);
            }
            None
        }
        syn::Expr::MethodCall(m) => match m.method.to_string().as_str() {
            "map_err" | "ok_or_else" | "ok_or" => {
                let arg = m.args.first()?;
                match arg {
                    syn::Expr::Closure(c) => error_ctor_of(cx, closure_value(&c.body)),
                    other => error_ctor_of(cx, other).or_else(|| {
                        // `.map_err(ErrorData::internal_error)`-style function paths.
                        let syn::Expr::Path(p) = other else {
                            return None;
                        };
                        let path = crate::model::resolve::segments(&p.path);
                        sdk.error_ctor(cx.imports, &path)
                    }),
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// The value a closure body evaluates to (its block's tail).
fn closure_value(body: &syn::Expr) -> &syn::Expr {
    if crate::budget::helper_too_deep() {
        return body;
    }
    match body {
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => closure_value(e),
            _ => body,
        },
        _ => body,
    }
}

/// The expression before `.map_err(..)` / `.ok_or..(..)`.
/// Whether `expr` is `option.ok_or(..)` / `option.ok_or_else(..)`: its operand is an `Option`.
pub(crate) fn is_option_adapter(expr: &syn::Expr) -> bool {
    matches!(peel(expr), syn::Expr::MethodCall(m)
        if m.method == "ok_or" || m.method == "ok_or_else")
}

/// The message expression a fix puts in the error result: for `option?`, for `result?` (with
/// the error `e` in scope), or for `Err(..)` — the constructor's own message when known.
pub(crate) fn message_code(
    facts: &Facts<'_>,
    (question_mark, option, message): (bool, bool, Option<crate::diagnostic::Span>),
    [missing, error, fallback]: [&str; 3],
) -> String {
    match (question_mark, option, message) {
        (true, true, _) => missing.to_string(),
        (true, false, _) => error.to_string(),
        (false, _, Some(m)) => facts.sources.get(m.file).snippet(m).to_string(),
        (false, _, None) => fallback.to_string(),
    }
}

/// The code that replaces `operand?` so a failure returns `error_result` instead.
pub(crate) fn match_code(operand: &str, option: bool, error_result: &str) -> String {
    if option {
        format!("match {operand} {{ Some(value) => value, None => return {error_result} }}")
    } else {
        format!("match {operand} {{ Ok(value) => value, Err(e) => return {error_result} }}")
    }
}

/// The longest operand (bytes) a `match` edit repeats; longer operands are quoted cut.
const MAX_EDIT_OPERAND: usize = 4096;

/// How many characters of an operand a message or help quotes.
pub(crate) const QUOTED_OPERAND: usize = 120;

/// The edit that turns a protocol-error site into an `isError` result: `operand?` (ending at
/// `end`) becomes a `match`, `Err(..)` becomes the result. `None` where the SDK cannot spell
/// that result for this fn's return type.
pub(crate) fn result_edit(
    facts: &Facts<'_>,
    id: usize,
    site: (crate::diagnostic::Span, crate::diagnostic::Span),
    question_mark: bool,
    option: bool,
    error_result: &str,
) -> Option<Edit> {
    let sdk = facts.sdk?;
    let f = facts.fn_model(id);
    if !sdk.can_return_error_result(facts.role(id), &f.ret) {
        return None;
    }
    let (operand, whole) = site;
    // An operand too large to repeat in an edit (a hostile `x????..`) gets the help only:
    // its edit would copy the operand once per finding.
    if question_mark && operand.end.saturating_sub(operand.start) > MAX_EDIT_OPERAND {
        return None;
    }
    Some(if question_mark {
        Edit {
            span: crate::diagnostic::Span {
                end: whole.end,
                ..operand
            },
            replacement: match_code(
                facts.sources.get(operand.file).snippet(operand),
                option,
                error_result,
            ),
        }
    } else {
        Edit {
            span: whole,
            replacement: error_result.to_string(),
        }
    })
}

pub(crate) fn operand_span(cx: &ExprCx<'_>, expr: &syn::Expr) -> crate::diagnostic::Span {
    match peel(expr) {
        syn::Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "map_err" | "ok_or" | "ok_or_else"
            ) =>
        {
            cx.span(&m.receiver)
        }
        _ => cx.span(expr),
    }
}

/// A JSON-RPC error response a hand-rolled server builds itself: `json!({"error": {"code":
/// .., ..}})` or `JsonRpcResponse::error(..)`. Returns whether it is about the arguments
/// (then it is validation, reported by `validation_as_protocol_error`). Unknown-tool answers
/// and catch-all arms are left alone.
pub(crate) fn own_error_response(cx: &ExprCx<'_>, expr: &syn::Expr) -> Option<bool> {
    let sdk = cx.sdk?;
    if !sdk.writes_own_responses() || cx.state.fallback_arm > 0 || mentions_unknown_tool(expr) {
        return None;
    }
    let is_response = match expr {
        syn::Expr::Macro(m) if super::exprs::macro_name(&m.mac) == "json" => {
            has_error_object(m.mac.tokens.clone())
        }
        syn::Expr::Call(_) => call_path(expr).is_some_and(|(path, _)| {
            let n = path.len();
            n >= 2
                && path[n - 1] == "error"
                && (path[n - 2].ends_with("Response") || path[n - 2].ends_with("Error"))
        }),
        _ => false,
    };
    if !is_response {
        return None;
    }
    let text = quote::ToTokens::to_token_stream(expr)
        .to_string()
        .to_lowercase();
    // "Invalid parameters" answers a `params` object that fails the `CallToolRequest` schema:
    // a malformed request, which the spec answers with a protocol error.
    if text.contains("param") && !text.contains("argument") {
        return None;
    }
    Some(text.contains("argument"))
}

/// `"error": { .. "code" .. }` at the top level of a `json!` body.
fn has_error_object(tokens: proc_macro2::TokenStream) -> bool {
    if crate::budget::helper_too_deep() {
        return false;
    }
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = match tokens.into_iter().next() {
        Some(TokenTree::Group(g)) => g.stream().into_iter().collect(),
        _ => return false,
    };
    tokens.windows(3).any(|w| match w {
        [
            TokenTree::Literal(key),
            TokenTree::Punct(colon),
            TokenTree::Group(body),
        ] => {
            key.to_string() == "\"error\""
                && colon.as_char() == ':'
                && body
                    .stream()
                    .into_iter()
                    .any(|t| t.to_string() == "\"code\"")
        }
        _ => false,
    })
}

/// A tool failure a hand-rolled dispatcher answers with a JSON-RPC error object.
pub(crate) struct OwnErrorResponse;

/// The finding for an [`OwnErrorResponse`] in a hand-rolled tool dispatcher.
pub(crate) fn own_error_finding(
    cand: &Candidate,
    facts: &Facts<'_>,
    lint: &'static str,
    what: &str,
) -> Option<Finding> {
    let id = facts.fn_id(cand)?;
    if facts.role(id) != Role::Dispatcher {
        return None;
    }
    Some(
        Finding::new(
            lint,
            cand.span,
            format!(
                "{} answers {what} with a JSON-RPC error object",
                facts.handler_phrase(id)
            ),
        )
        .label("the client gets a protocol error, not a tool result the model can read")
        .note("a tool that ran and failed must answer with a result that has `isError: true`; JSON-RPC errors are for requests the server cannot process")
        .help("answer with a result instead:\n    json!({ \"content\": [{ \"type\": \"text\", \"text\": message }], \"isError\": true })"),
    )
}

/// `mutex.lock().map_err(..)`: poisoning is a server bug, not a tool failure.
fn is_lock_failure(expr: &syn::Expr) -> bool {
    match peel(expr) {
        syn::Expr::MethodCall(m) if m.method == "map_err" => matches!(peel(&m.receiver),
            syn::Expr::MethodCall(l) if l.args.is_empty()
                && matches!(l.method.to_string().as_str(), "lock" | "read" | "write")),
        _ => false,
    }
}

/// `parse_json_object(..)`: the SDK's argument parsing, reported as validation.
pub(crate) fn is_sdk_argument_parse(expr: &syn::Expr) -> bool {
    call_path(peel(expr)).is_some_and(|(p, _)| p.last().is_some_and(|s| s == "parse_json_object"))
}

/// Whether a string literal inside says the tool itself is unknown.
pub(crate) fn mentions_unknown_tool(expr: &syn::Expr) -> bool {
    let text = quote::ToTokens::to_token_stream(expr)
        .to_string()
        .to_lowercase();
    (text.contains("tool") || text.contains("method"))
        && (text.contains("not found") || text.contains("unknown") || text.contains("no such"))
}

/// `Err(..)` as an expression: its argument.
pub(crate) fn err_call_arg(expr: &syn::Expr) -> Option<&syn::Expr> {
    let (path, call) = call_path(expr)?;
    (path.last().is_some_and(|s| s == "Err") && call.args.len() == 1).then(|| &call.args[0])
}

impl Lint for ErrorEscapesTool {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        if cx.fn_idx.is_none() || !cx.state.at_fn_level() {
            return;
        }
        if own_error_response(cx, expr) == Some(false) {
            out.push(cx.candidate(Self::NAME, cx.span(expr), OwnErrorResponse));
            return;
        }
        let (span, site) = match expr {
            syn::Expr::Try(t) if is_sdk_argument_parse(&t.expr) || is_lock_failure(&t.expr) => {
                return;
            }
            syn::Expr::Try(t) => (
                span_of(cx.file, t.question_token.span()),
                Site {
                    question_mark: true,
                    option: is_option_adapter(&t.expr),
                    operand: operand_span(cx, &t.expr),
                    ctor: error_ctor_of(cx, &t.expr),
                    fallback_arm: cx.state.fallback_arm > 0,
                    message: None,
                },
            ),
            _ => {
                let Some(arg) = err_call_arg(expr) else {
                    return;
                };
                if mentions_unknown_tool(arg) {
                    return;
                }
                (
                    cx.span(expr),
                    Site {
                        question_mark: false,
                        option: false,
                        operand: operand_span(cx, arg),
                        ctor: error_ctor_of(cx, arg),
                        fallback_arm: cx.state.fallback_arm > 0,
                        message: error_ctor_of(cx, arg).and_then(|_| ctor_message(cx, arg)),
                    },
                )
            }
        };
        // Validation and unknown-method errors have lints and rules of their own.
        if matches!(
            site.ctor,
            Some(ErrorCtor::InvalidParams | ErrorCtor::MethodNotFound | ErrorCtor::ToolRejection)
        ) {
            return;
        }
        out.push(cx.candidate(Self::NAME, span, site));
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        if cand.data.is::<OwnErrorResponse>() {
            return own_error_finding(cand, facts, Self::NAME, "a tool's failure");
        }
        let site = cand.data.downcast_ref::<Site>()?;
        let id = facts.fn_id(cand)?;
        let role = facts.role(id);
        if !role.handles_tools() || facts.graph.channels[id] != Channel::Protocol {
            return None;
        }
        // A dispatcher's catch-all arm answers an unknown tool: a protocol error by spec.
        if role == Role::Dispatcher && site.fallback_arm {
            return None;
        }
        let sdk = facts.sdk?;
        let code = sdk
            .protocol_error_code(site.ctor)
            .map_or(String::new(), |c| format!(" ({c})"));
        let construct = if site.question_mark {
            "`?`"
        } else {
            "`Err(..)`"
        };
        let message = format!(
            "{construct} returns a failure of {} as a JSON-RPC error",
            facts.handler_phrase(id)
        );
        let label = format!(
            "the client gets a JSON-RPC error{code}, not a tool result: the model cannot read it or retry"
        );
        let message_code = message_code(
            facts,
            (site.question_mark, site.option, site.message),
            ["\"the value is missing\"", "e.to_string()", "message"],
        );
        let error_result = sdk.error_result(role, &message_code);
        let help = if site.question_mark {
            format!(
                "report the failure as a tool result with `isError: true`:\n    {}",
                match_code(
                    &facts
                        .sources
                        .get(site.operand.file)
                        .quoted(site.operand, QUOTED_OPERAND),
                    site.option,
                    &error_result
                )
            )
        } else {
            format!("report the failure as a tool result with `isError: true`:\n    {error_result}")
        };
        let edit = result_edit(
            facts,
            id,
            (site.operand, cand.span),
            site.question_mark,
            site.option,
            &error_result,
        );
        let mut finding = Finding::new(Self::NAME, cand.span, message)
            .label(label)
            .note("a tool that ran and failed must answer with `isError: true`; JSON-RPC errors are for requests the server cannot process (unknown tool, malformed request)");
        if role == Role::TraitTool {
            finding = finding.note(format!(
                "every `Err` of this {} tool handler becomes a JSON-RPC error",
                sdk.name()
            ));
        }
        Some(match edit {
            Some(edit) => finding.fix(
                "report the failure as a tool result with `isError: true`",
                vec![edit],
                Applicability::MaybeIncorrect,
            ),
            None => finding.help(help),
        })
    }
}
