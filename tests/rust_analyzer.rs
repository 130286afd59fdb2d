//! End to end with the real rust-analyzer: with `check.overrideCommand` set to the editor
//! recipe (`editor/rust-analyzer-check.sh`, which runs `cargo check` and `cargo mcp-lint`), a
//! saved file gets both rustc's and mcp-lint's diagnostics in `textDocument/publishDiagnostics`.
//! It needs rust-analyzer (`rustup component add rust-analyzer`, or `RUST_ANALYZER` naming a
//! binary), so it is `#[ignore]`d; `.ci/run` installs the component and runs it with
//! `--include-ignored`.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn rust_analyzer() -> Option<String> {
    let candidate = std::env::var("RUST_ANALYZER").unwrap_or_else(|_| "rust-analyzer".into());
    let ok = Command::new(&candidate)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(candidate)
}

fn send(stdin: &mut impl Write, message: &Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to rust-analyzer");
    stdin.flush().expect("flush");
}

/// Reads LSP messages on a thread, so the test can time out.
fn reader(stdout: impl Read + Send + 'static) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            if let Ok(value) = serde_json::from_slice(&body)
                && tx.send(value).is_err()
            {
                return;
            }
        }
    });
    rx
}

#[test]
#[ignore = "needs rust-analyzer (rustup component add rust-analyzer); .ci/run runs it"]
fn diagnostics_arrive_through_rust_analyzer() {
    if common::skip_slow("the rust-analyzer test") {
        return;
    }
    let ra = rust_analyzer().expect(
        "this test needs rust-analyzer: rustup component add rust-analyzer (or set RUST_ANALYZER)",
    );
    let dir = common::editor::fixture("ra_fixture");
    let root = dir.canonicalize().expect("canonical");
    let file = root.join("src/main.rs");
    let uri = |p: &std::path::Path| format!("file://{}", p.display());

    let mut child = Command::new(ra)
        .current_dir(&root)
        .env("PATH", common::editor::path_with_mcp_lint())
        .env("CARGO_NET_OFFLINE", "true")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rust-analyzer starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let messages = reader(child.stdout.take().expect("stdout"));

    let wrapper = common::repo().join("editor/rust-analyzer-check.sh");
    send(
        &mut stdin,
        &json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {
                "processId": null,
                "rootUri": uri(&root),
                "capabilities": { "textDocument": { "publishDiagnostics": {} } },
                "initializationOptions": {
                    "check": { "overrideCommand": ["sh", wrapper, "check"] },
                    "checkOnSave": true,
                    "cargo": { "buildScripts": { "enable": false } },
                    "procMacro": { "enable": false }
                }
            }
        }),
    );
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
    );
    send(
        &mut stdin,
        &json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": { "uri": uri(&file), "languageId": "rust", "version": 1, "text": common::editor::SERVER } }
        }),
    );
    send(
        &mut stdin,
        &json!({
            "jsonrpc": "2.0", "method": "textDocument/didSave",
            "params": { "textDocument": { "uri": uri(&file) } }
        }),
    );

    let deadline = Instant::now() + Duration::from_secs(240);
    let (mut ours, mut rustc) = (None, None);
    while Instant::now() < deadline && (ours.is_none() || rustc.is_none()) {
        let Ok(message) = messages.recv_timeout(Duration::from_secs(5)) else {
            continue;
        };
        // Answer server-to-client requests (workspace/configuration, progress) with null.
        if let (Some(id), Some(_)) = (message.get("id"), message.get("method")) {
            send(
                &mut stdin,
                &json!({ "jsonrpc": "2.0", "id": id, "result": null }),
            );
        }
        if message["method"] == "textDocument/publishDiagnostics" {
            let diagnostics = message["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for d in diagnostics {
                if d["source"] == "mcp_lint" {
                    ours = Some(d);
                } else if d["source"] == "rustc" && d["code"] == "unused_variables" {
                    rustc = Some(d);
                }
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let ours = ours.expect("an mcp-lint diagnostic within 240 s");
    assert_eq!(ours["code"], "stdout_in_stdio_server");
    assert_eq!(ours["range"]["start"]["line"], 6);
    let rustc = rustc.expect("cargo check's diagnostic too, within 240 s");
    assert_eq!(rustc["range"]["start"]["line"], 5);
}
