//! A failure reported as a successful tool result: the client sees `isError: false` and the
//! model takes the error text for data.

use syn::spanned::Spanned;

use super::exprs::{call_path, local_ident, macro_args, macro_name, peel};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding, Span};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::{ExprCx, FnCx, err_pattern, pattern_bindings};
use crate::sdk::Channel;
use crate::source::span_of;

declare_lint!(
    ErrorAsSuccess,
    "error_as_success",
    Warn,
    "correctness",
    "a failure is returned as a successful tool result (isError unset)"
);

struct Site {
    /// Why the text is a failure: "the error `e`" or "failure text".
    why: String,
    /// `success` in `CallToolResult::success`, to turn into `error`.
    success_ident: Option<Span>,
    /// Returned as `Ok(..)` / the tail of a fn whose success value is text.
    plain_text: bool,
}

/// Marks a fn whose result is failure text (`fn error_text(e) -> String { format!("Error: {e}") }`).
struct ReturnsFailureText;

/// Text produced by a call to a same-crate fn: a finding if that fn returns failure text.
struct ViaHelper {
    callee: Span,
    name: String,
    site: Site,
}

/// The callee of `helper(..)`, `Self::helper(..)` or `self.helper(..)`: its span (as the
/// call graph records it) and name.
fn helper_call(file: usize, expr: &syn::Expr) -> Option<(Span, String)> {
    match peel(expr) {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => {
                let name = p.path.segments.last()?.ident.to_string();
                Some((span_of(file, p.span()), name))
            }
            _ => None,
        },
        syn::Expr::MethodCall(m) if matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident("self")) => {
            Some((span_of(file, m.method.span()), m.method.to_string()))
        }
        _ => None,
    }
}

/// A `json!` object reporting a failure: an `"error"` key holding an error binding, or
/// `"success": false`.
fn structured_error(mac: &syn::Macro, bound: &[String]) -> Option<String> {
    let tokens: Vec<proc_macro2::TokenTree> = match mac.tokens.clone().into_iter().next() {
        Some(proc_macro2::TokenTree::Group(g)) => g.stream().into_iter().collect(),
        _ => mac.tokens.clone().into_iter().collect(),
    };
    let text = |t: &proc_macro2::TokenTree| t.to_string();
    for (i, t) in tokens.iter().enumerate() {
        let key = text(t);
        let value = tokens.get(i + 2).map(text).unwrap_or_default();
        if key == "\"success\"" && value == "false" {
            return Some("failure data (`\"success\": false`)".to_string());
        }
        if key == "\"error\"" {
            let value_tokens: Vec<String> = tokens
                .iter()
                .skip(i + 2)
                .take_while(|t| text(t) != ",")
                .flat_map(|t| match t {
                    proc_macro2::TokenTree::Group(g) => {
                        g.stream().into_iter().map(|x| x.to_string()).collect()
                    }
                    other => vec![other.to_string()],
                })
                .collect();
            if let Some(name) = bound.iter().find(|b| value_tokens.contains(b)) {
                return Some(format!("the error `{name}`"));
            }
        }
    }
    None
}

/// Lower-case prefixes of messages that announce a failure.
const FAILURE_PREFIXES: &[&str] = &[
    "error:",
    "error -",
    "error ",
    "failed to ",
    "failed:",
    "failure:",
    "could not ",
    "couldn't ",
    "unable to ",
];

fn is_failure_text(text: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    FAILURE_PREFIXES.iter().any(|p| t.starts_with(p))
}

