//! mcp-lint: a static linter for Rust MCP servers.
//!
//! The pipeline: arguments → workspace (packages, SDK versions) → sources (read, parse) →
//! model (per file, in parallel) → facts (per crate) → lints → sorted findings → render.

pub mod budget;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod facts;
pub mod fix;
pub mod lints;
pub mod model;
pub mod nesting;
pub mod per_file;
pub mod read;
pub mod render;
pub mod sdk;
pub mod source;
pub mod spawn;
pub mod suppress;
pub mod workspace;

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use rayon::prelude::*;

use cli::{Cli, Color, Command, MessageFormat};
use diagnostic::{Finding, Level, Span};
use facts::Facts;
use model::{FileContext, FileModel};
use source::{SourceFile, SourceMap};
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
    lint_workspace(workspace, &config::LevelFlags::new(), Level::Warn, Some(1)).ok()
}

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
    let code = isolate(run).unwrap_or_else(|panic| {
        eprintln!(
            "error[mcp_lint::{INTERNAL_ERROR}]: mcp-lint failed ({}); please report it",
            render::escape::text(&panic)
        );
        exit::ERROR
    });
    if std::env::var_os("MCP_LINT_TIMINGS").is_some()
        && let Some(peak) = peak_memory_kib()
    {
        eprintln!("timing: peak RSS {peak} KiB");
    }
    code
}

/// This process's peak resident memory (`VmHWM`: the high-water mark of its own address
/// space, which unlike `ru_maxrss` does not count the parent's memory before `exec`).
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
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
            eprintln!("error: {}", render::escape::text(&e));
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
            eprintln!("error: {}", render::escape::text(&e));
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
                eprintln!(
                    "warning: {}: {reason}",
                    render::escape::one_line(&r.display)
                );
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
                    eprintln!("error: {}", render::escape::text(&e));
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
        let category = if *name == per_file::ANALYSIS_INCOMPLETE {
            "robustness"
        } else {
            "suppression"
        };
        out.push_str(&format!(
            "{:<30} {:<5} {:<12} {}\n",
            name,
            level.as_str(),
            category,
            summary
        ));
    }
    out
}

/// One file to analyse, with its package.
struct Job {
    package: usize,
    file: diagnostic::FileId,
    module: Vec<String>,
}

