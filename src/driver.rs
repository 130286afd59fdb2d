//! One run of the command line: arguments, workspace, lint, fixes, report, exit code.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{self, Cli, Color, Command, MessageFormat};
use crate::diagnostic::{Finding, Level};
use crate::workspace::{self, Workspace};
use crate::{INTERNAL_ERROR, Outcome, exit, fix, lint_workspace, lints, render};

/// Runs `mcp-lint [PATH]...`; returns the exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    guarded(|| run_in(args, false))
}

/// Runs `cargo mcp-lint` (argv without the `mcp-lint` word cargo inserts).
pub fn run_cargo(args: Vec<OsString>) -> i32 {
    guarded(|| run_in(args, true))
}

/// A panic that escaped every finer isolation still ends as a diagnostic and exit 2, never
/// as an abort with exit 101. With `MCP_LINT_TIMINGS`, the peak memory is printed last.
fn guarded(run: impl FnOnce() -> i32) -> i32 {
    let code = crate::isolate(run).unwrap_or_else(|panic| {
        eprintln!(
            "error[mcp_lint::{INTERNAL_ERROR}]: mcp-lint failed ({}); please report it",
            render::escape::text(&panic)
        );
        exit::ERROR
    });
    if std::env::var_os("MCP_LINT_TIMINGS").is_some()
        && let Some(peak) = crate::pipeline::peak_memory_kib()
    {
        eprintln!("timing: peak RSS {peak} KiB");
        if let Some((anon, file)) = crate::pipeline::resident_kib() {
            eprintln!("timing: resident at exit {anon} KiB allocated, {file} KiB mapped files");
        }
    }
    code
}

