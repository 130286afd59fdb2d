//! `--fix` is trustworthy: on every ui-test case, applying every fix (safe and unsafe) leaves
//! files that still parse, a second `--fix` changes nothing, and re-linting reports nothing
//! of the same lint at any site that was fixed.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use cargo_metadata::Message;
use cargo_metadata::diagnostic::Applicability;

/// One fixable finding: its code, file, primary byte range and edits.
#[derive(Debug)]
struct Site {
    code: String,
    file: String,
    primary: (usize, usize),
    edits: Vec<Edit>,
}

#[derive(Clone, Debug)]
struct Edit {
    start: usize,
    end: usize,
    replacement: String,
}

/// Every finding of a run, with its edits when `--fix --unsafe-fixes` would apply them.
fn findings(dir: &Path, args: &[String]) -> Vec<Site> {
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.extend(["--message-format", "json"]);
    let out = common::mcp_lint(dir, &args);
    let mut sites = Vec::new();
    for message in Message::parse_stream(out.stdout.as_slice()) {
        let Ok(Message::CompilerMessage(m)) = message else {
            continue;
        };
        let d = m.message;
        let Some(primary) = d.spans.iter().find(|s| s.is_primary) else {
            continue;
        };
        let edits = d
            .children
            .iter()
            .flat_map(|c| &c.spans)
            .filter(|s| {
                matches!(
                    s.suggestion_applicability,
                    Some(Applicability::MachineApplicable | Applicability::MaybeIncorrect)
                )
            })
            .filter_map(|s| {
                Some(Edit {
                    start: s.byte_start as usize,
                    end: s.byte_end as usize,
                    replacement: s.suggested_replacement.clone()?,
                })
            })
            .collect();
        sites.push(Site {
            code: d.code.map(|c| c.code).unwrap_or_default(),
            file: primary.file_name.clone(),
            primary: (primary.byte_start as usize, primary.byte_end as usize),
            edits,
        });
    }
    sites
}

/// Where byte `at` of the old text is once `edits` (sorted, not overlapping) are applied.
/// A position inside a replaced range, or at an insertion, goes before the new text when it
/// starts a range (`after` false) and after it when it ends one.
fn moved(at: usize, edits: &[&Edit], after: bool) -> usize {
    let mut new = at as isize;
    for e in edits {
        let delta = e.replacement.len() as isize - (e.end - e.start) as isize;
        let start = e.start as isize + (new - at as isize);
        if e.end < at || (e.end == at && (e.start < at || after)) {
            new += delta;
        } else if e.start < at {
            return if after {
                (start + e.replacement.len() as isize) as usize
            } else {
                start as usize
            };
        }
    }
    new as usize
}

/// The crate's files and their text, to compare before and after a pass.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("list").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                files.insert(name, text);
            }
        }
    }
    files
}

