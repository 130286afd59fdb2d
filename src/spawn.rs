//! Running cargo without running anything from the tree being linted.
//!
//! rustup picks the toolchain from a `rust-toolchain(.toml)` in the current directory or its
//! parents (a `[toolchain] path` there runs the tree's own `bin/cargo`), and cargo reads
//! `.cargo/config.toml` the same way. So cargo runs from a fresh empty directory outside the
//! tree, is given the manifest by absolute path, and rustup's toolchain is pinned to the one
//! in force outside the tree.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `cargo metadata --no-deps --format-version 1 --manifest-path MANIFEST`.
pub fn cargo_metadata(manifest: &Path) -> std::io::Result<Output> {
    let neutral = NeutralDir::new()?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([
        "metadata",
        "--no-deps",
        "--format-version",
        "1",
        "--manifest-path",
    ])
    .arg(manifest)
    .current_dir(&neutral.0);
    if std::env::var_os("RUSTUP_TOOLCHAIN").is_none()
        && let Some(toolchain) = toolchain_outside(&neutral.0)
    {
        cmd.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    cmd.output()
}

/// The toolchain rustup uses in `dir` (its default or an override for that directory), or
/// `None` without rustup.
fn toolchain_outside(dir: &Path) -> Option<String> {
    let out = Command::new("rustup")
        .args(["show", "active-toolchain"])
        .current_dir(dir)
        .env_remove("RUSTUP_TOOLCHAIN")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let name = text.split_whitespace().next()?;
    // A name, not a path: a path toolchain would be one somebody planted.
    (!name.contains('/')).then(|| name.to_string())
}

/// An empty directory of our own under the temp dir, removed on drop.
struct NeutralDir(PathBuf);

impl NeutralDir {
    fn new() -> std::io::Result<NeutralDir> {
        let base = std::env::temp_dir();
        for attempt in 0..16u32 {
            let dir = base.join(format!(
                "mcp-lint-cargo-{}-{}",
                std::process::id(),
                crate::fix::random_suffix(attempt)
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(NeutralDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other("no fresh temporary directory"))
    }
}

impl Drop for NeutralDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.0);
    }
}
