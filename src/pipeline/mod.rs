//! The run, stage by stage: configuration per package, reading the files, parsing and
//! lowering them in parallel, the crate analysis and the lints per package, then
//! suppression and sorting. Each stage is a function of plain data.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::analysis::handlers::Handlers;
use crate::analysis::stdio::Stdio;
use crate::config::{self, Config};
use crate::diagnostic::{FileId, Finding, Level};
use crate::lints::cx::AbortSetting;
use crate::model::ir::FileIr;
use crate::source::SourceMap;
use crate::workspace::{Package, Workspace};
use crate::{Outcome, lints, per_file, sdk};

mod files;
mod finish;
mod irs;
mod isolate;
mod texts;

pub use files::display_path;
use files::{abort_settings, canonical, empty_span, read_files, skipped_files};
use finish::{input_levels, sort, suppress};
pub use isolate::isolate;
pub(crate) use isolate::{inject_panic_for_tests, internal_error};

type Levels = BTreeMap<&'static str, Level>;
type Found = Vec<(Finding, Option<usize>)>;

/// One file to analyse, with its package.
struct Job {
    package: usize,
    file: FileId,
    module: Vec<crate::model::ir::Name>,
    /// What the file's text told when it was read.
    hints: sdk::SourceHints,
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
        .map(|c| config::resolve_levels(c, flags, &lints::CODES))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .stack_size(64 * 1024 * 1024)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    // The whole run is one task of the pool: the stages' parallel parts start from a worker
    // and need no hand-off between threads, and what one stage allocates is freed on the
    // thread that allocated it (a free from another thread takes the allocator's slow path).
    let settings = Settings {
        configs: &configs,
        levels: &levels,
        flags,
        warnings: warnings_level,
        contract,
    };
    let mut outcome = pool.install(|| stages(workspace, &settings, &pool, &timings));
    outcome.warnings = warnings;
    Ok(outcome)
}

/// What the run's stages read of its configuration.
struct Settings<'a> {
    configs: &'a [Config],
    levels: &'a [Levels],
    flags: &'a config::LevelFlags,
    warnings: Level,
    contract: bool,
}

/// Reading, lowering, the crate analyses and the lints, then suppression and sorting.
fn stages(
    workspace: Workspace,
    settings: &Settings<'_>,
    pool: &rayon::ThreadPool,
    timings: &Timings,
) -> Outcome {
    let Settings {
        configs,
        levels,
        flags,
        warnings: warnings_level,
        contract,
    } = *settings;
    let mut sources = SourceMap::default();
    let mut findings = skipped_files(&workspace, &mut sources, warnings_level);
    let jobs_list = read_files(
        &workspace,
        pool,
        &mut sources,
        &mut findings,
        warnings_level,
    );
    timings.mark("read");
    let rust_files = sources.files.len();
    let abort = abort_settings(&workspace, &mut sources);
    let sdks = detect_sdks(&workspace, &jobs_list);
    let links = link_members(&workspace, &sdks);
    let lowering = irs::Lowering::new(&workspace, pool, &jobs_list, levels, warnings_level);
    let mut store = irs::IrStore::new(&links);
    let run = Run {
        workspace: &workspace,
        configs,
        levels,
        abort: &abort,
        warnings: warnings_level,
        contract,
    };
    let analysed = analyse_packages(
        &run,
        &sdks,
        &links,
        &lowering,
        &mut store,
        &mut sources,
        &mut findings,
    );
    let items = store.into_items();
    timings.mark("lints");
    input_levels(&mut findings, levels, flags);
    suppress(&mut findings, &items, &sources, &jobs_list, levels);
    sort(&mut findings, &sources);
    timings.mark("sorted");
    Outcome {
        sources,
        workspace,
        findings,
        handlers: analysed.handlers.tools,
        closure_handlers: analysed.handlers.closures,
        rust_files,
        warnings: Vec::new(),
        notes: {
            let mut notes = analysed.notes;
            notes.sort();
            notes.dedup();
            notes
        },
        contract: analysed.contracts,
    }
}

/// What every package's crate phase shares.
struct Run<'a> {
    workspace: &'a Workspace,
    configs: &'a [Config],
    levels: &'a [Levels],
    abort: &'a [Vec<AbortSetting>],
    warnings: Level,
    contract: bool,
}

/// What the crate phases found besides their findings.
#[derive(Default)]
struct Analysed {
    handlers: Checked,
    notes: Vec<String>,
    contracts: Vec<crate::contract::Tool>,
}