/// Lints every package of the workspace.
pub fn lint_workspace(
    mut workspace: Workspace,
    flags: &config::LevelFlags,
    warnings_level: Level,
    jobs: Option<usize>,
) -> Result<Outcome, String> {
    let timings = std::env::var_os("MCP_LINT_TIMINGS").is_some();
    let started = std::time::Instant::now();
    let mark = |phase: &str| {
        if timings {
            eprintln!(
                "timing: {phase:<10} {:>8.3} s",
                started.elapsed().as_secs_f64()
            );
        }
    };
    // Configuration per package; excluded files leave the run here.
    let mut configs = Vec::new();
    for package in &mut workspace.packages {
        let workspace_manifest = (package.profile_manifest != package.manifest_path)
            .then_some(&package.profile_manifest);
        let config = if package.id.is_empty() {
            config::Config::default()
        } else {
            config::Config::load(
                &package.manifest_path,
                workspace_manifest.map(PathBuf::as_path),
            )?
        };
        config.validate_globs(&package.manifest_path)?;
        if !config.exclude.is_empty() {
            let root = canonical(package.root());
            package.files.retain(|f| {
                let f = canonical(f);
                !config.excludes(f.strip_prefix(&root).unwrap_or(&f))
            });
        }
        configs.push(config);
    }
    let package_levels: Vec<BTreeMap<&'static str, Level>> = configs
        .iter()
        .map(|c| config::resolve_levels(c, flags))
        .collect();
    let enabled: Vec<&dyn lints::Lint> = lints::ALL
        .iter()
        .copied()
        .filter(|l| {
            package_levels
                .iter()
                .any(|levels| levels.get(l.name()).is_some_and(|lv| *lv > Level::Allow))
        })
        .collect();
    let mut sources = SourceMap::default();
    let mut findings: Vec<(Finding, Option<usize>)> = Vec::new();
    for (path, message) in &workspace.skipped {
        // A skipped file is never read: it may be a link to a secret, a FIFO or a device.
        let id = sources.add(SourceFile::new(
            path.clone(),
            display_path(&workspace.root, path),
            String::new(),
        ));
        let mut f = Finding::new(
            IO_ERROR,
            Span {
                file: id,
                start: 0,
                end: 0,
            },
            format!("skipped: {message}"),
        );
        f.level = warnings_level.max(Level::Warn);
        findings.push((f, None));
    }
    let mut jobs_list = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .stack_size(64 * 1024 * 1024)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;

    // Read every file in parallel: text, path shown to users, module path.
    let root = canonical(&workspace.root);
    let package_roots: Vec<PathBuf> = workspace
        .packages
        .iter()
        .map(|p| canonical(p.root()))
        .collect();
    let to_read: Vec<(usize, &PathBuf)> = workspace
        .packages
        .iter()
        .enumerate()
        .flat_map(|(pi, p)| p.files.iter().map(move |f| (pi, f)))
        .collect();
    // Directories are resolved once each: files share them, and resolving costs syscalls.
    let mut dirs: Vec<&std::path::Path> = to_read.iter().filter_map(|(_, f)| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    let resolved: HashMap<&std::path::Path, PathBuf> = pool.install(|| {
        dirs.par_iter()
            .map(|d| {
                let dir = if d.as_os_str().is_empty() {
                    std::path::Path::new(".")
                } else {
                    d
                };
                (*d, canonical(dir))
            })
            .collect()
    });
    let absolute_of = |path: &std::path::Path| match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => resolved
            .get(dir)
            .map_or_else(|| canonical(path), |d| d.join(name)),
        _ => canonical(path),
    };
    let read: Vec<(String, Vec<String>, Result<String, String>)> = pool.install(|| {
        to_read
            .par_iter()
            .map(|&(pi, path)| {
                let package = &workspace.packages[pi];
                let absolute = absolute_of(path);
                let relative = absolute
                    .strip_prefix(&package_roots[pi])
                    .unwrap_or(&absolute);
                let mut module = vec![package.name.replace('-', "_")];
                module.extend(model::module_of(relative));
                let source = match workspace.overlay.get(path) {
                    Some(text) => Ok(text.clone()),
                    None => read_source(path),
                };
                let display = absolute
                    .strip_prefix(&root)
                    .unwrap_or(&absolute)
                    .to_string_lossy()
                    .replace('\\', "/");
                (display, module, source)
            })
            .collect()
    });
    for ((pi, path), (display, module, source)) in to_read.iter().zip(read) {
        match source {
            Ok(text) => {
                let file = SourceFile::new((*path).clone(), display, text)
                    .with_fix_root(package_roots[*pi].clone());
                let id = sources.add(file);
                jobs_list.push(Job {
                    package: *pi,
                    file: id,
                    module,
                });
            }
            Err(message) => {
                let id = sources.add(SourceFile::new((*path).clone(), display, String::new()));
                let span = Span {
                    file: id,
                    start: 0,
                    end: 0,
                };
                let mut f = Finding::new(IO_ERROR, span, message);
                f.level = warnings_level.max(Level::Warn);
                findings.push((f, Some(*pi)));
            }
        }
    }

    let mut hints = vec![sdk::SourceHints::default(); workspace.packages.len()];
    for job in &jobs_list {
        let text = &sources.get(job.file).text;
        let h = &mut hints[job.package];
        h.serves_tools_call |= text.contains("\"tools/call\"");
        h.catches_panics |= text.contains(".catch_panics(");
    }
    mark("read");
    let sdks: Vec<Option<Box<dyn sdk::Sdk>>> = workspace
        .packages
        .iter()
        .zip(&hints)
        .map(|(p, h)| sdk::detect(p, *h))
        .collect();
    let renames: Vec<HashMap<String, String>> =
        workspace.packages.iter().map(crate_renames).collect();

    let analyse = |job: &Job| -> per_file::Analysed {
        let cx = FileContext {
            file: job.file,
            module: job.module.clone(),
            sdk: sdks[job.package].as_deref(),
            lints: &enabled,
            crate_renames: &renames[job.package],
            config: &configs[job.package],
        };
        per_file::analyse(&cx, sources.get(job.file))
    };

    let results: Vec<per_file::Analysed> =
        pool.install(|| jobs_list.par_iter().map(analyse).collect());

    mark("analysis");
    let mut per_package: Vec<Vec<FileModel>> =
        (0..workspace.packages.len()).map(|_| Vec::new()).collect();
    for (job, analysed) in jobs_list.iter().zip(results) {
        let incomplete_level = package_levels[job.package]
            .get(per_file::ANALYSIS_INCOMPLETE)
            .copied()
            .unwrap_or(Level::Warn);
        for mut f in analysed.incomplete {
            f.level = incomplete_level;
            if incomplete_level > Level::Allow {
                findings.push((f, Some(job.package)));
            }
        }
        match analysed.model {
            Ok(model) => per_package[job.package].push(model),
            Err(f) => {
                let mut f = *f;
                f.level = warnings_level.max(Level::Warn);
                findings.push((f, Some(job.package)));
            }
        }
    }

    let rust_files = sources.files.len();
    let abort_settings = abort_settings(&workspace, &mut sources);
    let mut handlers = 0;
    for (pi, files) in per_package.iter().enumerate() {
        let crate_phase = isolate(|| {
            let mut found: Vec<(Finding, Option<usize>)> = Vec::new();
            let mut handlers = 0;
            let package: &Package = &workspace.packages[pi];
            // Helpers in other members of the same workspace are followed like the package's own.
            let mut linked: Vec<&FileModel> = files.iter().collect();
            // (A member that is an MCP SDK or server of another kind keeps its own verdicts.)
            let sdk_name = sdks[pi].as_ref().map(|s| s.name());
            for (di, dep) in workspace.packages.iter().enumerate() {
                let dep_sdk = sdks[di].as_ref().map(|s| s.name());
                if di != pi
                    && dep.profile_manifest == package.profile_manifest
                    && package.dependency(&dep.name).is_some()
                    && (dep_sdk.is_none() || dep_sdk == sdk_name)
                {
                    linked.extend(per_package[di].iter());
                }
            }
            let facts = Facts::build(
                &sources,
                &abort_settings[pi],
                package,
                sdks[pi].as_deref(),
                &linked,
                files.len(),
            );
            // The package's own files come first in `linked`.
            handlers += (0..facts.graph.fns.len())
                .filter(|&id| facts.graph.fns[id].file < files.len() && facts.role(id).is_handler())
                .count();
            for lint in &enabled {
                let level = package_levels[pi]
                    .get(lint.name())
                    .copied()
                    .unwrap_or(Level::Warn);
                if level == Level::Allow {
                    continue;
                }
                for file in &linked {
                    for cand in file.candidates.iter().filter(|c| c.lint == lint.name()) {
                        if let Some(mut f) = lint.finish(cand, &facts) {
                            f.level = level;
                            found.push((f, Some(pi)));
                        }
                    }
                }
                for mut f in lint.finish_crate(&facts) {
                    f.level = level;
                    found.push((f, Some(pi)));
                }
            }
            // Places where the crate-wide stage ran out of a budget (type alias expansion).
            let incomplete = package_levels[pi]
                .get(per_file::ANALYSIS_INCOMPLETE)
                .copied()
                .unwrap_or(Level::Warn);
            for (place, reason) in budget::take() {
                let mut f = per_file::stopped_at(place, &reason);
                f.level = incomplete;
                if incomplete > Level::Allow {
                    found.push((f, Some(pi)));
                }
            }
            (found, handlers)
        });
        match crate_phase {
            Ok((found, n)) => {
                findings.extend(found);
                handlers += n;
            }
            Err(panic) => {
                let file = files.first().map_or(0, |f| f.file);
                let mut f = internal_error(file, &panic);
                f.level = warnings_level.max(Level::Warn);
                findings.push((f, Some(pi)));
            }
        }
    }

    mark("lints");
    // Suppression comments, in every file that has findings or directives.
    let mut directives = HashMap::new();
    for files in &per_package {
        for model in files {
            let file = sources.get(model.file);
            if file.text.contains("mcp-lint:") {
                directives.insert(
                    model.file,
                    suppress::directives(file, model.file, &model.items),
                );
            }
        }
    }
    let mut manifests_seen = std::collections::HashSet::new();
    for (f, _) in &findings {
        let file = sources.get(f.span.file);
        if file.path.extension().is_some_and(|e| e == "toml")
            && manifests_seen.insert(f.span.file)
            && file.text.contains("mcp-lint:")
        {
            directives.insert(f.span.file, suppress::directives(file, f.span.file, &[]));
        }
    }
    let package_of: HashMap<diagnostic::FileId, usize> = jobs_list
        .iter()
        .map(|j| (j.file, j.package))
        .chain(
            findings
                .iter()
                .filter_map(|(f, p)| p.map(|p| (f.span.file, p))),
        )
        .collect();
    suppress::apply(
        &mut findings,
        &directives,
        &|file| {
            package_of
                .get(&file)
                .map(|&p| (p, package_levels[p].clone()))
        },
        &|span| sources.get(span.file).line_col(span.start).0,
    );

    findings.sort_by(|(a, _), (b, _)| {
        let pa = &sources.get(a.span.file).display;
        let pb = &sources.get(b.span.file).display;
        (pa, a.span.start, a.span.end, a.lint).cmp(&(pb, b.span.start, b.span.end, b.lint))
    });
    findings.dedup_by(|(a, _), (b, _)| a.span == b.span && a.lint == b.lint);
    mark("sorted");
    Ok(Outcome {
        sources,
        workspace,
        findings,
        handlers,
        rust_files,
    })
}

