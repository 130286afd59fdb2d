//! Contracts and findings of a crate, as `mcp-lint` prints them in JSON.

use std::path::Path;

use serde_json::Value;

/// (lint, file, line) of each finding of a lint run in cargo's JSON format.
pub fn findings(dir: &Path) -> Vec<(String, String, u64)> {
    let out = super::mcp_lint(dir, &[".", "--message-format", "json"]);
    let mut found = Vec::new();
    for line in super::text(&out.stdout).lines() {
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

pub fn contract(dir: &Path, args: &[&str]) -> (Value, String, i32) {
    let mut all = vec!["contract", ".", "--format", "json"];
    all.extend_from_slice(args);
    let out = super::mcp_lint(dir, &all);
    let stdout = super::text(&out.stdout);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("contract is JSON ({e}): {stdout}"));
    (
        json,
        super::text(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// An rmcp server with the given tool methods.
pub fn server(tools: &str) -> String {
    format!(
        r#"use rmcp::model::{{CallToolResult, ContentBlock}};
use rmcp::{{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router}};

#[derive(Clone)]
pub struct Server;

#[tool_router]
impl Server {{
{tools}
}}

#[tool_handler]
impl ServerHandler for Server {{}}

fn main() {{}}
"#
    )
}
