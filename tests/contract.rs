//! `mcp-lint contract`: the findings and the contract agree on every ui-test crate; the JSON
//! format is the documented one; `--check` fails on a worse contract and only then.

mod common;

use std::path::Path;

use serde_json::Value;

/// Lints whose findings are failure paths of a tool (the others are about the transport,
/// error codes, or suppression comments).
const PATH_LINTS: &[&str] = &[
    "panic_in_tool",
    "panic_abort_in_server",
    "error_escapes_tool",
    "validation_as_protocol_error",
    "error_as_success",
    "unknown_tool_as_result",
    "error_leaks_internals",
];

/// (lint, file, line) of each finding of a lint run in cargo's JSON format.
fn findings(dir: &Path) -> Vec<(String, String, u64)> {
    let out = common::mcp_lint(dir, &[".", "--message-format", "json"]);
    let mut found = Vec::new();
    for line in common::text(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).expect("JSON line");
        if v["reason"] != "compiler-message" {
            continue;
        }
        let m = &v["message"];
        let code = m["code"]["code"].as_str().unwrap_or_default();
        let lint = code.trim_start_matches("mcp_lint::").to_string();
        let spans = m["spans"].as_array().cloned().unwrap_or_default();
        let primary = spans
            .iter()
            .find(|s| s["is_primary"] == true)
            .expect("a primary span");
        found.push((
            lint,
            primary["file_name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            primary["line_start"].as_u64().unwrap_or_default(),
        ));
    }
    found
}

fn contract(dir: &Path, args: &[&str]) -> (Value, String, i32) {
    let mut all = vec!["contract", ".", "--format", "json"];
    all.extend_from_slice(args);
    let out = common::mcp_lint(dir, &all);
    let stdout = common::text(&out.stdout);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("contract is JSON ({e}): {stdout}"));
    (
        json,
        common::text(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// Whether the contract lists a path for the finding `(lint, file, line)`.
fn has_path(contract: &Value, lint: &str, file: &str, line: u64) -> bool {
    let at = |v: &Value| v["file"] == file && v["line"] == line;
    contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["failures"].as_array().into_iter().flatten())
        .any(|f| {
            if lint == "panic_abort_in_server" {
                return f["abort"].as_array().into_iter().flatten().any(at);
            }
            let place = if f["reported_at"].is_object() {
                &f["reported_at"]
            } else {
                &f["origin"]
            };
            f["lint"] == lint && at(place)
        })
}

#[test]
fn every_finding_of_every_ui_test_is_a_path_of_the_contract() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for case in common::ui_case::all() {
        let (dir, _) = common::ui_case::scratch(&case).expect("scratch crate");
        let found = findings(&dir);
        let (contract, stderr, code) = contract(&dir, &[]);
        assert_eq!(code, 0, "{}: {stderr}", case.display());
        for (lint, file, line) in found {
            if !PATH_LINTS.contains(&lint.as_str()) {
                continue;
            }
            checked += 1;
            if !has_path(&contract, &lint, &file, line) {
                missing.push(format!(
                    "{}: {lint} at {file}:{line} is not in the contract:\n{contract:#}",
                    case.display()
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(missing.is_empty(), "{}", missing.join("\n\n"));
    assert!(checked >= 50, "only {checked} findings checked");
}
