//! The lints. Each file holds one lint: a query over the crate's handlers, summaries and
//! SDK facts. Add a lint by writing its file, its doc in `lints/NAME.md` and its ui-test
//! folder, then listing it in [`ALL`].

pub mod cx;
mod error_as_success;
mod error_escapes_tool;
mod error_leaks_internals;
mod exits;
mod panic_abort_in_server;
mod panic_in_tool;
mod reserved_error_code;
mod stdout_in_stdio_server;
mod unknown_tool_as_result;
mod validation_as_protocol_error;

use crate::diagnostic::{Finding, Level};
pub use cx::Cx;

/// One lint.
pub trait Lint: Sync {
    fn name(&self) -> &'static str;
    fn default_level(&self) -> Level;
    fn category(&self) -> &'static str;
    /// One line: what it finds.
    fn summary(&self) -> &'static str;
    /// The Markdown doc from `lints/NAME.md`.
    fn doc(&self) -> &'static str;

    /// The lint's findings in one crate.
    fn check(&self, cx: &Cx<'_>) -> Vec<Finding>;
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

/// Diagnostics about suppression comments themselves: `(name, default level, summary, doc)`.
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
