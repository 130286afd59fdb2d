//! mcp-lint: a static linter for Rust MCP servers.
//!
//! The pipeline: arguments → workspace (packages, SDK versions) → sources (read, parse) →
//! model (per file, in parallel) → facts (per crate) → lints → sorted findings → render.

pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod driver;
pub mod facts;
pub mod fix;
pub mod lints;
pub mod model;
pub mod render;
pub mod sdk;
pub mod source;
pub mod suggest;
pub mod suppress;
pub mod syntax;
pub mod workspace;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use rayon::prelude::*;

pub use driver::{lint_table, run, run_cargo, statistics, summary};

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

/// Files larger than this are reported and skipped.
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

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
    /// Configuration that is not read (near-miss table names), for the user to see.
    pub warnings: Vec<String>,
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
    let mut warnings: Vec<String> = configs.iter().flat_map(|c| c.warnings.clone()).collect();
    warnings.sort();
    warnings.dedup();
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
        let text = std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let id = sources.add(SourceFile::new(
            path.clone(),
            display_path(&workspace.root, path),
            text,
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
                let id = sources.add(SourceFile::new((*path).clone(), display, text));
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

    let analyse = |job: &Job| -> Result<FileModel, Box<Finding>> {
        let file = sources.get(job.file);
        let cx = FileContext {
            file: job.file,
            module: job.module.clone(),
            sdk: sdks[job.package].as_deref(),
            lints: &enabled,
            crate_renames: &renames[job.package],
            config: &configs[job.package],
        };
        let depth = source::nesting_depth(&file.text);
        if depth > source::MAX_NESTING {
            return Err(Box::new(Finding::new(
                PARSE_ERROR,
                Span {
                    file: job.file,
                    start: 0,
                    end: 0,
                },
                format!(
                    "this file nests delimiters {depth} deep (the limit is {}), so it was not linted",
                    source::MAX_NESTING
                ),
            )));
        }
        let result = isolate(|| {
            inject_panic_for_tests(&file.display);
            match source::parse(&file.text) {
                Ok(ast) => Ok(model::build_file(&cx, &ast)),
                Err(e) => Err(Box::new(syntax::parse_error(
                    PARSE_ERROR,
                    job.file,
                    &file.text,
                    &e,
                ))),
            }
        });
        proc_macro2::extra::invalidate_current_thread_spans();
        match result {
            Ok(r) => r,
            Err(panic) => Err(Box::new(internal_error(job.file, &panic))),
        }
    };

    let results: Vec<Result<FileModel, Box<Finding>>> =
        pool.install(|| jobs_list.par_iter().map(analyse).collect());

    mark("analysis");
    let mut per_package: Vec<Vec<FileModel>> =
        (0..workspace.packages.len()).map(|_| Vec::new()).collect();
    for (job, result) in jobs_list.iter().zip(results) {
        match result {
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
    input_levels(&mut findings, &package_levels, flags);
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
        warnings,
    })
}

/// `parse_error` and `io_error` at the level their package configures (or the command line,
/// for files outside any package); allowed ones are dropped.
fn input_levels(
    findings: &mut Vec<(Finding, Option<usize>)>,
    package_levels: &[BTreeMap<&'static str, Level>],
    flags: &config::LevelFlags,
) {
    let unpackaged = config::resolve_levels(&config::Config::default(), flags);
    findings.retain_mut(|(f, package)| {
        if f.lint != PARSE_ERROR && f.lint != IO_ERROR {
            return true;
        }
        let levels = package
            .and_then(|p| package_levels.get(p))
            .unwrap_or(&unpackaged);
        f.level = levels.get(f.lint).copied().unwrap_or(Level::Warn);
        f.level > Level::Allow
    });
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
            let text = std::fs::read_to_string(path).unwrap_or_default();
            let found = workspace::panic_abort_settings(&text);
            let settings: Vec<facts::AbortSetting> = if found.is_empty() {
                Vec::new()
            } else {
                let display = display_path(&workspace.root, path);
                let file = sources.add(SourceFile::new(path.clone(), display, text));
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
fn isolate<T>(f: impl FnOnce() -> T) -> Result<T, String> {
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

fn internal_error(file: diagnostic::FileId, panic: &str) -> Finding {
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
fn inject_panic_for_tests(display: &str) {
    #[cfg(debug_assertions)]
    if let Some(name) = std::env::var_os("MCP_LINT_INJECT_PANIC")
        && display.contains(name.to_string_lossy().as_ref())
    {
        panic!("injected for tests");
    }
    let _ = display;
}

fn read_source(path: &std::path::Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read this file: {e}"))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "skipped: this file is {} bytes, over the {MAX_FILE_BYTES}-byte limit",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read this file: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "skipped: this file is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
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
