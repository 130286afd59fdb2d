//! The run, stage by stage: configuration per package, reading the files, parsing and
//! lowering them in parallel, the crate analysis and the lints per package, then
//! suppression and sorting. Each stage is a function of plain data.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::analysis::handlers::Handlers;
use crate::analysis::stdio::Stdio;
use crate::config::{self, Config};
use crate::diagnostic::{FileId, Finding, Level, Span};
use crate::lints::cx::AbortSetting;
use crate::model::ir::FileIr;
use crate::source::{SourceFile, SourceMap};
use crate::workspace::{self, Package, Workspace};
use crate::{INTERNAL_ERROR, IO_ERROR, Outcome, PARSE_ERROR, lints, model, per_file, read, sdk};

use crate::per_file::ANALYSIS_INCOMPLETE;

type Levels = BTreeMap<&'static str, Level>;
type Found = Vec<(Finding, Option<usize>)>;

/// One file to analyse, with its package.
struct Job {
    package: usize,
    file: FileId,
    module: Vec<String>,
}

/// Lints every package of the workspace.
pub fn lint_workspace(
    workspace: Workspace,
    flags: &config::LevelFlags,
    warnings_level: Level,
    jobs: Option<usize>,
) -> Result<Outcome, String> {
    run(workspace, flags, warnings_level, jobs, false)
}

/// Lints every package of the workspace and builds each handler's failure contract from the
/// same analysis (`Outcome::contract`).
pub fn contract_workspace(
    workspace: Workspace,
    flags: &config::LevelFlags,
    warnings_level: Level,
    jobs: Option<usize>,
) -> Result<Outcome, String> {
    run(workspace, flags, warnings_level, jobs, true)
}

fn run(
    mut workspace: Workspace,
    flags: &config::LevelFlags,
    warnings_level: Level,
    jobs: Option<usize>,
    contract: bool,
) -> Result<Outcome, String> {
    let timings = Timings::new();
    let configs = configure(&mut workspace)?;
    let mut warnings: Vec<String> = configs.iter().flat_map(|c| c.warnings.clone()).collect();
    warnings.sort();
    warnings.dedup();
    let levels: Vec<Levels> = configs
        .iter()
        .map(|c| config::resolve_levels(c, flags))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .stack_size(64 * 1024 * 1024)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let mut sources = SourceMap::default();
    let mut findings = skipped_files(&workspace, &mut sources, warnings_level);
    let jobs_list = read_files(
        &workspace,
        &pool,
        &mut sources,
        &mut findings,
        warnings_level,
    );
    timings.mark("read");
    let sdks = detect_sdks(&workspace, &sources, &jobs_list);
    let links = link_members(&workspace, &sdks);
    let needed: Vec<bool> = (0..workspace.packages.len())
        .map(|p| links.iter().any(|l| l.contains(&p)))
        .collect();
    let irs = lower_files(&workspace, &pool, &sources, &jobs_list, &needed);
    timings.mark("analysis");
    let mut per_package: Vec<Vec<FileIr>> =
        (0..workspace.packages.len()).map(|_| Vec::new()).collect();
    for (job, lowered) in jobs_list.iter().zip(irs) {
        if let Some(level) = incomplete_level(&levels[job.package], warnings_level) {
            findings.extend(lowered.incomplete.into_iter().map(|mut f| {
                f.level = level;
                (f, Some(job.package))
            }));
        }
        match lowered.ir {
            Ok(Some(ir)) => per_package[job.package].push(ir),
            Ok(None) => {}
            Err(f) => {
                let mut f = *f;
                f.level = warnings_level.max(Level::Warn);
                findings.push((f, Some(job.package)));
            }
        }
    }
    for (pi, files) in per_package.iter().enumerate() {
        let level = incomplete_level(&levels[pi], warnings_level);
        findings.extend(incomplete_findings(files, pi, level));
    }
    let rust_files = sources.files.len();
    let abort = abort_settings(&workspace, &mut sources);
    let mut handlers = Checked::default();
    let mut notes = Vec::new();
    let mut contracts = Vec::new();
    for (pi, files) in per_package.iter().enumerate() {
        let Some(sdk) = sdks[pi].as_deref() else {
            continue;
        };
        if !sdk.error_channel_known() {
            notes.push(unknown_channel_note(sdk));
        }
        let linked: Vec<&FileIr> = links[pi]
            .iter()
            .flat_map(|&p| per_package[p].iter())
            .collect();
        let input = CrateInput {
            sources: &sources,
            package: &workspace.packages[pi],
            config: &configs[pi],
            levels: &levels[pi],
            sdk: Some(sdk),
            files: linked,
            own: files.len(),
            abort: &abort[pi],
            warnings: warnings_level,
            contract,
        };
        match isolate(|| crate_findings(&input)) {
            Ok((found, n, tools)) => {
                findings.extend(found.into_iter().map(|f| (f, Some(pi))));
                handlers.tools += n.tools;
                handlers.closures += n.closures;
                contracts.extend(tools);
            }
            Err(panic) => {
                let file = files.first().map_or(0, |f| f.file);
                let mut f = internal_error(file, &panic);
                f.level = warnings_level.max(Level::Warn);
                findings.push((f, Some(pi)));
            }
        }
    }
    timings.mark("lints");
    input_levels(&mut findings, &levels, flags);
    suppress(&mut findings, &per_package, &sources, &jobs_list, &levels);
    sort(&mut findings, &sources);
    timings.mark("sorted");
    Ok(Outcome {
        sources,
        workspace,
        findings,
        handlers: handlers.tools,
        closure_handlers: handlers.closures,
        rust_files,
        warnings,
        notes: {
            notes.sort();
            notes.dedup();
            notes
        },
        contract: contracts,
    })
}