/// Runs the crate phase of every package with an SDK, each with the IR of the members it
/// reads, lowered just before and dropped when no later package reads it; their texts are
/// held from just before the lowering to the drop (see [`Texts`]).
fn analyse_packages(
    run: &Run<'_>,
    sdks: &[Option<Box<dyn sdk::Sdk>>],
    links: &[Vec<usize>],
    lowering: &irs::Lowering<'_>,
    store: &mut irs::IrStore,
    sources: &mut SourceMap,
    findings: &mut Found,
) -> Analysed {
    let mut out = Analysed::default();
    let mut texts = texts::Texts::default();
    // A package loaded as another's path dependency is followed from that one's handlers;
    // it is not linted on its own.
    let order: Vec<usize> = (0..sdks.len())
        .filter(|&p| sdks[p].is_some() && !run.workspace.packages[p].context_only)
        .collect();
    for (k, &pi) in order.iter().enumerate() {
        let Some(sdk) = sdks[pi].as_deref() else {
            continue;
        };
        if !sdk.error_channel_known() {
            out.notes.push(unknown_channel_note(sdk));
        }
        // The next package's IR is lowered while this one is analysed.
        let next: Vec<usize> = order.get(k + 1).map_or_else(Vec::new, |&q| {
            links[q]
                .iter()
                .copied()
                .filter(|&p| !store.holds(p) && !links[pi].contains(&p))
                .collect()
        });
        let lowered_now = links[pi].iter().filter(|&&p| !store.holds(p));
        let files: Vec<FileId> = lowered_now
            .chain(&next)
            .flat_map(|&p| lowering.files_of(p))
            .collect();
        findings.extend(files::hold_texts(
            run.workspace,
            lowering.pool,
            sources,
            &files,
            run.warnings,
        ));
        let held: &SourceMap = sources;
        store.ensure(&links[pi], lowering, held, findings);
        let input = CrateInput {
            sources: held,
            package: &run.workspace.packages[pi],
            config: &run.configs[pi],
            levels: &run.levels[pi],
            sdk: Some(sdk),
            files: store.files(&links[pi]),
            own: store.own(pi).len(),
            abort: &run.abort[pi],
            warnings: run.warnings,
            contract: run.contract,
        };
        let (result, (ahead, found_ahead)) = lowering.pool.join(
            || isolate(|| crate_findings(&input)),
            || lowering.packages(held, &next),
        );
        match result {
            Ok((found, n, tools)) => {
                findings.extend(found.into_iter().map(|f| (f, Some(pi))));
                out.handlers.tools += n.tools;
                out.handlers.closures += n.closures;
                out.contracts.extend(tools);
            }
            Err(panic) => {
                let file = store.own(pi).first().map_or(0, |f| f.file);
                let mut f = internal_error(file, &panic);
                f.level = run.warnings.max(Level::Warn);
                findings.push((f, Some(pi)));
            }
        }
        let dropped = store.done(&links[pi]);
        store.insert(ahead);
        findings.extend(found_ahead);
        texts.release(
            sources,
            dropped.iter().flat_map(|&p| lowering.files_of(p)),
            findings,
        );
    }
    out
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

/// This process's peak resident memory (`VmHWM`: the high-water mark of its own address
/// space, which unlike `ru_maxrss` does not count the parent's memory before `exec`).
pub fn peak_memory_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

/// This process's resident memory now, in KiB: what it allocated (`RssAnon`) and the pages
/// of its binary and libraries mapped in (`RssFile`, shared with every other process that
/// maps them). The second is most of an empty run's peak.
pub fn resident_kib() -> Option<(u64, u64)> {
    Some((status_kib("RssAnon:")?, status_kib("RssFile:")?))
}

fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
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
                &lints::CODES,
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

fn detect_sdks(workspace: &Workspace, jobs: &[Job]) -> Vec<Option<Box<dyn sdk::Sdk>>> {
    let mut hints = vec![sdk::SourceHints::default(); workspace.packages.len()];
    for job in jobs {
        hints[job.package] = hints[job.package].or(job.hints);
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
        callers: std::cell::OnceCell::new(),
        caller_budget: std::cell::Cell::new(lints::CALLER_BUDGET),
        shared_handler_names: std::cell::OnceCell::new(),
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
    if let Some(level) = irs::incomplete_level(input.levels, input.warnings) {
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

#[cfg(test)]
mod tests {
    #[test]
    fn resident_memory_splits_the_current_set_below_its_peak() {
        let (anon, file) = super::resident_kib().expect("RssAnon and RssFile in /proc/self/status");
        let peak = super::peak_memory_kib().expect("VmHWM in /proc/self/status");
        // A test binary has allocated memory and maps itself; what is resident now cannot
        // exceed the high-water mark.
        assert!(anon > 0 && file > 0, "anon {anon} KiB, file {file} KiB");
        assert!(
            anon + file <= peak,
            "{anon} + {file} KiB over the peak {peak} KiB"
        );
    }
}
