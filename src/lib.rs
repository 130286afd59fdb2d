//! mcp-lint: a static linter for Rust MCP servers.
//!
//! The pipeline: arguments → workspace (packages, SDK versions) → sources (read, parse) →
//! model (per-file IR, in parallel) → analysis (types, calls, flow, summaries, handlers,
//! per crate) → lints → sorted, suppressed findings → render. `pipeline` runs the stages;
//! `driver` runs the command line.

pub mod allocator;
pub mod analysis;
pub mod budget;
pub mod cli;
pub mod config;
pub mod contract;
pub mod diagnostic;
pub mod driver;
pub mod fix;
pub mod hir_def;
pub mod lints;
pub mod lockfile;
pub mod model;
pub mod nesting;
pub mod per_file;
pub mod pipeline;
pub mod read;
pub mod render;
pub mod sdk;
pub mod source;
pub mod spawn;
pub mod suggest;
pub mod suppress;
pub mod syntax;
pub mod version;
pub mod workspace;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use driver::{lint_table, run, run_cargo, statistics, summary};
pub use pipeline::lint_workspace;

use diagnostic::{Finding, Level};
use source::SourceMap;
use workspace::{Package, Workspace};

/// Exit codes, as ruff and clippy users expect.
pub mod exit {
    pub const CLEAN: i32 = 0;
    pub const DENIED: i32 = 1;
    pub const ERROR: i32 = 2;
}

/// Internal diagnostics that are not lints.
pub const PARSE_ERROR: &str = "parse_error";
pub const IO_ERROR: &str = "io_error";
pub const INTERNAL_ERROR: &str = "internal_error";

/// The result of linting: findings sorted by path and position, plus counts.
pub struct Outcome {
    pub sources: SourceMap,
    pub workspace: Workspace,
    /// (finding, index of its package in `workspace.packages`)
    pub findings: Vec<(Finding, Option<usize>)>,
    /// Tool handlers checked, and how many of them are closures given to a registration call.
    pub handlers: usize,
    pub closure_handlers: usize,
    /// Rust files read (manifests shown in findings are not counted).
    pub rust_files: usize,
    /// Configuration that is not read (near-miss table names), for the user to see.
    pub warnings: Vec<String>,
    /// What the run could not check, for the summary line (an SDK whose error channel is
    /// not known).
    pub notes: Vec<String>,
    /// Each handler's failure contract (`mcp-lint contract`; empty for a lint run).
    pub contract: Vec<contract::Tool>,
}

/// Lints one file's text as the `src/main.rs` of a binary crate that depends on rmcp 3.x,
/// in memory. The fuzzer's entry point; also handy for tests.
pub fn analyze_text(text: &str) -> Vec<Finding> {
    analyze_text_outcome(text)
        .map(|o| o.findings.into_iter().map(|(f, _)| f).collect())
        .unwrap_or_default()
}

/// As [`analyze_text`], with the sources and packages renderers need (the fuzzers' entry
/// point for rendering and fixing).
pub fn analyze_text_outcome(text: &str) -> Option<Outcome> {
    let root = PathBuf::from("/mcp-lint-in-memory");
    let file = root.join("src/main.rs");
    let package = Package {
        id: "path+file:///mcp-lint-in-memory#in-memory@0.1.0".into(),
        name: "in-memory".into(),
        version: "0.1.0".into(),
        edition: "2021".into(),
        manifest_path: root.join("Cargo.toml"),
        targets: vec![workspace::Target {
            name: "in-memory".into(),
            kind: vec!["bin".into()],
            crate_types: vec!["bin".into()],
            src_path: file.clone(),
        }],
        dependencies: vec![workspace::Dependency {
            package: "rmcp".into(),
            extern_name: "rmcp".into(),
            requirement: Some("3.11".into()),
            features: Vec::new(),
            path: None,
        }],
        locked: BTreeMap::new(),
        files: vec![file.clone()],
        profile_manifest: root.join("Cargo.toml"),
        context_only: false,
    };
    let workspace = Workspace {
        root,
        packages: vec![package],
        skipped: Vec::new(),
        overlay: [(file, text.to_string())].into_iter().collect(),
    };
    lint_workspace(workspace, &config::LevelFlags::new(), Level::Warn, Some(1)).ok()
}

pub(crate) use pipeline::{inject_panic_for_tests, internal_error, isolate};