/// Per package, the `panic = "abort"` settings of the manifest whose profiles apply; each such
/// manifest is added to the sources once, so findings can point into it.
fn abort_settings(workspace: &Workspace, sources: &mut SourceMap) -> Vec<Vec<facts::AbortSetting>> {
    let mut manifests: HashMap<PathBuf, Vec<facts::AbortSetting>> = HashMap::new();
    workspace
        .packages
        .iter()
        .map(|package| {
            let path = &package.profile_manifest;
            if let Some(settings) = manifests.get(path) {
                return settings.clone();
            }
            let text = read::regular_file(path).unwrap_or_default();
            let found = workspace::panic_abort_settings(&text);
            let settings: Vec<facts::AbortSetting> = if found.is_empty() {
                Vec::new()
            } else {
                let display = display_path(&workspace.root, path);
                let source = SourceFile::new(path.clone(), display, text)
                    .with_fix_root(canonical(&workspace.root));
                let file = sources.add(source);
                found
                    .into_iter()
                    .map(|(profile, range)| facts::AbortSetting {
                        profile,
                        span: Span {
                            file,
                            start: range.start,
                            end: range.end,
                        },
                    })
                    .collect()
            };
            manifests.insert(path.clone(), settings.clone());
            settings
        })
        .collect()
}

