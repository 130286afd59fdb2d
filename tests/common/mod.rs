//! Helpers shared by the integration tests: scratch crates and running the binaries.

#![allow(dead_code)]

pub mod build;
pub mod contract;
pub mod editor;
pub mod ui_case;
pub mod wire;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh empty directory under the system temp dir.
pub fn scratch_dir(name: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir =
        std::env::temp_dir().join(format!("mcp-lint-test-{}-{}-{name}", std::process::id(), n));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("create scratch dir");
    dir
}

/// Writes `text` at `path` under `dir`, creating the folders on the way.
pub fn write_file(dir: &std::path::Path, path: &str, text: &str) {
    let full = dir.join(path);
    std::fs::create_dir_all(full.parent().expect("parent")).expect("dirs");
    std::fs::write(full, text).expect("write");
}

/// Writes a package with these `[dependencies]` lines and files.
pub fn scratch_crate(name: &str, deps: &[String], files: &[(&str, &str)]) -> PathBuf {
    let dir = scratch_dir(name);
    let manifest = format!(
        "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{}\n",
        name.replace('_', "-"),
        deps.join("\n")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("write manifest");
    for (path, text) in files {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).expect("create dirs");
        }
        std::fs::write(full, text).expect("write file");
    }
    dir
}

pub fn mcp_lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run mcp-lint")
}

pub fn cargo_mcp_lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"))
        .arg("mcp-lint")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run cargo-mcp-lint")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The repository's own directory.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether a slow test (one marked `#[ignore]`, run with `--include-ignored`) should return
/// at once because `MCP_LINT_SKIP_SLOW` is set. CI never skips: there it is an error.
pub fn skip_slow(test: &str) -> bool {
    if std::env::var_os("MCP_LINT_SKIP_SLOW").is_none() {
        return false;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "MCP_LINT_SKIP_SLOW is set in CI, where {test} must run"
    );
    eprintln!("skipped {test}: MCP_LINT_SKIP_SLOW is set");
    true
}
