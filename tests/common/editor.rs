//! The editor recipe's fixture, shared by `tests/editor.rs` and `tests/rust_analyzer.rs`.

use std::path::{Path, PathBuf};

/// A hand-rolled stdio server that also has an unused variable: one diagnostic from rustc,
/// one from mcp-lint. Its only dependency, serde_json, is one mcp-lint builds with, so cargo
/// finds it in its cache without the network.
pub const SERVER: &str = r#"use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn handle_tools_call(params: &Value) -> Value {
    let unused = 1;
    println!("calling {}", params["name"]);
    json!({ "content": [] })
}

fn handle_request(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("tools/call") => handle_tools_call(&request["params"]),
        _ => json!({ "error": { "code": -32601, "message": "method not found" } }),
    }
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let request: Value = serde_json::from_str(&line?).unwrap_or_default();
        writeln!(stdout, "{}", handle_request(&request))?;
    }
    Ok(())
}
"#;

pub fn fixture(name: &str) -> PathBuf {
    super::scratch_crate(
        name,
        &["serde_json = \"1\"".to_string()],
        &[("src/main.rs", SERVER)],
    )
}

/// PATH with the directory of the built `cargo-mcp-lint` first, as after `cargo install`.
pub fn path_with_mcp_lint() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"))
        .parent()
        .expect("a directory")
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest)))
        .expect("PATH joins")
}
