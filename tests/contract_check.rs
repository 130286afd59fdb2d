//! `mcp-lint contract --check`: unchanged, a new isError path and a removed tool exit 0; a new
//! JSON-RPC error path exits 1; what is not a saved contract exits 2.

mod common;

use std::path::Path;

use common::contract::server;
use serde_json::Value;

const READ: &str = r#"    #[tool(description = "Read")]
    async fn read(&self) -> Result<String, String> {
        Ok("text".to_string())
    }
"#;

const COUNT: &str = r#"    #[tool(description = "Count")]
    async fn count(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text("1")]))
    }
"#;

/// A crate whose `src/main.rs` is `server(tools)`, with its contract saved in `saved.json`.
fn saved_server(name: &str, tools: &[&str]) -> std::path::PathBuf {
    let dir = common::scratch_crate(
        name,
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", &server(&tools.concat()))],
    );
    let out = common::mcp_lint(&dir, &["contract", ".", "--write", "saved.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    dir
}

fn check(dir: &Path, tools: &[&str]) -> (String, i32) {
    std::fs::write(dir.join("src/main.rs"), server(&tools.concat())).expect("write");
    let out = common::mcp_lint(dir, &["contract", ".", "--check", "saved.json"]);
    (common::text(&out.stderr), out.status.code().unwrap_or(-1))
}

#[test]
fn check_unchanged_exits_0() {
    let dir = saved_server("check_unchanged", &[READ, COUNT]);
    let (stderr, code) = check(&dir, &[READ, COUNT]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("unchanged since the saved contract"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_a_new_is_error_path_is_reported_and_exits_0() {
    let dir = saved_server("check_is_error", &[READ, COUNT]);
    let failing_read = READ.replace(
        "Ok(\"text\".to_string())",
        "std::fs::read_to_string(\"/notes\").map_err(|e| e.to_string())",
    );
    let (stderr, code) = check(&dir, &[&failing_read, COUNT]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("tool `read` in src/main.rs"), "{stderr}");
    assert!(
        stderr.contains("+ is_error (from_error) at src/main.rs:"),
        "{stderr}"
    );
    assert!(stderr.contains("not worse"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_a_new_json_rpc_error_path_exits_1() {
    let dir = saved_server("check_jsonrpc", &[READ, COUNT]);
    let failing_count = COUNT.replace(
        "Ok(CallToolResult::success(vec![ContentBlock::text(\"1\")]))",
        "let n = std::fs::read_to_string(\"/count\")\n            .map_err(|e| McpError::internal_error(e.to_string(), None))?;\n        Ok(CallToolResult::success(vec![ContentBlock::text(n)]))",
    );
    let (stderr, code) = check(&dir, &[READ, &failing_count]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "+ jsonrpc_error -32603 internal_error (execution) at src/main.rs:16 in `Server::count`"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("worse: 1 new failure path the model cannot read"),
        "{stderr}"
    );
    // The Markdown for a job summary shows the change first; stdout holds only the Markdown.
    let out = common::mcp_lint(
        &dir,
        &[
            "contract",
            ".",
            "--format",
            "markdown",
            "--check",
            "saved.json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let markdown = common::text(&out.stdout);
    let changes = markdown
        .find("### Changes since the saved contract")
        .expect("a changes section");
    assert!(changes < markdown.find("### tool `read`").expect("the tools"));
    assert!(
        markdown.contains("**Worse**: 1 new failure path the model cannot read."),
        "{markdown}"
    );
    assert!(markdown.contains(
        "  - added: jsonrpc_error -32603 internal_error (execution) at src/main.rs:16 in `Server::count`"
    ));
    // The same path again, saved, is the new baseline.
    let out = common::mcp_lint(&dir, &["contract", ".", "--write", "saved.json"]);
    assert_eq!(out.status.code(), Some(0));
    let (stderr, code) = check(&dir, &[READ, &failing_count]);
    assert_eq!(code, 0, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_a_removed_tool_is_reported_and_exits_0() {
    let dir = saved_server("check_removed", &[READ, COUNT]);
    let (stderr, code) = check(&dir, &[COUNT]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("tool `read` (removed) in src/main.rs"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_refuses_what_is_not_a_saved_contract() {
    let dir = saved_server("check_refuses", &[READ]);
    for (text, message) in [
        ("not json", "not a JSON contract"),
        ("{\"version\": 2, \"tools\": []}", "format version 2"),
        ("{\"tools\": []}", "no `version`"),
        ("{\"version\": 1}", "missing field `tools`"),
    ] {
        std::fs::write(dir.join("bad.json"), text).expect("write");
        let out = common::mcp_lint(&dir, &["contract", ".", "--check", "bad.json"]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let stderr = common::text(&out.stderr);
        assert!(stderr.contains(message), "{text}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing is printed before the error");
    }
    let out = common::mcp_lint(&dir, &["contract", ".", "--check", "missing.json"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cargo_mode_and_usage_errors() {
    let dir = saved_server("cargo_mode", &[READ, COUNT]);
    let out = common::cargo_mcp_lint(&dir, &["contract", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("saved.json")).expect("saved"))
            .expect("JSON");
    assert_eq!(
        json, saved,
        "cargo mode and path mode give the same contract"
    );
    let out = common::mcp_lint(&dir, &["contract", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("no/such/dir: no such file or directory"));
    let out = common::mcp_lint(&dir, &["contract", "--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = common::mcp_lint(&dir, &["contract", ".", "--write", "no/such/dir/c.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("cannot write no/such/dir/c.json"));
    let _ = std::fs::remove_dir_all(&dir);
}
