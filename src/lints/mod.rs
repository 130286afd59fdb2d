//! The lints. Each file holds one lint: what it collects while a file is walked, and how it
//! decides with crate-wide facts. Add a lint by writing its file, its doc in `lints/NAME.md`
//! and its ui-test folder, then listing it in [`ALL`].

mod error_as_success;
mod error_escapes_tool;
mod error_leaks_internals;
mod panic_abort_in_server;
mod panic_in_tool;
mod reserved_error_code;
mod stdout_in_stdio_server;
mod unknown_tool_as_result;
mod validation_as_protocol_error;

use crate::diagnostic::{Finding, Level};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::{ExprCx, FnCx};

/// One lint.
pub trait Lint: Sync {
    fn name(&self) -> &'static str;
    fn default_level(&self) -> Level;
    fn category(&self) -> &'static str;
    /// One line: what it finds.
    fn summary(&self) -> &'static str;
    /// The Markdown doc from `lints/NAME.md`.
    fn doc(&self) -> &'static str;

    fn check_fn(&self, _cx: &FnCx<'_>, _out: &mut Vec<Candidate>) {}
    fn check_expr(&self, _cx: &ExprCx<'_>, _expr: &syn::Expr, _out: &mut Vec<Candidate>) {}
    fn check_macro(&self, _cx: &ExprCx<'_>, _mac: &syn::Macro, _out: &mut Vec<Candidate>) {}

    /// Turns one of this lint's candidates into a finding, or drops it.
    fn finish(&self, candidate: &Candidate, facts: &Facts<'_>) -> Option<Finding>;

    /// Findings about the crate as a whole (its manifest, say), after all candidates.
    fn finish_crate(&self, _facts: &Facts<'_>) -> Vec<Finding> {
        Vec::new()
    }
}

/// Every lint, in the order of the docs.
pub static ALL: &[&dyn Lint] = &[
    &panic_in_tool::PanicInTool,
    &error_escapes_tool::ErrorEscapesTool,
    &validation_as_protocol_error::ValidationAsProtocolError,
    &error_as_success::ErrorAsSuccess,
    &stdout_in_stdio_server::StdoutInStdioServer,
    &reserved_error_code::ReservedErrorCode,
    &panic_abort_in_server::PanicAbortInServer,
    &unknown_tool_as_result::UnknownToolAsResult,
    &error_leaks_internals::ErrorLeaksInternals,
];

/// Diagnostics about suppression comments themselves, and about parts of the input the
/// analysis had to leave out: `(name, default level, summary, doc)`.
pub static META: &[(&str, Level, &str, &str)] = &[
    (
        "unused_suppression",
        Level::Warn,
        "a `mcp-lint: allow/expect(..)` comment that suppressed nothing, or names no lint",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/unused_suppression.md"
        )),
    ),
    (
        "missing_suppression_reason",
        Level::Warn,
        "a `mcp-lint: allow/expect(..)` comment without `reason = \"..\"`",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/missing_suppression_reason.md"
        )),
    ),
    (
        "analysis_incomplete",
        Level::Warn,
        "a part of a file too deep or too large for mcp-lint's budgets was not analysed",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/analysis_incomplete.md"
        )),
    ),
];

/// The documentation of a lint or meta diagnostic.
pub fn doc_of(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("mcp_lint::").unwrap_or(name);
    find(name)
        .map(|l| l.doc())
        .or_else(|| META.iter().find(|(n, ..)| *n == name).map(|(.., doc)| *doc))
}

/// The canonical name of a lint or meta diagnostic (`mcp_lint::` prefix optional).
pub fn find_code(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("mcp_lint::").unwrap_or(name);
    find(name)
        .map(|l| l.name())
        .or_else(|| META.iter().find(|(n, ..)| *n == name).map(|(n, ..)| *n))
}

/// Every configurable code with its default level.
pub fn all_codes() -> impl Iterator<Item = (&'static str, Level)> {
    ALL.iter()
        .map(|l| (l.name(), l.default_level()))
        .chain(META.iter().map(|(n, level, ..)| (*n, *level)))
}

pub fn find(name: &str) -> Option<&'static dyn Lint> {
    let name = name.strip_prefix("mcp_lint::").unwrap_or(name);
    ALL.iter().copied().find(|l| l.name() == name)
}

/// Declares the name, level, category, summary and doc of a lint type.
macro_rules! declare_lint {
    ($ty:ident, $name:literal, $level:ident, $category:literal, $summary:literal) => {
        pub struct $ty;
        impl $ty {
            pub const NAME: &'static str = $name;
        }
        macro_rules! lint_meta {
            () => {
                fn name(&self) -> &'static str {
                    $name
                }
                fn default_level(&self) -> crate::diagnostic::Level {
                    crate::diagnostic::Level::$level
                }
                fn category(&self) -> &'static str {
                    $category
                }
                fn summary(&self) -> &'static str {
                    $summary
                }
                fn doc(&self) -> &'static str {
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/lints/", $name, ".md"))
                }
            };
        }
    };
}
pub(crate) use declare_lint;

/// Shared reading of expressions, used by several lints.
pub mod exprs {
    use crate::model::resolve::segments;

    /// `path(..)` → the path's segments as written.
    pub fn call_path(expr: &syn::Expr) -> Option<(Vec<String>, &syn::ExprCall)> {
        match expr {
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) => Some((segments(&p.path), c)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Peels `&`, parentheses, `.await`, `.into()`, `.to_string()`-like conversions.
    pub fn peel(expr: &syn::Expr) -> &syn::Expr {
        if crate::budget::helper_too_deep() {
            return expr;
        }
        match expr {
            syn::Expr::Reference(r) => peel(&r.expr),
            syn::Expr::Paren(p) => peel(&p.expr),
            syn::Expr::Group(g) => peel(&g.expr),
            syn::Expr::Await(a) => peel(&a.base),
            _ => expr,
        }
    }

    pub fn is_call_to(expr: &syn::Expr, name: &str) -> bool {
        call_path(expr).is_some_and(|(p, _)| p.last().is_some_and(|s| s == name))
    }

    /// The ident of a plain local path expression (`e`, not `E` or `a::b`).
    pub fn local_ident(expr: &syn::Expr) -> Option<String> {
        match peel(expr) {
            syn::Expr::Path(p) if p.qself.is_none() => {
                let ident = p.path.get_ident()?.to_string();
                ident
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_lowercase() || c == '_')
                    .then_some(ident)
            }
            _ => None,
        }
    }

    /// The macro's name (last path segment).
    pub fn macro_name(mac: &syn::Macro) -> String {
        mac.path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default()
    }

    /// The comma-separated arguments of a macro, when they parse as expressions.
    pub fn macro_args(mac: &syn::Macro) -> Vec<syn::Expr> {
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        mac.parse_body_with(parser)
            .map(|p| p.into_iter().collect())
            .unwrap_or_default()
    }
}
