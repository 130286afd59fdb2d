//! The editor recipe: `editor/rust-analyzer-check.sh` runs `cargo check` and `cargo mcp-lint`
//! and prints both streams of cargo JSON messages, so rust-analyzer shows rustc's diagnostics
//! and mcp-lint's together. (`tests/rust_analyzer.rs` runs it under the real rust-analyzer.)

mod common;

use std::process::Command;

use common::editor::{fixture, path_with_mcp_lint};

#[test]
fn the_wrapper_prints_cargos_and_mcp_lints_diagnostics() {
    let dir = fixture("editor_wrapper");
    let out = Command::new("sh")
        .arg(common::repo().join("editor/rust-analyzer-check.sh"))
        .arg("check")
        .current_dir(&dir)
        .env("PATH", path_with_mcp_lint())
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .expect("sh runs");
    let stderr = common::text(&out.stderr);
    let mut codes = Vec::new();
    let mut finished = 0;
    for message in cargo_metadata::Message::parse_stream(out.stdout.as_slice()) {
        match message.expect("every line is a cargo message") {
            cargo_metadata::Message::CompilerMessage(m) => {
                if let Some(code) = m.message.code {
                    codes.push(code.code);
                }
            }
            cargo_metadata::Message::BuildFinished(_) => finished += 1,
            _ => {}
        }
    }
    assert!(
        codes.iter().any(|c| c == "unused_variables"),
        "{codes:?}\n{stderr}"
    );
    assert!(
        codes
            .iter()
            .any(|c| c == "mcp_lint::stdout_in_stdio_server"),
        "{codes:?}\n{stderr}"
    );
    assert_eq!(finished, 2, "both commands ran to the end");
    assert_eq!(
        out.status.code(),
        Some(1),
        "mcp-lint's deny-level finding: {stderr}"
    );
}
