//! mcp-lint: a static linter for Rust MCP servers.
//!
//! The pipeline: arguments → workspace (packages, SDK versions) → sources (read, parse) →
//! model (per-file IR, in parallel) → analysis (types, calls, flow, summaries, handlers,
//! per crate) → lints → sorted, suppressed findings → render. `pipeline` runs the stages.

pub mod analysis;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod fix;
pub mod lints;
pub mod model;
pub mod pipeline;
pub mod render;
pub mod sdk;
pub mod source;
pub mod suppress;
pub mod workspace;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use cli::{Cli, Color, Command, MessageFormat};
use diagnostic::{Finding, Level};
pub use pipeline::lint_workspace;
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
    pub handlers: usize,
    /// Rust files read (manifests shown in findings are not counted).
    pub rust_files: usize,
}

/// Lints one file's text as the `src/main.rs` of a binary crate that depends on rmcp 3.x,
/// in memory. The fuzzer's entry point; also handy for tests.
pub fn analyze_text(text: &str) -> Vec<Finding> {
    let root = PathBuf::from("/mcp-lint-in-memory");
    let file = root.join("src/main.rs");
    let package = Package {
        id: "path+file:///mcp-lint-in-memory#in-memory@0.1.0".into(),
        name: "in-memory".into(),
        version: "0.1.0".into(),
        manifest_path: root.join("Cargo.toml"),
        targets: vec![workspace::Target {
            name: "in-memory".into(),
            kind: vec!["bin".into()],
            src_path: file.clone(),
        }],
        dependencies: vec![workspace::Dependency {
            package: "rmcp".into(),
            extern_name: "rmcp".into(),
            requirement: Some("3.11".into()),
            features: Vec::new(),
        }],
        locked: BTreeMap::new(),
        files: vec![file.clone()],
        profile_manifest: root.join("Cargo.toml"),
    };
    let workspace = Workspace {
        root,
        packages: vec![package],
        skipped: Vec::new(),
        overlay: [(file, text.to_string())].into_iter().collect(),
    };
    lint_workspace(workspace, &config::LevelFlags::new(), Level::Warn, Some(1))
        .map(|o| o.findings.into_iter().map(|(f, _)| f).collect())
        .unwrap_or_default()
}

/// Runs `mcp-lint [PATH]...`; returns the exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    run_in(args, false)
}

/// Runs `cargo mcp-lint` (argv without the `mcp-lint` word cargo inserts).
pub fn run_cargo(args: Vec<OsString>) -> i32 {
    run_in(args, true)
}

fn run_in(args: Vec<OsString>, cargo: bool) -> i32 {
    let (cli, matches) = match cli::parse(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::ERROR
            } else {
                exit::CLEAN
            };
            let _ = e.print();
            return code;
        }
    };
    match &cli.command {
        Some(Command::Explain { lint }) => return explain(lint),
        Some(Command::Lints) => {
            print!("{}", lint_table());
            return exit::CLEAN;
        }
        None => {}
    }
    let flags = match cli::level_flags(&cli, &matches) {
        Ok(flags) => flags,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    let cargo_mode = cargo || cli.cargo.selects_packages();
    let warnings_level = if cli.deny.iter().any(|d| d == "warnings") {
        Level::Deny
    } else {
        Level::Warn
    };
    let lint = || -> Result<Outcome, String> {
        let workspace = load_workspace(&cli, cargo_mode).map_err(|e| e.to_string())?;
        lint_workspace(workspace, &flags, warnings_level, cli.jobs)
    };
    let mut outcome = match lint() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::ERROR;
        }
    };
    if cli.fix || cli.diff {
        let findings: Vec<&Finding> = outcome.findings.iter().map(|(f, _)| f).collect();
        let edits = fix::collect(&findings, cli.unsafe_fixes);
        let results = fix::run(&outcome.sources, &edits, cli.diff);
        let applied: usize = results
            .iter()
            .filter(|r| r.refused.is_none())
            .map(|r| r.applied)
            .sum();
        let files = results.iter().filter(|r| r.refused.is_none()).count();
        for r in &results {
            if let Some(reason) = &r.refused {
                eprintln!("warning: {}: {reason}", r.display);
            }
        }
        if cli.diff {
            for r in results.iter().filter(|r| r.refused.is_none()) {
                print!("{}", r.diff);
            }
            eprintln!(
                "mcp-lint: {} in {} would be applied",
                plural(applied, "fix"),
                plural(files, "file")
            );
            return if applied > 0 {
                exit::DENIED
            } else {
                exit::CLEAN
            };
        }
        eprintln!(
            "mcp-lint: applied {} in {}",
            plural(applied, "fix"),
            plural(files, "file")
        );
        if applied > 0 {
            outcome = match lint() {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return exit::ERROR;
                }
            };
        }
    }
    report(&cli, &outcome)
}

