//! `cargo bench`: files, lines and lines/s for a tree — the parse floor, the full lint on
//! one thread, the full lint in parallel, and the full lint on each half of the packages: when
//! time is linear in lines, the two halves take as long as the whole. Rounds run each once in
//! turn (the floor twice, before and after the lint on one thread); medians are reported.
//! Usage:
//! `cargo bench --bench throughput -- [DIR]` (default: ~/.cargo/registry/src, else this repo).

use std::path::PathBuf;
use std::time::Instant;

use mcp_lint::diagnostic::Level;
use mcp_lint::workspace::{self, Workspace};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rounds by default: each round runs the parse floor and every lint once.
const RUNS: usize = 7;

fn main() {
    // The same allocator set-up as the binaries', so the lint is timed as users run it.
    mcp_lint::allocator::configure();
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(|| {
            let home = std::env::var_os("HOME")?;
            let registry = PathBuf::from(home).join(".cargo/registry/src");
            registry.is_dir().then_some(registry)
        })
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let load = || {
        workspace::from_paths(std::slice::from_ref(&dir)).unwrap_or_else(|e| {
            eprintln!("bench: {e}");
            std::process::exit(2)
        })
    };
    let ws = load();
    let texts: Vec<String> = ws
        .packages
        .iter()
        .flat_map(|p| p.files.iter())
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "tree: {} ({} files, {} lines, {:.1} MB)",
        dir.display(),
        texts.len(),
        lines,
        bytes as f64 / 1e6
    );

    let flags = mcp_lint::config::LevelFlags::new();
    let lint = |ws: Workspace, jobs| {
        mcp_lint::lint_workspace(ws, &flags, Level::Warn, jobs)
            .map(|o| o.findings.len())
            .unwrap_or(0)
    };
    let parse_all = || {
        for t in &texts {
            let _ = mcp_lint::source::parse(t);
            proc_macro2::extra::invalidate_current_thread_spans();
        }
    };
    // The tree's packages in two complementary halves: linear time means the two halves
    // take as long as the whole.
    let half = |mut ws: Workspace, second: bool| {
        let n = ws.packages.len().div_ceil(2);
        if second {
            ws.packages.drain(..n);
        } else {
            ws.packages.truncate(n);
        }
        ws
    };
    let half_lines: usize = half(load(), false)
        .packages
        .iter()
        .flat_map(|p| p.files.iter())
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .map(|t| t.lines().count())
        .sum();
    let runs = runs();
    // Workspaces are discovered before the clock starts: only linting is timed.
    let mut ready: Vec<Workspace> = (0..runs * 5).map(|_| load()).collect();
    let mut next = || ready.pop().unwrap_or_else(load);

    // The machine's speed drifts: each ratio is taken within one round, where the lint on
    // one thread runs between two runs of the floor and is compared with their mean, and the
    // median round is reported.
    let mut rounds = Vec::new();
    let mut findings = 0;
    for _ in 0..runs {
        let before = time(parse_all).0;
        let (single, found) = time(|| lint(next(), Some(1)));
        let after = time(parse_all).0;
        let parallel = time(|| lint(next(), None)).0;
        let first = time(|| lint(half(next(), false), Some(1))).0;
        let second = time(|| lint(half(next(), true), Some(1))).0;
        findings = found;
        rounds.push([(before + after) / 2.0, single, parallel, first, second]);
    }
    let median_of = |f: &dyn Fn(&[f64; 5]) -> f64| median(rounds.iter().map(f).collect());
    let floor = median_of(&|r| r[0]);
    let single = median_of(&|r| r[1]);
    let parallel = median_of(&|r| r[2]);
    let first = median_of(&|r| r[3]);
    let second = median_of(&|r| r[4]);
    println!("medians of {runs} rounds (BENCH_RUNS sets the number):");
    report("parse only, 1 thread", floor, lines, None);
    report("full lint, --jobs 1", single, lines, Some(findings));
    report("full lint, parallel", parallel, lines, Some(findings));
    report("first half, --jobs 1", first, half_lines, None);
    report("second half, --jobs 1", second, lines - half_lines, None);
    let ratios: Vec<f64> = rounds.iter().map(|r| r[1] / r[0]).collect();
    let (low, high) = ratios
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    println!(
        "  ratio lint/parse floor (1 thread): {:.2} (rounds from {low:.2} to {high:.2})",
        median(ratios.clone())
    );
    println!(
        "  speed-up of parallel over --jobs 1: {:.2}x",
        median_of(&|r| r[1] / r[2])
    );
    println!(
        "  both halves vs the whole tree, --jobs 1: {:.2} (1.00 is linear)",
        median_of(&|r| (r[3] + r[4]) / r[1])
    );
}

fn runs() -> usize {
    std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(RUNS)
}

/// Seconds one run takes, and its result.
fn time<T>(run: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let result = run();
    (start.elapsed().as_secs_f64(), result)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn report(label: &str, seconds: f64, lines: usize, findings: Option<usize>) {
    let extra = findings.map_or(String::new(), |f| format!(", {f} findings"));
    println!(
        "{label:<26} {:>8.3} s  {:>10.0} lines/s{extra}",
        seconds,
        lines as f64 / seconds
    );
}