/// Fixes one case twice and re-lints it; returns how many fixed sites were checked.
fn check_case(case: &Path) -> Result<usize, String> {
    let (dir, args) = common::ui_case::scratch(case)?;
    let name = case.display().to_string();
    let before = findings(&dir, &args);
    let fixed: Vec<&Site> = before.iter().filter(|s| !s.edits.is_empty()).collect();
    if fixed.is_empty() {
        return Ok(0);
    }
    let mut fix_args: Vec<&str> = args.iter().map(String::as_str).collect();
    fix_args.extend(["--fix", "--unsafe-fixes", "--message-format", "short"]);

    let first = common::mcp_lint(&dir, &fix_args);
    let report = common::text(&first.stderr);
    if report.contains("left unchanged") || !report.contains("mcp-lint: applied ") {
        return Err(format!("{name}: the first --fix failed:\n{report}"));
    }
    let once = snapshot(&dir);
    let second = common::mcp_lint(&dir, &fix_args);
    let report = common::text(&second.stderr);
    if !report.contains("mcp-lint: applied 0 fixes in 0 files") || snapshot(&dir) != once {
        return Err(format!(
            "{name}: a second --fix changed the code again:\n{report}"
        ));
    }

    let after = findings(&dir, &args);
    let mut per_file: BTreeMap<&str, Vec<&Edit>> = BTreeMap::new();
    for site in &fixed {
        per_file
            .entry(site.file.as_str())
            .or_default()
            .extend(&site.edits);
    }
    for edits in per_file.values_mut() {
        edits.sort_by_key(|e| (e.start, e.end));
        edits.dedup_by(|a, b| {
            a.start == b.start && a.end == b.end && a.replacement == b.replacement
        });
        if edits.windows(2).any(|w| w[1].start < w[0].end) {
            return Err(format!("{name}: fixes overlap: {edits:?}"));
        }
    }
    for site in &fixed {
        let edits = &per_file[site.file.as_str()];
        let lo = site
            .edits
            .iter()
            .map(|e| e.start)
            .chain([site.primary.0])
            .min()
            .unwrap_or(0);
        let hi = site
            .edits
            .iter()
            .map(|e| e.end)
            .chain([site.primary.1])
            .max()
            .unwrap_or(0);
        let (lo, hi) = (moved(lo, edits, false), moved(hi, edits, true));
        if let Some(left) = after.iter().find(|f| {
            f.code == site.code && f.file == site.file && f.primary.0 <= hi && lo <= f.primary.1
        }) {
            return Err(format!(
                "{name}: {} is still reported at the fixed site {lo}..{hi}: {left:?}\nfixed text:\n{}",
                site.code,
                once.get(&site.file).map_or("", String::as_str)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(fixed.len())
}

#[test]
fn every_fix_in_the_ui_tests_is_idempotent_and_removes_its_finding() {
    let cases = common::ui_case::all();
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        match check_case(case) {
            Ok(n) => checked += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The ui-tests hold fixes of every kind; a run that checked few has lost them.
    assert!(checked >= 20, "only {checked} fixed sites were checked");
    println!("{checked} fixed sites in {} cases", cases.len());
}

#[test]
fn moved_positions_follow_the_edits() {
    let edit = |start, end, replacement: &str| Edit {
        start,
        end,
        replacement: replacement.into(),
    };
    let (a, b) = (edit(2, 4, "xyz"), edit(10, 10, "++"));
    let edits = [&a, &b];
    assert_eq!(moved(0, &edits, false), 0);
    assert_eq!(moved(3, &edits, false), 2);
    assert_eq!(moved(3, &edits, true), 5);
    assert_eq!(moved(4, &edits, false), 5);
    assert_eq!(moved(10, &edits, false), 11);
    assert_eq!(moved(10, &edits, true), 13);
    assert_eq!(moved(11, &edits, false), 14);
}

const FIXABLE: &str = r#"use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, ServiceExt, tool, tool_router, transport::stdio};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "read")]
    async fn read(&self, path: String) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| McpError::internal_error(format!("{e:?}"), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    println!("starting");
    S.serve(stdio()).await?.waiting().await?;
    Ok(())
}
"#;

fn fixable_crate(name: &str) -> std::path::PathBuf {
    common::scratch_crate(
        name,
        &["rmcp = \"3.11\"".to_string()],
        &[
            ("src/main.rs", FIXABLE),
            ("src/clean.rs", "pub fn helper() -> u8 {\n    1\n}\n"),
        ],
    )
}

#[test]
fn fix_diff_prints_what_fix_would_write() {
    let dir = fixable_crate("fix_diff");
    let main = dir.join("src/main.rs");
    let out = common::mcp_lint(&dir, &[".", "--fix", "--diff", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::text(&out.stderr));
    let diff = common::text(&out.stdout);
    assert_eq!(
        std::fs::read_to_string(&main).expect("read"),
        FIXABLE,
        "--diff writes nothing"
    );
    // The `?` fix moves `{e:?}` into a tool result, where error_leaks_internals fixes it in a
    // second pass: the diff shows the end result.
    assert!(
        diff.contains("Err(e) => return Ok(CallToolResult::error("),
        "{diff}"
    );
    assert!(diff.contains("+    eprintln!(\"starting\");"), "{diff}");

    let out = common::mcp_lint(&dir, &[".", "--fix", "--unsafe-fixes"]);
    assert!(
        common::text(&out.stderr).contains("mcp-lint: applied "),
        "{}",
        common::text(&out.stderr)
    );
    let fixed = std::fs::read_to_string(&main).expect("read");
    assert_eq!(
        diff,
        mcp_lint::fix::unified_diff("src/main.rs", FIXABLE, &fixed),
        "--fix --diff printed exactly what --fix wrote"
    );
    let again = common::mcp_lint(&dir, &[".", "--fix", "--diff", "--unsafe-fixes"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(common::text(&again.stdout), "");
}

#[test]
fn summary_counts_files_with_findings_and_fixable_findings() {
    let dir = fixable_crate("fix_summary");
    std::fs::write(
        dir.join("src/other.rs"),
        "pub fn log() {\n    println!(\"x\");\n}\n",
    )
    .expect("write");
    let out = common::mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stderr = common::text(&out.stderr);
    // main.rs: println! (safe fix), `?` (unsafe fix), `{e:?}` is not yet in a tool result;
    // other.rs is not on the serving path; clean.rs has nothing.
    assert!(
        stderr.contains(
            "mcp-lint: 1 error, 1 warning in 1 file (3 Rust files read, 1 tool handler checked); 1 fixable with --fix (1 more with --unsafe-fixes)"
        ),
        "{stderr}\n{}",
        common::text(&out.stdout)
    );
    let out = common::mcp_lint(&dir, &[".", "--fix", "--message-format", "short"]);
    let stderr = common::text(&out.stderr);
    assert!(
        stderr.contains("mcp-lint: applied 1 fix in 1 file"),
        "{stderr}"
    );
    assert!(
        stderr.contains("0 errors, 1 warning in 1 file (3 Rust files read, 1 tool handler checked); 0 fixable with --fix (1 more with --unsafe-fixes)"),
        "{stderr}"
    );
}

#[test]
fn fixes_keep_the_users_own_message() {
    let main = r#"use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "connect")]
    async fn connect(&self, endpoint: String) -> Result<CallToolResult, McpError> {
        let (host, port) = endpoint
            .split_once(':')
            .ok_or_else(|| McpError::invalid_params("Invalid endpoint format: expected host:port", None))?;
        let port: u16 = port
            .parse()
            .map_err(|err| McpError::invalid_params(format!("bad port {port}: {err}"), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{host}:{port}"))]))
    }
}
"#;
    let dir = common::scratch_crate(
        "own_message",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/lib.rs", main)],
    );
    let out = common::mcp_lint(&dir, &[".", "--diff", "--unsafe-fixes"]);
    let diff = common::text(&out.stdout);
    assert!(
        diff.contains("None => return Ok(CallToolResult::error(vec![ContentBlock::text(\"Invalid endpoint format: expected host:port\")]))"),
        "{diff}"
    );
    assert!(
        diff.contains("Err(err) => return Ok(CallToolResult::error(vec![ContentBlock::text(format!(\"bad port {port}: {err}\"))]))"),
        "the closure's own name for the error is kept: {diff}"
    );
    assert!(!diff.contains("a required argument is missing"), "{diff}");
    assert!(!diff.contains("the value is missing"), "{diff}");
}