fn load_workspace(cli: &Cli, cargo_mode: bool) -> Result<Workspace, workspace::WorkspaceError> {
    if cargo_mode {
        workspace::from_cargo(&workspace::Selection {
            manifest_path: cli.cargo.manifest_path.clone(),
            packages: cli.cargo.package.clone(),
            workspace: cli.cargo.workspace,
            exclude: cli.cargo.exclude.clone(),
        })
    } else {
        let paths = if cli.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            cli.paths.clone()
        };
        workspace::from_paths(&paths)
    }
}

fn report(cli: &Cli, outcome: &Outcome) -> i32 {
    let placed: Vec<render::Placed<'_>> = outcome
        .findings
        .iter()
        .map(|(f, pkg)| render::Placed {
            finding: f,
            package: pkg.map(|i| &outcome.workspace.packages[i]),
        })
        .collect();
    let denied = outcome
        .findings
        .iter()
        .filter(|(f, _)| f.level == Level::Deny)
        .count();
    let warned = outcome.findings.len() - denied;
    let internal = outcome
        .findings
        .iter()
        .any(|(f, _)| f.lint == INTERNAL_ERROR);
    let format = cli.message_format.unwrap_or_else(|| {
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            MessageFormat::Github
        } else {
            MessageFormat::Human
        }
    });
    let machine = matches!(
        format,
        MessageFormat::Json | MessageFormat::JsonRenderedAnsi | MessageFormat::Sarif
    );
    let text = match format {
        MessageFormat::Human => {
            let color = match cli.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            let findings: Vec<&Finding> = placed.iter().map(|p| p.finding).collect();
            render::human::render(&outcome.sources, &findings, color)
        }
        MessageFormat::Short => render::short::render(&outcome.sources, &placed),
        MessageFormat::Json | MessageFormat::JsonRenderedAnsi => {
            render::json::render(&outcome.sources, &placed, denied == 0)
        }
        MessageFormat::Sarif => render::sarif::render(&outcome.sources, &placed, &rule_of),
        MessageFormat::Github => render::github::render(&outcome.sources, &placed),
    };
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).is_err() || stdout.flush().is_err() {
        return exit::ERROR;
    }
    if !machine {
        eprintln!("{}", summary(outcome, denied, warned));
    }
    if cli.statistics {
        eprint!("{}", statistics(outcome));
    }
    if internal && cli.strict {
        exit::ERROR
    } else if denied > 0 && !cli.exit_zero {
        exit::DENIED
    } else {
        exit::CLEAN
    }
}

fn plural(n: usize, word: &str) -> String {
    match (n, word.ends_with('x')) {
        (1, _) => format!("{n} {word}"),
        (_, true) => format!("{n} {word}es"),
        _ => format!("{n} {word}s"),
    }
}

/// `--statistics`: findings per code, most frequent first.
pub fn statistics(outcome: &Outcome) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (f, _) in &outcome.findings {
        *counts.entry(f.code()).or_default() += 1;
    }
    let mut rows: Vec<(String, usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows.iter()
        .map(|(code, n)| format!("{n:>6}  {code}\n"))
        .collect()
}

/// What renderers may say about a code, from the lint registry.
fn rule_of(code: &str) -> render::sarif::Rule {
    let name = code.trim_start_matches("mcp_lint::");
    let (summary, default_level) = match lints::find(name) {
        Some(lint) => (lint.summary().to_string(), lint.default_level()),
        None => match lints::META.iter().find(|(n, ..)| *n == name) {
            Some((_, level, summary, _)) => (summary.to_string(), *level),
            None => (
                format!("{name}: the file could not be analysed"),
                Level::Warn,
            ),
        },
    };
    render::sarif::Rule {
        code: code.to_string(),
        summary,
        doc: lints::doc_of(name).unwrap_or_default().to_string(),
        default_level,
    }
}

pub fn summary(outcome: &Outcome, denied: usize, warned: usize) -> String {
    let files = outcome.rust_files;
    let result = if denied + warned == 0 {
        "no findings".to_string()
    } else {
        format!("{}, {}", plural(denied, "error"), plural(warned, "warning"))
    };
    format!(
        "mcp-lint: {result} in {} ({} checked)",
        plural(files, "file"),
        plural(outcome.handlers, "handler")
    )
}

fn explain(name: &str) -> i32 {
    match lints::doc_of(name) {
        Some(doc) => {
            print!("{doc}");
            exit::CLEAN
        }
        None => {
            eprintln!("error: unknown lint `{name}` (run `mcp-lint lints` to list them)");
            exit::ERROR
        }
    }
}

/// `mcp-lint lints`: name, default level, category, summary.
pub fn lint_table() -> String {
    let mut out = String::new();
    for lint in lints::ALL {
        out.push_str(&format!(
            "{:<30} {:<5} {:<12} {}\n",
            lint.name(),
            lint.default_level().as_str(),
            lint.category(),
            lint.summary()
        ));
    }
    for (name, level, summary, _) in lints::META {
        out.push_str(&format!(
            "{:<30} {:<5} {:<12} {}\n",
            name,
            level.as_str(),
            "suppression",
            summary
        ));
    }
    out
}