/// Whether `expr` is text built from an error value or announcing a failure. Returns the
/// span of the text and why. `bound` holds names bound to error values.
fn failure_text(expr: &syn::Expr, bound: &[String], file: usize) -> Option<(Span, String)> {
    if crate::budget::helper_too_deep() {
        return None;
    }
    let here = || span_of(file, expr.span());
    match peel(expr) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => is_failure_text(&s.value()).then(|| (here(), "failure text".to_string())),
        syn::Expr::Macro(m) if macro_name(&m.mac) == "format" => {
            let args = macro_args(&m.mac);
            let template = match args.first() {
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) => s.value(),
                _ => return None,
            };
            if let Some(name) = bound.iter().find(|b| {
                template.contains(&format!("{{{b}}}"))
                    || template.contains(&format!("{{{b}:"))
                    || args[1..].iter().any(|a| mentions(a, b))
            }) {
                return Some((here(), format!("the error `{name}`")));
            }
            is_failure_text(&template).then(|| (here(), "failure text".to_string()))
        }
        syn::Expr::MethodCall(m) => match m.method.to_string().as_str() {
            "to_string" | "into" | "to_owned" => {
                if let Some(name) = local_ident(&m.receiver).filter(|n| bound.contains(n)) {
                    return Some((here(), format!("the error `{name}`")));
                }
                failure_text(&m.receiver, bound, file)
            }
            "unwrap_or_else" => {
                let syn::Expr::Closure(c) = m.args.first()? else {
                    return None;
                };
                let mut inner = bound.to_vec();
                if let Some(p) = c.inputs.first() {
                    pattern_bindings(p, &mut inner);
                }
                failure_text(&c.body, &inner, file)
            }
            _ => None,
        },
        syn::Expr::Call(_) => {
            let (path, call) = call_path(peel(expr))?;
            let is_string_from = path.len() == 2 && path[0] == "String" && path[1] == "from";
            if is_string_from {
                return failure_text(call.args.first()?, bound, file);
            }
            None
        }
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => failure_text(e, bound, file),
            _ => None,
        },
        syn::Expr::Match(m) => m.arms.iter().find_map(|arm| {
            let inner = err_pattern(&arm.pat)?;
            let mut names = bound.to_vec();
            pattern_bindings(inner, &mut names);
            failure_text(&arm.body, &names, file)
        }),
        syn::Expr::If(i) => {
            let syn::Expr::Let(l) = &*i.cond else {
                return None;
            };
            let inner = err_pattern(&l.pat)?;
            let mut names = bound.to_vec();
            pattern_bindings(inner, &mut names);
            match i.then_branch.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => failure_text(e, &names, file),
                _ => None,
            }
        }
        syn::Expr::Path(_) => {
            let name = local_ident(expr)?;
            bound
                .contains(&name)
                .then(|| (here(), format!("the error `{name}`")))
        }
        _ => None,
    }
}

fn mentions(expr: &syn::Expr, name: &str) -> bool {
    quote::ToTokens::to_token_stream(expr)
        .into_iter()
        .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == name))
}

/// Text arguments of `vec![Content::text(x), ..]` or `Content::text(x)`.
fn content_texts(cx: &ExprCx<'_>, expr: &syn::Expr) -> Vec<syn::Expr> {
    let Some(sdk) = cx.sdk else {
        return Vec::new();
    };
    let mut texts = Vec::new();
    let items: Vec<syn::Expr> = match peel(expr) {
        syn::Expr::Macro(m) if macro_name(&m.mac) == "vec" => macro_args(&m.mac),
        syn::Expr::Array(a) => a.elems.iter().cloned().collect(),
        other => vec![other.clone()],
    };
    for item in &items {
        if let Some((path, call)) = call_path(peel(item))
            && sdk.is_text_content_ctor(cx.imports, &path)
            && let Some(arg) = call.args.first()
        {
            texts.push(arg.clone());
        }
    }
    texts
}

/// Whether the fn's success value is plain text (`String`, `Result<String, _>`).
fn returns_text(cx: &ExprCx<'_>) -> bool {
    let Some(ret) = cx.ret else { return false };
    let ok = ret.as_result().map_or(ret, |(ok, _)| ok);
    ok.last_segment() == Some("String")
}

impl Lint for ErrorAsSuccess {
    lint_meta!();

    fn check_fn(&self, cx: &FnCx<'_>, out: &mut Vec<Candidate>) {
        let Some(syn::Stmt::Expr(tail, None)) = cx.block.stmts.last() else {
            return;
        };
        let tail_text = failure_text(tail, &[], cx.file);
        if tail_text
            .as_ref()
            .is_some_and(|(_, why)| why == "failure text")
        {
            out.push(cx.candidate(Self::NAME, cx.model.name_span, ReturnsFailureText));
        }
        // The tail of a fn that returns bare `String`.
        if cx.model.ret.last_segment() != Some("String") {
            return;
        }
        if let Some((span, why)) = tail_text {
            out.push(cx.candidate(
                Self::NAME,
                span,
                Site {
                    why,
                    success_ident: None,
                    plain_text: true,
                },
            ));
        }
    }

