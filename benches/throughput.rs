//! `cargo bench`: files, lines and lines/s for a tree — the parse floor, the full lint on
//! one thread, and the full lint in parallel (best of three runs each), plus the same on half
//! the packages to show that time grows linearly with lines. Usage:
//! `cargo bench --bench throughput -- [DIR]` (default: ~/.cargo/registry/src, else this repo).

use std::path::PathBuf;
use std::time::Instant;

use mcp_lint::diagnostic::Level;
use mcp_lint::workspace::{self, Workspace};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const RUNS: usize = 3;

fn main() {
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

    let floor = best(|| {
        for t in &texts {
            let _ = mcp_lint::source::parse(t);
            proc_macro2::extra::invalidate_current_thread_spans();
        }
        0
    })
    .0;
    report("parse only, 1 thread", floor, lines, None);

    let flags = mcp_lint::config::LevelFlags::new();
    let lint = |ws: Workspace, jobs| {
        mcp_lint::lint_workspace(ws, &flags, Level::Warn, jobs)
            .map(|o| o.findings.len())
            .unwrap_or(0)
    };
    // Workspaces are discovered before the clock starts: only linting is timed.
    let mut ready: Vec<Workspace> = (0..RUNS * 3).map(|_| load()).collect();
    let mut next = || ready.pop().unwrap_or_else(load);
    let (single, findings) = best(|| lint(next(), Some(1)));
    report("full lint, --jobs 1", single, lines, Some(findings));
    println!("  ratio lint/parse floor (1 thread): {:.2}", single / floor);
    let (parallel, findings) = best(|| lint(next(), None));
    report("full lint, parallel", parallel, lines, Some(findings));
    println!("  speed-up over --jobs 1: {:.2}x", single / parallel);

    // Linearity: the first half of the packages.
    let half = |mut ws: Workspace| {
        let n = ws.packages.len().div_ceil(2);
        ws.packages.truncate(n);
        ws
    };
    let half_lines: usize = half(load())
        .packages
        .iter()
        .flat_map(|p| p.files.iter())
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .map(|t| t.lines().count())
        .sum();
    let (half_time, _) = best(|| lint(half(next()), Some(1)));
    report("half the tree, --jobs 1", half_time, half_lines, None);
    println!(
        "  lines/s on half vs whole tree: {:.0} vs {:.0} ({:.2})",
        half_lines as f64 / half_time,
        lines as f64 / single,
        (half_lines as f64 / half_time) / (lines as f64 / single)
    );
}

/// The fastest of [`RUNS`] runs: seconds and the run's result.
fn best<T>(mut run: impl FnMut() -> T) -> (f64, T) {
    let mut best: Option<(f64, T)> = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let result = run();
        let seconds = start.elapsed().as_secs_f64();
        if best.as_ref().is_none_or(|(b, _)| seconds < *b) {
            best = Some((seconds, result));
        }
    }
    best.unwrap_or_else(|| (f64::INFINITY, run()))
}

fn report(label: &str, seconds: f64, lines: usize, findings: Option<usize>) {
    let extra = findings.map_or(String::new(), |f| format!(", {f} findings"));
    println!(
        "{label:<26} {:>8.3} s  {:>10.0} lines/s{extra}",
        seconds,
        lines as f64 / seconds
    );
}
