//! The lints. Each file holds one lint: a query over the crate's handlers, summaries and
//! SDK facts. Add a lint by writing its file, its doc in `lints/NAME.md` and its ui-test
//! folder, then listing it in [`ALL`].

pub mod cx;
pub(crate) mod error_as_success;
pub(crate) mod error_escapes_tool;
pub(crate) mod error_leaks_internals;
pub(crate) mod exits;
mod invariant_panic_in_tool;
pub(crate) mod panic_abort_in_server;
pub(crate) mod panic_in_tool;
mod reserved_error_code;
mod stdout_in_stdio_server;
pub(crate) mod unknown_tool_as_result;
pub(crate) mod validation_as_protocol_error;

use crate::diagnostic::{Finding, Level};
pub use cx::{CALLER_BUDGET, Cx};

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
    &invariant_panic_in_tool::InvariantPanicInTool,
];

/// A diagnostic that is not a lint of the analysis but is configured like one.
pub struct Meta {
    pub name: &'static str,
    pub level: Level,
    pub category: &'static str,
    pub summary: &'static str,
    pub doc: &'static str,
}

/// Diagnostics about suppression comments and about files that could not be read or parsed.
pub static META: &[Meta] = &[
    Meta {
        name: "unused_suppression",
        level: Level::Warn,
        category: "suppression",
        summary: "a `mcp-lint: allow/expect(..)` comment that suppressed nothing, or names no lint",
        doc: include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/unused_suppression.md"
        )),
    },
    Meta {
        name: "missing_suppression_reason",
        level: Level::Warn,
        category: "suppression",
        summary: "a `mcp-lint: allow/expect(..)` comment without `reason = \"..\"`",
        doc: include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/missing_suppression_reason.md"
        )),
    },
    Meta {
        name: crate::PARSE_ERROR,
        level: Level::Warn,
        category: "input",
        summary: "a file that does not parse as Rust, so it was not linted",
        doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/lints/parse_error.md")),
    },
    Meta {
        name: crate::IO_ERROR,
        level: Level::Warn,
        category: "input",
        summary: "a file skipped unread: not UTF-8, too large, unreadable, a symbolic link, or a broken manifest",
        doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/lints/io_error.md")),
    },
    Meta {
        name: crate::per_file::ANALYSIS_INCOMPLETE,
        level: Level::Warn,
        category: "robustness",
        summary: "a part of a file too deep or too large for mcp-lint's budgets was not analysed",
        doc: include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/lints/analysis_incomplete.md"
        )),
    },
];

/// A lint name as users may write it: `mcp_lint::` prefix optional, `-` for `_` (as rustc
/// accepts `-D panic-in-tool`).
fn normalize(name: &str) -> String {
    name.strip_prefix("mcp_lint::")
        .or_else(|| name.strip_prefix("mcp-lint::"))
        .unwrap_or(name)
        .replace('-', "_")
}

fn find_meta(name: &str) -> Option<&'static Meta> {
    let name = normalize(name);
    META.iter().find(|m| m.name == name)
}

/// The documentation of a lint or meta diagnostic.
pub fn doc_of(name: &str) -> Option<&'static str> {
    find(name)
        .map(|l| l.doc())
        .or_else(|| find_meta(name).map(|m| m.doc))
}

/// The canonical name of a lint or meta diagnostic.
pub fn find_code(name: &str) -> Option<&'static str> {
    find(name)
        .map(|l| l.name())
        .or_else(|| find_meta(name).map(|m| m.name))
}

/// Every configurable code with its default level.
pub fn all_codes() -> impl Iterator<Item = (&'static str, Level)> {
    ALL.iter()
        .map(|l| (l.name(), l.default_level()))
        .chain(META.iter().map(|m| (m.name, m.level)))
}

/// The one-line summary and default level of a lint or meta diagnostic.
pub fn summary_of(name: &str) -> Option<(&'static str, Level)> {
    find(name)
        .map(|l| (l.summary(), l.default_level()))
        .or_else(|| find_meta(name).map(|m| (m.summary, m.level)))
}

/// "unknown lint `X`", with the closest known name when there is one.
pub fn unknown_lint_message(name: &str) -> String {
    let names = all_codes().map(|(n, _)| n).chain(["warnings"]);
    format!(
        "unknown lint `{name}`{} (run `mcp-lint lints` to list them)",
        crate::suggest::did_you_mean(&normalize(name), names)
    )
}

/// The lint registry as the configuration sees it: names and default levels.
pub struct Registry;

/// The codes configuration and command-line flags may name.
pub static CODES: Registry = Registry;

impl crate::config::Codes for Registry {
    fn find(&self, name: &str) -> Option<&'static str> {
        find_code(name)
    }

    fn defaults(&self) -> Vec<(&'static str, Level)> {
        all_codes().collect()
    }

    fn unknown(&self, name: &str) -> String {
        unknown_lint_message(name)
    }
}

pub fn find(name: &str) -> Option<&'static dyn Lint> {
    let name = normalize(name);
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
