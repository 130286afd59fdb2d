//! Internals sent to the model in an error result: the `Debug` form of an error, backtraces,
//! panic payloads, raw SQL. The `Display` form (`{e}`, `e.to_string()`) is the helpful
//! message and is fine.

use syn::spanned::Spanned;
use syn::visit::Visit;

use super::exprs::{macro_args, macro_name, peel};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding, Span};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::{ExprCx, pattern_bindings};
use crate::sdk::Channel;
use crate::source::span_of;

declare_lint!(
    ErrorLeaksInternals,
    "error_leaks_internals",
    Warn,
    "suspicious",
    "an error result sent to the model carries Debug output, a backtrace, a panic payload or SQL"
);

struct Site {
    what: String,
    /// The format template, when the fix is to drop `:?` from it.
    template: Option<(Span, String)>,
    /// `Err(..)` of the fn: only a leak when that `Err` becomes an `isError` result.
    via_err: bool,
}

/// Where the leak is, what it is, and the format string to rewrite (its span and fixed text).
type Leak = (Span, String, Option<(Span, String)>);

/// Names that hold a panic payload or SQL text.
const PAYLOAD_NAMES: &[&str] = &["payload", "panic_payload", "panic_info"];

/// Looks for a leak in `expr`; `bound` holds names bound to error values.
fn leak(file: usize, expr: &syn::Expr, bound: &[String]) -> Option<Leak> {
    let mut finder = LeakFinder {
        file,
        bound,
        found: None,
    };
    finder.visit_expr(expr);
    finder.found
}

struct LeakFinder<'b> {
    file: usize,
    bound: &'b [String],
    found: Option<Leak>,
}

impl LeakFinder<'_> {
    fn format_macro(&mut self, mac: &syn::Macro) {
        let args = macro_args(mac);
        let Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(template),
            ..
        })) = args.first()
        else {
            return;
        };
        let text = template.value();
        let mut positional = 0;
        for piece in text.split('{').skip(1) {
            if piece.starts_with('{') {
                continue;
            }
            let Some(spec) = piece.split('}').next() else {
                continue;
            };
            let (name, format) = spec.split_once(':').unwrap_or((spec, ""));
            let debug = format.ends_with('?');
            let subject = if name.is_empty() {
                positional += 1;
                args.get(positional).and_then(|a| match peel(a) {
                    syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                    _ => None,
                })
            } else {
                Some(name.to_string())
            };
            if debug
                && let Some(subject) = subject
                && self.bound.contains(&subject)
            {
                let span = span_of(self.file, template.span());
                let fixed = text
                    .replace(&format!("{{{subject}:?}}"), &format!("{{{subject}}}"))
                    .replace(&format!("{{{subject}:#?}}"), &format!("{{{subject}}}"))
                    .replace("{:?}", "{}")
                    .replace("{:#?}", "{}");
                self.found = Some((
                    span,
                    format!("the `Debug` form of error `{subject}`"),
                    Some((span, format!("{fixed:?}"))),
                ));
                return;
            }
        }
        for arg in &args[1..] {
            self.visit_expr(arg);
        }
    }
}