thread_local! {
    /// The message of the last panic caught by [`isolate`] on this thread.
    static PANIC_MESSAGE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static ISOLATING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into `Err(message)`. The panic hook stays quiet for these (the
/// message goes into an `internal_error` diagnostic instead) and speaks for any other panic.
pub(crate) fn isolate<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if ISOLATING.with(|i| i.get()) {
                let location = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let payload = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(format!("{payload}{location}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = ISOLATING.with(|i| i.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    ISOLATING.with(|i| i.set(was));
    result.map_err(|_| {
        PANIC_MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_else(|| "a panic".into())
    })
}

pub(crate) fn internal_error(file: diagnostic::FileId, panic: &str) -> Finding {
    Finding::new(
        INTERNAL_ERROR,
        Span {
            file,
            start: 0,
            end: 0,
        },
        format!(
            "mcp-lint failed while analysing this file ({panic}); the rest of the run went on. Please report it"
        ),
    )
}

/// Debug builds only: `MCP_LINT_INJECT_PANIC=name` panics while analysing files whose path
/// contains `name`, so tests can prove the isolation.
pub(crate) fn inject_panic_for_tests(display: &str) {
    #[cfg(debug_assertions)]
    if let Some(name) = std::env::var_os("MCP_LINT_INJECT_PANIC")
        && display.contains(name.to_string_lossy().as_ref())
    {
        panic!("injected for tests");
    }
    let _ = display;
}

fn read_source(path: &std::path::Path) -> Result<String, String> {
    read::regular_file(path).map_err(|e| e.to_string())
}

/// Extern names that refer to a renamed dependency (`mcp = { package = "rmcp" }`).
fn crate_renames(package: &Package) -> HashMap<String, String> {
    package
        .dependencies
        .iter()
        .filter(|d| d.extern_name != d.package.replace('-', "_"))
        .map(|d| (d.extern_name.clone(), d.package.replace('-', "_")))
        .collect()
}

fn canonical(path: &std::path::Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

fn display_path(root: &std::path::Path, path: &std::path::Path) -> String {
    let root = canonical(root);
    // The directory is resolved, not the file: a symbolic link keeps its own name.
    let abs = match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => canonical(if dir.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            dir
        })
        .join(name),
        _ => canonical(path),
    };
    let shown = abs.strip_prefix(&root).unwrap_or(&abs);
    shown.to_string_lossy().replace('\\', "/")
}
