//! What the families' unit tests share: a rewrite must keep what a program does. A test
//! program (std only) is compiled and run before and after the rewrite; both runs must print
//! the same, and the rewrite must have changed the text.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Family;
use crate::edit::Rewrite;
use crate::tree::Tree;

/// A one-package tree with these files.
pub fn tree(files: &[(&str, &str)]) -> Tree {
    let mut all = vec![(
        "Cargo.toml".to_string(),
        "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_string(),
    )];
    all.extend(files.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    Tree::new(all)
}

/// Rewrites a one-file crate (`src/main.rs`).
pub fn rewrite(family: &dyn Family, main: &str) -> Rewrite {
    family.rewrite(&tree(&[("src/main.rs", main)]))
}

/// The rewritten `src/main.rs` of a one-file crate.
pub fn rewritten(family: &dyn Family, main: &str) -> String {
    rewrite(family, main).tree.files["src/main.rs"].clone()
}

/// Runs `files` (a crate rooted at `src/main.rs`) before and after `family`; both must build
/// and print the same, every rewritten file must parse, and something must have changed.
/// Returns the rewrite for further checks.
pub fn same_behaviour(family: &dyn Family, files: &[(&str, &str)]) -> Rewrite {
    let before = tree(files);
    let after = family.rewrite(&before);
    assert!(after.sites > 0, "{}: nothing was rewritten", family.name());
    assert_ne!(
        before,
        after.tree,
        "{}: the text did not change",
        family.name()
    );
    for (path, text) in after.tree.rust_files() {
        assert!(
            syn::parse_file(text).is_ok(),
            "{}: {path} does not parse:\n{text}",
            family.name()
        );
    }
    let expected = run(&before, "before");
    let actual = run(&after.tree, "after");
    assert_eq!(
        expected,
        actual,
        "{}: the program prints something else after the rewrite:\n{}",
        family.name(),
        after.tree.files["src/main.rs"]
    );
    after
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn scratch(label: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "mcp-lint-metamorph-{}-{n}-{label}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds the tree with rustc (edition 2024, no dependencies) and returns what it prints.
fn run(tree: &Tree, label: &str) -> String {
    let dir = scratch(label);
    tree.write(&dir).expect("write the program");
    let binary = dir.join("probe");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let build = Command::new(rustc)
        .args([
            "--edition",
            "2024",
            "--crate-name",
            "probe",
            "-A",
            "warnings",
            "-o",
        ])
        .arg(&binary)
        .arg(dir.join("src/main.rs"))
        .output()
        .expect("rustc runs");
    assert!(
        build.status.success(),
        "the {label} program does not build:\n{}\n{}",
        String::from_utf8_lossy(&build.stderr),
        tree.files.get("src/main.rs").map_or("", String::as_str)
    );
    let out = Command::new(&binary).output().expect("the program runs");
    remove(&dir);
    assert!(out.status.success(), "the {label} program failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn remove(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}