impl<'ast> Visit<'ast> for LeakFinder<'_> {
    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        if self.found.is_some() || crate::budget::helper_too_deep() {
            return;
        }
        let here = || span_of(self.file, expr.span());
        match expr {
            syn::Expr::Macro(m)
                if matches!(macro_name(&m.mac).as_str(), "format" | "format_args") =>
            {
                self.format_macro(&m.mac);
                return;
            }
            syn::Expr::MethodCall(m) if m.method == "backtrace" => {
                self.found = Some((here(), "a backtrace".into(), None));
                return;
            }
            syn::Expr::MethodCall(m) if m.method == "downcast_ref" || m.method == "downcast" => {
                self.found = Some((here(), "a panic payload".into(), None));
                return;
            }
            syn::Expr::Path(p) => {
                if let Some(ident) = p.path.get_ident() {
                    let name = ident.to_string();
                    if PAYLOAD_NAMES.contains(&name.as_str()) {
                        self.found = Some((here(), "a panic payload".into(), None));
                    } else if name == "backtrace" || name == "bt" {
                        self.found = Some((here(), "a backtrace".into(), None));
                    } else if name == "sql" {
                        self.found = Some((here(), "raw SQL text".into(), None));
                    }
                } else if p.path.segments.iter().any(|s| s.ident == "Backtrace") {
                    self.found = Some((here(), "a backtrace".into(), None));
                }
                return;
            }
            _ => {}
        }
        syn::visit::visit_expr(self, expr);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        match macro_name(mac).as_str() {
            "format" | "format_args" => self.format_macro(mac),
            "vec" => {
                for arg in macro_args(mac) {
                    self.visit_expr(&arg);
                }
            }
            _ => {}
        }
    }
}

/// The value of a closure body (its block's tail).
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

impl Lint for ErrorLeaksInternals {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        let Some(sdk) = cx.sdk else { return };
        let bound = &cx.state.err_bindings;
        let mut push = |found: Option<Leak>, via_err: bool| {
            if let Some((span, what, template)) = found {
                out.push(cx.candidate(
                    Self::NAME,
                    span,
                    Site {
                        what,
                        template,
                        via_err,
                    },
                ));
            }
        };
        match expr {
            // `.map_err(|e| format!("{e:?}"))` in the tool itself: the closure's value becomes
            // the tool's `Err` (through `?` or as the returned value).
            syn::Expr::MethodCall(m) if cx.state.at_fn_level() && m.method == "map_err" => {
                if let Some(syn::Expr::Closure(c)) = m.args.first() {
                    let mut names = bound.clone();
                    if let Some(p) = c.inputs.first() {
                        pattern_bindings(p, &mut names);
                    }
                    push(leak(cx.file, closure_value(&c.body), &names), true);
                }
            }
            syn::Expr::Call(_) => {
                let Some((path, call)) = cx.call else {
                    return;
                };
                let project_builder = path
                    .last()
                    .is_some_and(|l| cx.config.error_builders.contains(l));
                if sdk.is_error_result_ctor(cx.imports, path) || project_builder {
                    if let Some(arg) = call.args.first() {
                        push(leak(cx.file, arg, bound), false);
                    }
                } else if path.len() == 1
                    && path[0] == "Err"
                    && cx.state.at_fn_level()
                    && let Some(arg) = call.args.first()
                {
                    push(leak(cx.file, arg, bound), true);
                }
            }
            _ => {}
        }
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let site = cand.data.downcast_ref::<Site>()?;
        let id = facts.fn_id(cand)?;
        let reach = facts.reach(cand)?;
        if !facts.reaches_tool(&reach) {
            return None;
        }
        if site.via_err && (reach.chain.len() > 1 || facts.graph.channels[id] != Channel::ToolError)
        {
            return None;
        }
        let handler = facts.handler_phrase(reach.handler);
        let mut finding = Finding::new(
            Self::NAME,
            cand.span,
            format!("{handler} sends {} to the model in an error result", site.what),
        )
        .label("internal detail (types, paths, queries, stack frames) that helps neither the model nor the user, and may expose the server")
        .note("the model needs a message it can act on: the error's `Display` form; keep the details in the server's log on stderr");
        if reach.chain.len() > 1 {
            finding = finding.note(format!("call chain: {handler}{}", facts.via(&reach)));
        }
        Some(match &site.template {
            Some((span, fixed)) => finding.fix(
                "send the `Display` form instead, and log the details with `tracing::error!(\"{e:?}\")`",
                vec![Edit {
                    span: *span,
                    replacement: fixed.clone(),
                }],
                Applicability::MaybeIncorrect,
            ),
            None => finding.help(
                "send a short message such as `e.to_string()` and log the details to stderr",
            ),
        })
    }
}
