//! The ui-test cases (`ui-tests/<lint>/<case>.rs`) and the scratch crate each is linted in.
//!
//! Header lines of a case configure the crate:
//! - `//@ dep: rmcp = "0.8.5"`: a `[dependencies]` line (default: `rmcp = "3.11"`);
//! - `//@ lock: rmcp 1.8.0`: a Cargo.lock entry;
//! - `//@ lib`: the file is `src/lib.rs` instead of `src/main.rs`;
//! - `//@ args: -D warnings`: extra arguments;
//! - `//@ manifest: panic = "abort"`: a line appended to Cargo.toml (after the dependencies).

use std::path::{Path, PathBuf};

/// Every case, sorted.
pub fn all() -> Vec<PathBuf> {
    let root = super::repo().join("ui-tests");
    let mut cases = Vec::new();
    for lint_dir in std::fs::read_dir(&root).expect("ui-tests exists") {
        let lint_dir = lint_dir.expect("entry").path();
        if !lint_dir.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&lint_dir).expect("lint dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                cases.push(path);
            }
        }
    }
    cases.sort();
    cases
}

/// The `//@ dep:` lines of a case (the default when it has none).
pub fn deps(source: &str) -> Vec<String> {
    let deps: Vec<String> = source
        .lines()
        .filter_map(|l| l.strip_prefix("//@ dep: "))
        .map(String::from)
        .collect();
    if deps.is_empty() {
        vec!["rmcp = \"3.11\"".into()]
    } else {
        deps
    }
}

/// Where the case's code goes in its crate.
pub fn target(source: &str) -> &'static str {
    if source.lines().any(|l| l == "//@ lib") {
        "src/lib.rs"
    } else {
        "src/main.rs"
    }
}

/// Writes the case's scratch crate; returns it and the arguments to lint it with.
pub fn scratch(case: &Path) -> Result<(PathBuf, Vec<String>), String> {
    let source = std::fs::read_to_string(case).map_err(|e| e.to_string())?;
    let mut locks = Vec::new();
    let mut manifest_lines = Vec::new();
    let mut args: Vec<String> = vec![".".into(), "--color".into(), "never".into()];
    for line in source.lines() {
        let Some(directive) = line.strip_prefix("//@ ") else {
            continue;
        };
        if let Some(lock) = directive.strip_prefix("lock: ") {
            locks.push(lock.to_string());
        } else if let Some(line) = directive.strip_prefix("manifest: ") {
            manifest_lines.push(line.to_string());
        } else if let Some(extra) = directive.strip_prefix("args: ") {
            args.extend(extra.split_whitespace().map(String::from));
        }
    }
    // Prefixed: a case called after an SDK (`pmcp.rs`) must not make a package of the SDK's
    // name, which cargo would refuse as a dependency of itself.
    let name = format!(
        "case_{}",
        case.file_stem().and_then(|s| s.to_str()).unwrap_or("case")
    );
    let dir = super::scratch_crate(&name, &deps(&source), &[(target(&source), &source)]);
    if !manifest_lines.is_empty() {
        let path = dir.join("Cargo.toml");
        let mut manifest = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        for line in &manifest_lines {
            manifest.push_str(line);
            manifest.push('\n');
        }
        std::fs::write(&path, manifest).map_err(|e| e.to_string())?;
    }
    if !locks.is_empty() {
        let mut lock = String::from("version = 4\n");
        for entry in &locks {
            let (pkg, version) = entry.split_once(' ').unwrap_or((entry, "0.0.0"));
            lock.push_str(&format!(
                "\n[[package]]\nname = \"{pkg}\"\nversion = \"{version}\"\n"
            ));
        }
        std::fs::write(dir.join("Cargo.lock"), lock).map_err(|e| e.to_string())?;
    }
    Ok((dir, args))
}