/// Tool handlers found, and how many of them are closures given to a registration call.
#[derive(Clone, Copy, Default)]
struct Checked {
    tools: usize,
    closures: usize,
}

/// What the summary line says about an SDK whose error channel is not known.
fn unknown_channel_note(sdk: &dyn sdk::Sdk) -> String {
    let version = sdk.version().map(|v| format!(" {v}")).unwrap_or_default();
    format!(
        "error channel of sdk \"{}{version}\" unknown: error lints off",
        sdk.name()
    )
}

/// `parse_error` and `io_error` at the level their package configures (or the command line,
/// for files outside any package); allowed ones are dropped.
fn input_levels(findings: &mut Found, package_levels: &[Levels], flags: &config::LevelFlags) {
    let unpackaged = config::resolve_levels(&Config::default(), flags);
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

/// This process's peak resident memory (`VmHWM`: the high-water mark of its own address
/// space, which unlike `ru_maxrss` does not count the parent's memory before `exec`).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

struct Timings {
    started: std::time::Instant,
    on: bool,
}

impl Timings {
    fn new() -> Self {
        Timings {
            started: std::time::Instant::now(),
            on: std::env::var_os("MCP_LINT_TIMINGS").is_some(),
        }
    }

    fn mark(&self, phase: &str) {
        if self.on {
            eprintln!(
                "timing: {phase:<10} {:>8.3} s  peak {} KiB",
                self.started.elapsed().as_secs_f64(),
                peak_memory_kib().unwrap_or(0)
            );
        }
    }
}

/// Each package's configuration; excluded files leave the run here.
fn configure(workspace: &mut Workspace) -> Result<Vec<Config>, String> {
    let mut configs = Vec::new();
    for package in &mut workspace.packages {
        let workspace_manifest = (package.profile_manifest != package.manifest_path)
            .then_some(&package.profile_manifest);
        let config = if package.id.is_empty() {
            Config::default()
        } else {
            Config::load(
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
    Ok(configs)
}

/// Files skipped while walking the tree (symbolic links, broken manifests).
fn skipped_files(workspace: &Workspace, sources: &mut SourceMap, level: Level) -> Found {
    let mut findings = Vec::new();
    for (path, message) in &workspace.skipped {
        let id = sources.add(SourceFile::new(
            path.clone(),
            display_path(&workspace.root, path),
            String::new(),
        ));
        let mut f = Finding::new(IO_ERROR, empty_span(id), format!("skipped: {message}"));
        f.level = level.max(Level::Warn);
        findings.push((f, None));
    }
    findings
}

fn empty_span(file: FileId) -> Span {
    Span {
        file,
        start: 0,
        end: 0,
    }
}

/// Reads every file in parallel: its text, the path shown to users, its module path.
fn read_files(
    workspace: &Workspace,
    pool: &rayon::ThreadPool,
    sources: &mut SourceMap,
    findings: &mut Found,
    level: Level,
) -> Vec<Job> {
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
    let mut dirs: Vec<&Path> = to_read.iter().filter_map(|(_, f)| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    let resolved: HashMap<&Path, PathBuf> = pool.install(|| {
        dirs.par_iter()
            .map(|d| {
                let dir = if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                };
                (*d, canonical(dir))
            })
            .collect()
    });
    let absolute_of = |path: &Path| match (path.parent(), path.file_name()) {
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
    let mut jobs = Vec::new();
    for ((pi, path), (display, module, source)) in to_read.iter().zip(read) {
        match source {
            Ok(text) => {
                let source = SourceFile::new((*path).clone(), display, text)
                    .with_fix_root(package_roots[*pi].clone());
                let id = sources.add(source);
                jobs.push(Job {
                    package: *pi,
                    file: id,
                    module,
                });
            }
            Err(message) => {
                let id = sources.add(SourceFile::new((*path).clone(), display, String::new()));
                let mut f = Finding::new(IO_ERROR, empty_span(id), message);
                f.level = level.max(Level::Warn);
                findings.push((f, Some(*pi)));
            }
        }
    }
    jobs
}

fn detect_sdks(
    workspace: &Workspace,
    sources: &SourceMap,
    jobs: &[Job],
) -> Vec<Option<Box<dyn sdk::Sdk>>> {
    let mut hints = vec![sdk::SourceHints::default(); workspace.packages.len()];
    for job in jobs {
        let text = &sources.get(job.file).text;
        let h = &mut hints[job.package];
        h.serves_tools_call |= text.contains("\"tools/call\"");
        h.catches_panics |= text.contains(".catch_panics(");
    }
    let members: Vec<&str> = workspace.packages.iter().map(|p| p.name.as_str()).collect();
    workspace
        .packages
        .iter()
        .zip(&hints)
        .map(|(p, h)| sdk::detect(p, *h, &members))
        .collect()
}

/// Per package with an SDK: itself first, then the workspace members it depends on, directly
/// or through another member, whose helpers it calls (a member that is a server of another
/// SDK keeps its own verdicts).
fn link_members(workspace: &Workspace, sdks: &[Option<Box<dyn sdk::Sdk>>]) -> Vec<Vec<usize>> {
    let packages = &workspace.packages;
    let name_of = |i: usize| sdks[i].as_ref().map(|s| s.name());
    (0..packages.len())
        .map(|pi| {
            if sdks[pi].is_none() {
                return Vec::new();
            }
            let mut linked = vec![pi];
            let mut i = 0;
            while i < linked.len() {
                let cur = linked[i];
                for (di, dep) in packages.iter().enumerate() {
                    if !linked.contains(&di)
                        && dep.profile_manifest == packages[pi].profile_manifest
                        && packages[cur].dependency(&dep.name).is_some()
                        && (name_of(di).is_none() || name_of(di) == name_of(pi))
                    {
                        linked.push(di);
                    }
                }
                i += 1;
            }
            linked
        })
        .collect()
}

/// Parses every file and lowers the ones an analysis needs, in parallel, each in isolation
/// and within the stack budget.
fn lower_files(
    workspace: &Workspace,
    pool: &rayon::ThreadPool,
    sources: &SourceMap,
    jobs: &[Job],
    needed: &[bool],
) -> Vec<per_file::Lowered> {
    let renames: Vec<HashMap<String, String>> =
        workspace.packages.iter().map(crate_renames).collect();
    let lower = |job: &Job| {
        let renames = &renames[job.package];
        let lowering = needed[job.package].then_some(|ast: &syn::File| {
            model::lower::lower_file(job.file, job.module.clone(), ast, renames)
        });
        per_file::lower(sources.get(job.file), job.file, lowering)
    };
    pool.install(|| jobs.par_iter().map(lower).collect())
}

/// The level of `analysis_incomplete` in a package, `None` when it is allowed.
fn incomplete_level(levels: &Levels, warnings: Level) -> Option<Level> {
    match levels
        .get(ANALYSIS_INCOMPLETE)
        .copied()
        .unwrap_or(Level::Warn)
    {
        Level::Allow => None,
        Level::Warn => Some(warnings.max(Level::Warn)),
        level => Some(level),
    }
}

/// Parts of files the lowering did not follow: one finding per file, the first part, with
/// how many there are.
fn incomplete_findings(files: &[FileIr], pi: usize, level: Option<Level>) -> Found {
    let Some(level) = level else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ir in files {
        if let Some(first) = ir.incomplete.first() {
            let more = ir.incomplete.len() - 1;
            let mut message = format!("this part of the file was not analysed: {}", first.reason);
            if more > 0 {
                message.push_str(&format!(" (and {more} more parts of this file)"));
            }
            let mut f = Finding::new(ANALYSIS_INCOMPLETE, first.span.span(ir.file), message);
            f.level = level;
            out.push((f, Some(pi)));
        }
    }
    out
}

/// What the crate phase of one package works with.
struct CrateInput<'a> {
    sources: &'a SourceMap,
    package: &'a Package,
    config: &'a Config,
    levels: &'a Levels,
    sdk: Option<&'a dyn sdk::Sdk>,
    /// The package's files, then those of the members it depends on.
    files: Vec<&'a FileIr>,
    own: usize,
    abort: &'a [AbortSetting],
    warnings: Level,
    /// Whether to build the handlers' failure contracts.
    contract: bool,
}

/// Analyses one package and runs the enabled lints; returns the findings, the number of
/// handlers found in the package and, when asked, their contracts.
fn crate_findings(input: &CrateInput<'_>) -> (Vec<Finding>, Checked, Vec<crate::contract::Tool>) {
    let analysis =
        crate::analysis::analyse(input.files.clone(), input.own, input.sdk, input.config);
    let own_responses = input.sdk.is_some_and(|s| s.writes_own_responses());
    let reads_stdin = analysis
        .program
        .fn_ids()
        .filter(|&f| analysis.program.is_own(f))
        .any(|f| !analysis.facts[f as usize].transports.is_empty());
    let dispatch = own_responses.then(|| crate::analysis::dispatch::Dispatch::find(&analysis));
    // Hand-rolled dispatch in a crate that neither answers `tools/call` nor reads stdin: a
    // client or a library; its "handlers" are not handlers.
    let serving = !own_responses || reads_stdin || dispatch.as_ref().is_some_and(|d| d.serves);
    let handlers = Handlers::build(&analysis, input.sdk, serving, dispatch.as_ref());
    if std::env::var_os("MCP_LINT_DUMP").is_some_and(|v| v == "summaries") {
        eprint!(
            "{}",
            crate::analysis::dump::dump(&analysis, &handlers, input.sources)
        );
    }
    let stdio = Stdio::build(&analysis, &handlers, own_responses);
    let cx = lints::Cx {
        sources: input.sources,
        package: input.package,
        config: input.config,
        sdk: input.sdk,
        a: &analysis,
        handlers: &handlers,
        stdio: &stdio,
        abort_settings: input.abort,
    };
    let mut count = handler_count(&cx);
    count.tools += dispatch
        .as_ref()
        .filter(|_| serving)
        .map_or(0, |d| d.inline_tools.len() + d.arms.len());
    let mut out = Vec::new();
    for lint in lints::ALL {
        let level = input
            .levels
            .get(lint.name())
            .copied()
            .unwrap_or(Level::Warn);
        if level == Level::Allow {
            continue;
        }
        for mut f in lint.check(&cx) {
            f.level = level;
            out.push(f);
        }
    }
    if let Some(level) = incomplete_level(input.levels, input.warnings) {
        out.extend(analysis.incomplete.iter().map(|(place, why)| {
            let mut f = per_file::stopped_at(*place, why);
            f.level = level;
            f
        }));
    }
    let tools = if input.contract {
        crate::contract::build(&cx)
    } else {
        Vec::new()
    };
    (out, count, tools)
}

fn handler_count(cx: &lints::Cx<'_>) -> Checked {
    let program = &cx.a.program;
    let fns = program
        .fn_ids()
        .filter(|&f| program.is_own(f) && cx.handlers.role(f).handles_tools())
        .count();
    let closures = cx
        .handlers
        .closures
        .iter()
        .filter(|&&n| program.is_own(program.node(n).func))
        .count();
    Checked {
        tools: fns + closures,
        closures,
    }
}

/// Applies suppression comments, in every file that has findings or directives.
fn suppress(
    findings: &mut Found,
    per_package: &[Vec<FileIr>],
    sources: &SourceMap,
    jobs: &[Job],
    levels: &[Levels],
) {
    let mut directives = HashMap::new();
    for files in per_package {
        for ir in files {
            let file = sources.get(ir.file);
            if file.text.contains("mcp-lint:") {
                directives.insert(
                    ir.file,
                    crate::suppress::directives(file, ir.file, &ir.items),
                );
            }
        }
    }
    // Files that were parsed but not lowered still honour their directives (line-wise).
    for job in jobs {
        let file = sources.get(job.file);
        if !directives.contains_key(&job.file) && file.text.contains("mcp-lint:") {
            directives.insert(job.file, crate::suppress::directives(file, job.file, &[]));
        }
    }
    let mut manifests_seen = std::collections::HashSet::new();
    for (f, _) in findings.iter() {
        let file = sources.get(f.span.file);
        if file.path.extension().is_some_and(|e| e == "toml")
            && manifests_seen.insert(f.span.file)
            && file.text.contains("mcp-lint:")
        {
            directives.insert(
                f.span.file,
                crate::suppress::directives(file, f.span.file, &[]),
            );
        }
    }
    let package_of: HashMap<FileId, usize> = jobs
        .iter()
        .map(|j| (j.file, j.package))
        .chain(
            findings
                .iter()
                .filter_map(|(f, p)| p.map(|p| (f.span.file, p))),
        )
        .collect();
    crate::suppress::apply(
        findings,
        &directives,
        &|file| package_of.get(&file).map(|&p| (p, levels[p].clone())),
        &|span| sources.get(span.file).line_col(span.start).0,
    );
}

/// By path, then position; one finding per span and lint.
fn sort(findings: &mut Found, sources: &SourceMap) {
    findings.sort_by(|(a, _), (b, _)| {
        let pa = &sources.get(a.span.file).display;
        let pb = &sources.get(b.span.file).display;
        (pa, a.span.start, a.span.end, a.lint).cmp(&(pb, b.span.start, b.span.end, b.lint))
    });
    findings.dedup_by(|(a, _), (b, _)| a.span == b.span && a.lint == b.lint);
}

/// Per package, the `panic = "abort"` settings of the manifest whose profiles apply; each such
/// manifest is added to the sources once, so findings can point into it.
fn abort_settings(workspace: &Workspace, sources: &mut SourceMap) -> Vec<Vec<AbortSetting>> {
    let mut manifests: HashMap<PathBuf, Vec<AbortSetting>> = HashMap::new();
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
            let settings: Vec<AbortSetting> = if found.is_empty() {
                Vec::new()
            } else {
                let display = display_path(&workspace.root, path);
                let source = SourceFile::new(path.clone(), display, text)
                    .with_fix_root(canonical(&workspace.root));
                let file = sources.add(source);
                found
                    .into_iter()
                    .map(|(profile, range)| AbortSetting {
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
pub fn isolate<T>(f: impl FnOnce() -> T) -> Result<T, String> {
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

pub(crate) fn internal_error(file: FileId, panic: &str) -> Finding {
    Finding::new(
        INTERNAL_ERROR,
        empty_span(file),
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

fn read_source(path: &Path) -> Result<String, String> {
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

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

pub fn display_path(root: &Path, path: &Path) -> String {
    let root = canonical(root);
    // The directory is resolved, not the file: a symbolic link keeps its own name.
    let abs = match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => canonical(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
        .join(name),
        _ => canonical(path),
    };
    let shown = abs.strip_prefix(&root).unwrap_or(&abs);
    shown.to_string_lossy().replace('\\', "/")
}