    fn check_expr(&self, cx: &ExprCx<'_>, _expr: &syn::Expr, out: &mut Vec<Candidate>) {
        let Some(sdk) = cx.sdk else { return };
        let Some((path, call)) = cx.call else {
            return;
        };
        let bound = &cx.state.err_bindings;
        if sdk.is_success_result_ctor(cx.imports, path) {
            let Some(arg) = call.args.first() else { return };
            let success_ident = match &*call.func {
                syn::Expr::Path(p) => p
                    .path
                    .segments
                    .last()
                    .map(|s| span_of(cx.file, s.ident.span())),
                _ => None,
            };
            let site = |why| Site {
                why,
                success_ident,
                plain_text: false,
            };
            if let syn::Expr::Macro(m) = peel(arg)
                && macro_name(&m.mac) == "json"
            {
                // `CallToolResult::structured(json!({"error": e.to_string()}))`.
                if let Some(why) = structured_error(&m.mac, bound) {
                    out.push(cx.candidate(Self::NAME, cx.span(arg), site(why)));
                }
                return;
            }
            // `CallToolResult::text(msg)` takes the text itself; rmcp's take content blocks.
            let mut texts = content_texts(cx, arg);
            texts.push(arg.clone());
            for text in texts {
                if let Some((span, why)) = failure_text(&text, bound, cx.file) {
                    out.push(cx.candidate(Self::NAME, span, site(why)));
                    return;
                }
                if let Some((callee, name)) = helper_call(cx.file, &text)
                    && !cx.config.error_builders.contains(&name)
                {
                    let span = cx.span(&text);
                    out.push(cx.candidate(
                        Self::NAME,
                        span,
                        ViaHelper {
                            callee,
                            name,
                            site: site(String::new()),
                        },
                    ));
                }
            }
        } else if path.len() == 1
            && path[0] == "Ok"
            && cx.state.at_fn_level()
            && returns_text(cx)
            && let Some(arg) = call.args.first()
        {
            let site = |why| Site {
                why,
                success_ident: None,
                plain_text: true,
            };
            if let Some((span, why)) = failure_text(arg, bound, cx.file) {
                out.push(cx.candidate(Self::NAME, span, site(why)));
            } else if let Some((callee, name)) = helper_call(cx.file, arg)
                && !cx.config.error_builders.contains(&name)
            {
                out.push(cx.candidate(
                    Self::NAME,
                    cx.span(arg),
                    ViaHelper {
                        callee,
                        name,
                        site: site(String::new()),
                    },
                ));
            }
        }
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let id = facts.fn_id(cand)?;
        let resolved;
        let site = match cand.data.downcast_ref::<ViaHelper>() {
            Some(via) => {
                let returns_failure = facts
                    .call_targets(id, via.callee)
                    .into_iter()
                    .any(|t| facts.has_marker::<ReturnsFailureText>(Self::NAME, t));
                if !returns_failure {
                    return None;
                }
                resolved = Site {
                    why: format!("`{}`, which returns failure text,", via.name),
                    success_ident: via.site.success_ident,
                    plain_text: via.site.plain_text,
                };
                &resolved
            }
            None => cand.data.downcast_ref::<Site>()?,
        };
        let reach = facts.reach(cand)?;
        if !facts.reaches_tool(&reach) {
            return None;
        }
        // Text returned by a helper is only a tool result in the tool itself.
        if site.plain_text && reach.chain.len() > 1 {
            return None;
        }
        let sdk = facts.sdk?;
        let handler = facts.handler_phrase(reach.handler);
        let message = format!("{handler} reports a failure as a successful result");
        let label = format!(
            "{} is sent with `isError: false`: the model takes it for a result",
            if site.why == "failure text" {
                "this failure text".to_string()
            } else if site.why.ends_with(',') {
                format!("the text of {}", site.why)
            } else {
                format!("text built from {}", site.why)
            }
        );
        let mut finding = Finding::new(Self::NAME, cand.span, message).label(label);
        if reach.chain.len() > 1 {
            finding = finding.note(format!("call chain: {handler}{}", facts.via(&reach)));
        }
        finding =
            finding.note("clients and models key on `isError` to tell a failed call from data");
        let rename = site.success_ident.and_then(|ident| {
            let method = facts.sources.get(ident.file).snippet(ident);
            sdk.error_variant_of(method).map(|m| (ident, m))
        });
        Some(match (rename, site.plain_text) {
            (Some((ident, replacement)), _) => finding.fix(
                format!("mark the result as an error: `CallToolResult::{replacement}(..)`"),
                vec![Edit {
                    span: ident,
                    replacement: replacement.to_string(),
                }],
                Applicability::MachineApplicable,
            ),
            (None, _) => {
                // Where `Err` already becomes an `isError` result, returning it is the fix.
                let help = match facts.graph.channels[reach.handler] {
                    Channel::ToolError => "return it as a tool error: `Err(message)`".to_string(),
                    Channel::Infallible => {
                        "let the tool fail: return `Result<String, String>` and `Err(message)` here"
                            .to_string()
                    }
                    _ => format!(
                        "return it as a tool error: `{}`",
                        sdk.error_result(facts.role(reach.handler), "message")
                    ),
                };
                finding.help(help)
            }
        })
    }
}