fn run_in(args: Vec<OsString>, cargo: bool) -> i32 {
    let (cli, matches) = match cli::parse(args, cargo) {
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
    if let Some(lint) = &cli.explain {
        return explain(lint);
    }
    match &cli.command {
        Some(Command::Explain { lint }) => return explain(lint),
        Some(Command::Lints) => {
            print!("{}", lint_table());
            return exit::CLEAN;
        }
        Some(Command::Contract(args)) => return crate::contract::command::run(args, cargo),
        None => {}
    }
    match lint_and_fix(&cli, &matches, cargo) {
        Ok(outcome) => report(&cli, &outcome),
        Err(code) => code,
    }
}

/// Lints, warns about what was not read, and applies or diffs fixes. `Err` is the exit code
/// of a run that ends here (an error, or `--diff`).
fn lint_and_fix(cli: &Cli, matches: &clap::ArgMatches, cargo: bool) -> Result<Outcome, i32> {
    let fail = |e: String| {
        eprintln!("error: {}", render::escape::text(&e));
        exit::ERROR
    };
    let flags = cli::level_flags(cli, matches).map_err(fail)?;
    let cargo_mode = cargo || cli.cargo.selects_packages();
    if !cargo_mode {
        cli::check_paths(&paths(cli)).map_err(fail)?;
    }
    let warnings_level = if cli.deny.iter().any(|d| d == "warnings") {
        Level::Deny
    } else {
        Level::Warn
    };
    let lint = |overlay: HashMap<PathBuf, String>| {
        let mut workspace = load_workspace(cli, cargo_mode).map_err(|e| fail(e.to_string()))?;
        workspace.overlay = overlay;
        lint_workspace(workspace, &flags, warnings_level, cli.jobs).map_err(fail)
    };
    let workspace = load_workspace(cli, cargo_mode).map_err(|e| fail(e.to_string()))?;
    let empty = trees_without_rust_files(cli, cargo_mode, &workspace);
    let outcome = lint_workspace(workspace, &flags, warnings_level, cli.jobs).map_err(fail)?;
    if !cli.quiet {
        for warning in outcome.warnings.iter().chain(&empty) {
            eprintln!("warning: {}", render::escape::text(warning));
        }
    }
    if !(cli.fix || cli.diff) {
        return Ok(outcome);
    }
    let (fixed, last) = fix_in_passes(cli, outcome, &lint)?;
    if cli.diff {
        return Err(show_diff(cli, &fixed));
    }
    write_fixes(cli, &fixed);
    if fixed.is_empty() {
        Ok(last)
    } else {
        lint(HashMap::new())
    }
}

/// Fix passes before giving up: a fix can bring out another finding with a fix of its own
/// (an error moved into a tool result that leaks `{e:?}`), and ruff too re-lints and fixes
/// again until nothing is left.
const FIX_PASSES: usize = 10;

/// A file the fixes change: its text when first read, and after every pass so far.
struct Fixed {
    display: String,
    /// The package root the file must lie under.
    root: Option<PathBuf>,
    original: String,
    text: String,
    applied: usize,
}

/// Applies fixes in memory, re-linting between passes, until no fix changes anything; returns
/// the fixed files and the last pass's outcome.
fn fix_in_passes(
    cli: &Cli,
    mut outcome: Outcome,
    lint: &dyn Fn(HashMap<PathBuf, String>) -> Result<Outcome, i32>,
) -> Result<(BTreeMap<PathBuf, Fixed>, Outcome), i32> {
    let mut fixed: BTreeMap<PathBuf, Fixed> = BTreeMap::new();
    let mut refused: BTreeSet<String> = BTreeSet::new();
    for pass in 0.. {
        let findings: Vec<&Finding> = outcome.findings.iter().map(|(f, _)| f).collect();
        let edits = fix::collect(&findings, cli.unsafe_fixes);
        let mut changed = false;
        for plan in fix::plan(&outcome.sources, &edits) {
            let source = outcome.sources.get(plan.file);
            if let Some(reason) = plan.refused {
                refused.insert(format!("{}: {reason}", source.display));
                continue;
            }
            let entry = fixed.entry(source.path.clone()).or_insert_with(|| Fixed {
                display: source.display.clone(),
                root: source.fix_root.clone(),
                original: source.text().to_string(),
                text: source.text().to_string(),
                applied: 0,
            });
            // A manifest is read from disk again: its fix must not count twice.
            if entry.text != plan.fixed {
                entry.text = plan.fixed;
                entry.applied += plan.applied;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        if pass + 1 == FIX_PASSES {
            refused.insert(format!(
                "the fixes did not settle after {FIX_PASSES} passes; run --fix again"
            ));
            break;
        }
        let overlay = fixed
            .iter()
            .filter(|(path, _)| path.extension().is_some_and(|e| e == "rs"))
            .map(|(path, f)| (path.clone(), f.text.clone()))
            .collect();
        outcome = lint(overlay)?;
    }
    if !cli.quiet {
        for reason in &refused {
            eprintln!("warning: {}", render::escape::text(&reason.to_string()));
        }
    }
    Ok((fixed, outcome))
}

/// "N fixes in M files" for the files given.
fn counts<'a>(files: impl Iterator<Item = &'a Fixed>) -> String {
    let (applied, files) = files.fold((0, 0), |(a, n), f| (a + f.applied, n + 1));
    format!("{} in {}", plural(applied, "fix"), plural(files, "file"))
}

/// `--diff` (with or without `--fix`): what `--fix` would write; exit 1 when it would
/// change something.
fn show_diff(cli: &Cli, fixed: &BTreeMap<PathBuf, Fixed>) -> i32 {
    let mut stdout = std::io::stdout().lock();
    for f in fixed.values() {
        let diff = fix::unified_diff(&f.display, &f.original, &f.text);
        if stdout.write_all(diff.as_bytes()).is_err() {
            return exit::ERROR;
        }
    }
    if !cli.quiet {
        eprintln!("mcp-lint: {} would be applied", counts(fixed.values()));
    }
    if fixed.is_empty() {
        exit::CLEAN
    } else {
        exit::DENIED
    }
}

/// Writes the fixed files; a file changed meanwhile is left alone.
fn write_fixes(cli: &Cli, fixed: &BTreeMap<PathBuf, Fixed>) {
    let mut written = Vec::new();
    for (path, f) in fixed {
        match fix::write_in_place(path, f.root.as_deref(), &f.original, &f.text) {
            Ok(()) => written.push(f),
            Err(reason) if !cli.quiet => eprintln!(
                "warning: {}: {}",
                render::escape::text(&f.display),
                render::escape::text(&reason.to_string())
            ),
            Err(_) => {}
        }
    }
    if !cli.quiet {
        eprintln!("mcp-lint: applied {}", counts(written.into_iter()));
    }
}

fn paths(cli: &Cli) -> Vec<PathBuf> {
    if cli.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        cli.paths.clone()
    }
}

/// "no Rust files under PATH" for each directory given that holds none.
fn trees_without_rust_files(cli: &Cli, cargo_mode: bool, workspace: &Workspace) -> Vec<String> {
    let files: Vec<&PathBuf> = workspace.packages.iter().flat_map(|p| &p.files).collect();
    if cargo_mode {
        return if files.is_empty() {
            vec!["no Rust files in the selected packages".to_string()]
        } else {
            Vec::new()
        };
    }
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    paths(cli)
        .iter()
        .filter(|dir| dir.is_dir())
        .filter(|dir| {
            let resolved = canonical(dir);
            !files
                .iter()
                .any(|f| f.starts_with(dir) || canonical(f).starts_with(&resolved))
        })
        .map(|dir| format!("no Rust files under {}", dir.display()))
        .collect()
}

fn load_workspace(cli: &Cli, cargo_mode: bool) -> Result<Workspace, workspace::WorkspaceError> {
    cli::load_selected(&cli.cargo, &paths(cli), cargo_mode)
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
    if !machine && !cli.quiet {
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
    let (summary, default_level) = lints::summary_of(name).map_or_else(
        || {
            (
                format!("{name}: the file could not be analysed"),
                Level::Warn,
            )
        },
        |(summary, level)| (summary.to_string(), level),
    );
    render::sarif::Rule {
        code: code.to_string(),
        summary,
        doc: lints::doc_of(name).unwrap_or_default().to_string(),
        default_level,
    }
}

/// The summary line: findings and the files that have them, what was read, and how many
/// findings `--fix` (and `--unsafe-fixes`) would fix.
pub fn summary(outcome: &Outcome, denied: usize, warned: usize) -> String {
    let result = if denied + warned == 0 {
        "no findings".to_string()
    } else {
        let files: BTreeSet<usize> = outcome.findings.iter().map(|(f, _)| f.span.file).collect();
        format!(
            "{}, {} in {}",
            plural(denied, "error"),
            plural(warned, "warning"),
            plural(files.len(), "file")
        )
    };
    let closures = match outcome.closure_handlers {
        0 => String::new(),
        1 => " (1 registered as a closure)".to_string(),
        n => format!(" ({n} registered as closures)"),
    };
    let notes: String = outcome.notes.iter().map(|n| format!("; {n}")).collect();
    let mut line = format!(
        "mcp-lint: {result} ({} read, {} checked{closures}{notes})",
        plural(outcome.rust_files, "Rust file"),
        plural(outcome.handlers, "tool handler")
    );
    let (safe, unsafe_only) =
        outcome
            .findings
            .iter()
            .fold((0, 0), |(s, u), (f, _)| match fix::fixability(f) {
                Some(fix::Fixability::Safe) => (s + 1, u),
                Some(fix::Fixability::Unsafe) => (s, u + 1),
                None => (s, u),
            });
    if safe + unsafe_only > 0 {
        line.push_str(&format!("; {safe} fixable with --fix"));
        if unsafe_only > 0 {
            line.push_str(&format!(" ({unsafe_only} more with --unsafe-fixes)"));
        }
    }
    line
}

fn explain(name: &str) -> i32 {
    match lints::doc_of(name) {
        Some(doc) => {
            print!("{doc}");
            exit::CLEAN
        }
        None => {
            eprintln!("error: {}", lints::unknown_lint_message(name));
            exit::ERROR
        }
    }
}

/// `mcp-lint lints`: name, default level, category, summary.
pub fn lint_table() -> String {
    let row = |name: &str, level: Level, category: &str, summary: &str| {
        format!(
            "{name:<30} {:<5} {category:<12} {summary}\n",
            level.as_str()
        )
    };
    let lints = lints::ALL
        .iter()
        .map(|l| row(l.name(), l.default_level(), l.category(), l.summary()));
    let meta = lints::META
        .iter()
        .map(|m| row(m.name, m.level, m.category, m.summary));
    lints.chain(meta).collect()
}
