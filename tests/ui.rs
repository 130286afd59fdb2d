//! UI tests: each `ui-tests/<lint>/<case>.rs` is linted as the `src/main.rs` of a scratch
//! crate, and the full output (stdout, the stderr summary, the exit code) must equal
//! `<case>.stdout`. Re-write the expectations with `MCP_LINT_BLESS=1`.
//!
//! Header lines of a case configure the crate:
//! - `//@ dep: rmcp = "0.8.5"`: a `[dependencies]` line (default: `rmcp = "3.11"`);
//! - `//@ lock: rmcp 1.8.0`: a Cargo.lock entry;
//! - `//@ lib`: the file is `src/lib.rs` instead of `src/main.rs`;
//! - `//@ args: -D warnings`: extra arguments;
//! - `//@ manifest: panic = "abort"`: a line appended to Cargo.toml (after the dependencies).

mod common;

use std::path::Path;

fn run_case(case: &Path) -> Result<(), String> {
    let source = std::fs::read_to_string(case).map_err(|e| e.to_string())?;
    let mut deps = Vec::new();
    let mut locks = Vec::new();
    let mut manifest_lines = Vec::new();
    let mut target = "src/main.rs";
    let mut args: Vec<String> = vec![".".into(), "--color".into(), "never".into()];
    for line in source.lines() {
        let Some(directive) = line.strip_prefix("//@ ") else {
            continue;
        };
        if let Some(dep) = directive.strip_prefix("dep: ") {
            deps.push(dep.to_string());
        } else if let Some(lock) = directive.strip_prefix("lock: ") {
            locks.push(lock.to_string());
        } else if let Some(line) = directive.strip_prefix("manifest: ") {
            manifest_lines.push(line.to_string());
        } else if directive == "lib" {
            target = "src/lib.rs";
        } else if let Some(extra) = directive.strip_prefix("args: ") {
            args.extend(extra.split_whitespace().map(String::from));
        }
    }
    if deps.is_empty() {
        deps.push("rmcp = \"3.11\"".into());
    }
    let name = case
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("case")
        .to_string();
    let dir = common::scratch_crate(&name, &deps, &[(target, &source)]);
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
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = common::mcp_lint(&dir, &arg_refs);
    let _ = std::fs::remove_dir_all(&dir);
    let actual = format!(
        "{}{}exit code: {}\n",
        common::text(&output.stdout),
        common::text(&output.stderr),
        output.status.code().unwrap_or(-1)
    );
    let expected_path = case.with_extension("stdout");
    if std::env::var_os("MCP_LINT_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).map_err(|_| {
        format!(
            "{}: no expected output; run with MCP_LINT_BLESS=1 to write it",
            expected_path.display()
        )
    })?;
    if expected != actual {
        return Err(format!(
            "{}: output differs\n--- expected\n{expected}\n--- actual\n{actual}",
            case.display()
        ));
    }
    Ok(())
}

#[test]
fn ui() {
    let root = common::repo().join("ui-tests");
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
    assert!(!cases.is_empty(), "no ui-test cases found");
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c).err()).collect();
    println!("{} ui cases, {} failed", cases.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_lint_has_a_doc_and_ui_tests() {
    let root = common::repo();
    for lint in mcp_lint::lints::ALL {
        let doc = root.join("lints").join(format!("{}.md", lint.name()));
        let text = std::fs::read_to_string(&doc).expect("lint doc exists");
        assert!(
            text.contains("## What it does"),
            "{} lacks sections",
            doc.display()
        );
        let dir = root.join("ui-tests").join(lint.name());
        let cases = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
                    .count()
            })
            .unwrap_or(0);
        assert!(cases >= 2, "{} needs ui-test cases", dir.display());
    }
}
