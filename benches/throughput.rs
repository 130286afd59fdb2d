//! `cargo bench`: files, lines and lines/s for a tree — the parse floor, the full lint on
//! one thread, and the full lint in parallel. Usage:
//! `cargo bench --bench throughput -- [DIR]` (default: ~/.cargo/registry/src, else this repo).

use std::path::PathBuf;
use std::time::Instant;

use mcp_lint::diagnostic::Level;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use mcp_lint::workspace;

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
    let flags = mcp_lint::config::LevelFlags::new();

    let ws = match workspace::from_paths(std::slice::from_ref(&dir)) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    };
    let files: Vec<PathBuf> = ws.packages.iter().flat_map(|p| p.files.clone()).collect();
    let texts: Vec<String> = files
        .iter()
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

    let start = Instant::now();
    for t in &texts {
        let _ = mcp_lint::source::parse(t);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    let floor = start.elapsed().as_secs_f64();
    report("parse only, 1 thread", floor, lines, None);

    let mut single = 0.0;
    for (label, jobs) in [
        ("full lint, --jobs 1", Some(1)),
        ("full lint, parallel", None),
    ] {
        let ws = workspace::from_paths(std::slice::from_ref(&dir)).unwrap_or_else(|e| {
            eprintln!("bench: {e}");
            std::process::exit(2)
        });
        let start = Instant::now();
        let outcome = mcp_lint::lint_workspace(ws, &flags, Level::Warn, jobs);
        let elapsed = start.elapsed().as_secs_f64();
        let findings = outcome.map(|o| o.findings.len()).unwrap_or(0);
        report(label, elapsed, lines, Some(findings));
        if jobs == Some(1) {
            single = elapsed;
            println!(
                "  ratio lint/parse floor (1 thread): {:.2}",
                elapsed / floor
            );
        } else {
            println!("  speed-up over --jobs 1: {:.2}x", single / elapsed);
        }
    }
}

fn report(label: &str, seconds: f64, lines: usize, findings: Option<usize>) {
    let extra = findings.map_or(String::new(), |f| format!(", {f} findings"));
    println!(
        "{label:<24} {:>8.3} s  {:>10.0} lines/s{extra}",
        seconds,
        lines as f64 / seconds
    );
}
