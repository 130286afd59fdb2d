//! SDK oracles: real servers built from crates.io, driven over stdio, confirm what the lints
//! claim about the wire — and that the fixes mcp-lint applies change it as promised.
//! They download and build real SDK crates from crates.io (about a minute each on two cores),
//! so they are `#[ignore]`d: `.ci/run` runs them with `--include-ignored`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn skip() -> bool {
    common::skip_slow("the SDK oracles")
}

/// A scratch server crate under target/oracle, sharing one target dir between runs.
fn project(name: &str, manifest_deps: &str, main: &str) -> PathBuf {
    let root = common::repo().join("target/oracle");
    let dir = root.join(name);
    let _ = std::fs::remove_dir_all(dir.join("src"));
    std::fs::create_dir_all(dir.join("src")).expect("create project");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\n{manifest_deps}"
        ),
    )
    .expect("manifest");
    std::fs::write(dir.join("src/main.rs"), main).expect("main.rs");
    dir
}

fn build(dir: &Path, name: &str) -> PathBuf {
    let target = common::repo().join("target/oracle/target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    target.join("debug").join(name)
}

/// Sends `initialize`, `notifications/initialized` and `calls` (as `tools/call` with ids
/// 2, 3, ..), waits, and returns every line the server wrote to stdout.
fn drive(binary: &Path, calls: &[(&str, Value)]) -> Vec<String> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut send = |v: Value| writeln!(stdin, "{v}").expect("write request");
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "oracle", "version": "0"}}}),
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for (i, (name, args)) in calls.iter().enumerate() {
        send(
            json!({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
            "params": {"name": name, "arguments": args}}),
        );
    }
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(4);
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    lines
}

fn response(lines: &[String], id: u64) -> Option<Value> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == id)
}

fn lint_codes(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![".", "--message-format", "short"];
    args.extend_from_slice(extra);
    let out = common::mcp_lint(dir, &args);
    format!("{}{}", common::text(&out.stdout), common::text(&out.stderr))
}

const RMCP_SERVER: &str = r#"use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt, tool, tool_handler, tool_router, transport::stdio};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub n: i64,
}

#[derive(Clone)]
pub struct Oracle;

#[tool_router]
impl Oracle {
    #[tool(description = "An execution failure")]
    async fn escape(&self) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string("/nonexistent/file")
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Argument validation")]
    async fn validate(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if args.n <= 0 {
            return Err(McpError::invalid_params("n must be positive", None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(args.n.to_string())]))
    }

    #[tool(description = "A failure sent as a success")]
    async fn hidden(&self) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string("/nonexistent/file") {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("Error: {e}"))])),
        }
    }

    #[tool(description = "A custom code")]
    async fn coded(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::new(rmcp::model::ErrorCode(-32050), "quota exceeded", None))
    }

    #[tool(description = "A panic")]
    async fn boom(&self) -> String {
        let missing: Option<String> = None;
        missing.unwrap()
    }
}

#[tool_handler]
impl ServerHandler for Oracle {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt().init();
    println!("starting");
    Oracle.serve(stdio()).await?.waiting().await?;
    Ok(())
}
"#;

const RMCP_DEPS: &str = "rmcp = { version = \"3.11\", features = [\"server\", \"transport-io\", \"macros\"] }\ntokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\", \"io-std\"] }\nserde = { version = \"1\", features = [\"derive\"] }\nschemars = \"1\"\ntracing-subscriber = \"0.3\"\n";

#[test]
#[ignore = "needs crates.io to build rmcp (slow); .ci/run runs it"]
fn rmcp_wire_before_and_after_the_fixes() {
    if skip() {
        return;
    }
    let dir = project("oracle-rmcp", RMCP_DEPS, RMCP_SERVER);
    let findings = lint_codes(&dir, &[]);
    for code in [
        "error_escapes_tool",
        "validation_as_protocol_error",
        "error_as_success",
        "panic_in_tool",
        "stdout_in_stdio_server",
        "reserved_error_code",
    ] {
        assert!(findings.contains(code), "{code} missing:\n{findings}");
    }
    let calls = [
        ("escape", json!({})),
        ("validate", json!({"n": 0})),
        ("hidden", json!({})),
        ("boom", json!({})),
        ("coded", json!({})),
    ];

    let before = drive(&build(&dir, "oracle-rmcp"), &calls);
    assert_eq!(
        before.first().map(String::as_str),
        Some("starting"),
        "{before:?}"
    );
    assert!(
        before.iter().any(|l| l.contains("INFO")),
        "rmcp's own logs reach stdout: {before:?}"
    );
    assert_eq!(
        response(&before, 2).expect("escape answered")["error"]["code"],
        -32603
    );
    assert_eq!(
        response(&before, 3).expect("validate answered")["error"]["code"],
        -32602
    );
    assert_eq!(
        response(&before, 4).expect("hidden answered")["result"]["isError"],
        false
    );
    assert!(
        response(&before, 5).is_none(),
        "a panic leaves the request unanswered"
    );

    let fixed = lint_codes(&dir, &["--fix", "--unsafe-fixes"]);
    assert!(fixed.contains("applied 6 fixes in 1 file"), "{fixed}");

    let after = drive(&build(&dir, "oracle-rmcp"), &calls);
    for line in &after {
        assert!(
            serde_json::from_str::<Value>(line).is_ok(),
            "non-JSON on stdout: {line}"
        );
    }
    for id in [2, 3, 4, 6] {
        let r = response(&after, id).unwrap_or_else(|| panic!("{id} answered: {after:?}"));
        assert_eq!(r["result"]["isError"], true, "{r}");
    }
    assert!(response(&after, 5).is_none());
}

const RUST_MCP_SDK_SERVER: &str = r#"use async_trait::async_trait;
use rust_mcp_sdk::{
    error::SdkResult,
    mcp_server::{server_runtime, McpServerOptions, ServerHandler},
    schema::*,
    *,
};

#[derive(Default)]
struct Handler {}

#[async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: std::sync::Arc<dyn McpServer>,
    ) -> std::result::Result<CallToolResult, CallToolError> {
        match params.name.as_str() {
            "read" => {
                let text = std::fs::read_to_string("/nonexistent/file").map_err(CallToolError::new)?;
                Ok(CallToolResult::text_content(vec![text.into()]))
            }
            "boom" => {
                let missing: Option<String> = None;
                Ok(CallToolResult::text_content(vec![missing.unwrap().into()]))
            }
            _ => Err(CallToolError::unknown_tool(params.name)),
        }
    }
}

#[tokio::main]
async fn main() -> SdkResult<()> {
    println!("starting");
    let server_details = InitializeResult {
        server_info: Implementation {
            name: "oracle".into(),
            version: "0.1.0".into(),
            title: None,
            description: None,
            icons: vec![],
            website_url: None,
        },
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools { list_changed: None }),
            ..Default::default()
        },
        protocol_version: ProtocolVersion::V2025_11_25.into(),
        instructions: None,
        meta: None,
    };
    let transport = StdioTransport::new(TransportOptions::default())?;
    let handler = Handler {}.to_mcp_server_handler();
    let server = server_runtime::create_server(McpServerOptions {
        transport,
        handler,
        server_details,
        task_store: None,
        client_task_store: None,
        message_observer: None,
    });
    server.start().await
}
"#;

const RUST_MCP_SDK_DEPS: &str = "rust-mcp-sdk = \"~1.1\"\ntokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }\nasync-trait = \"0.1\"\nserde = { version = \"1\", features = [\"derive\"] }\n";

#[test]
#[ignore = "needs crates.io to build rust-mcp-sdk (slow); .ci/run runs it"]
fn rust_mcp_sdk_wire_matches_the_lints() {
    if skip() {
        return;
    }
    let dir = project(
        "oracle-rust-mcp-sdk",
        RUST_MCP_SDK_DEPS,
        RUST_MCP_SDK_SERVER,
    );
    let findings = lint_codes(&dir, &[]);
    assert!(findings.contains("panic_in_tool"), "{findings}");
    assert!(findings.contains("stdout_in_stdio_server"), "{findings}");
    assert!(
        !findings.contains("error_escapes_tool"),
        "`?` on CallToolError is an isError result: {findings}"
    );

    let calls = [
        ("read", json!({})),
        ("boom", json!({})),
        ("read", json!({})),
    ];
    let before = drive(&build(&dir, "oracle-rust-mcp-sdk"), &calls);
    assert_eq!(
        before.first().map(String::as_str),
        Some("starting"),
        "{before:?}"
    );
    assert_eq!(
        response(&before, 2).expect("read answered")["result"]["isError"],
        true
    );
    assert!(
        response(&before, 3).is_none(),
        "a panic leaves the request unanswered"
    );
    assert!(
        response(&before, 4).is_some(),
        "the server keeps serving after a panic"
    );

    let fixed = lint_codes(&dir, &["--fix"]);
    assert!(fixed.contains("applied 1 fix in 1 file"), "{fixed}");
    let after = drive(&build(&dir, "oracle-rust-mcp-sdk"), &calls);
    for line in &after {
        assert!(
            serde_json::from_str::<Value>(line).is_ok(),
            "non-JSON on stdout: {line}"
        );
    }
}

/// What a fixed ui-test needs besides its SDK to compile.
const COMPILE_DEPS: &str = "tokio = { version = \"1\", features = [\"full\"] }\nanyhow = \"1\"\nserde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\nschemars = \"1\"\ntracing = \"0.1\"\ntracing-subscriber = \"0.3\"\n";

/// A ui-test case as a crate that can be built: its manifest gets `[workspace]`, the
/// features rmcp's servers need and [`COMPILE_DEPS`]; its made-up lock file is dropped.
fn buildable_case(case: &Path) -> Option<PathBuf> {
    let source = std::fs::read_to_string(case).expect("case");
    let deps = common::ui_case::deps(&source);
    if !deps.iter().any(|d| d.starts_with("rmcp = ")) {
        return None;
    }
    let (scratch, _) = common::ui_case::scratch(case).expect("scratch crate");
    let lint = case.parent()?.file_name()?.to_string_lossy().into_owned();
    let name = format!("fixed-{lint}-{}", case.file_stem()?.to_string_lossy());
    let dir = common::repo()
        .join("target/oracle")
        .join(name.replace('_', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("project");
    let target = common::ui_case::target(&source);
    let mut code = source.clone();
    // Most cases are tools without a program around them: an empty `main` (which serves
    // nothing, so the findings stay the same) lets them build.
    if target == "src/main.rs" && !source.contains("fn main(") {
        code.push_str("\nfn main() {}\n");
    }
    std::fs::write(dir.join(target), code).expect("write case");
    let manifest = std::fs::read_to_string(scratch.join("Cargo.toml")).expect("manifest");
    let mut out = String::new();
    for line in manifest.lines() {
        match line.strip_prefix("rmcp = \"") {
            Some(version) => out.push_str(&format!(
                "rmcp = {{ version = \"{}, features = [\"server\", \"macros\", \"transport-io\"] }}\n",
                version
            )),
            None if line.starts_with("tracing-subscriber") || line.starts_with("serde_json") => {}
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
        if line == "[dependencies]" {
            out.push_str(COMPILE_DEPS);
        }
    }
    out = out.replacen("[dependencies]", "[workspace]\n\n[dependencies]", 1);
    std::fs::write(dir.join("Cargo.toml"), out).expect("manifest");
    let _ = std::fs::remove_dir_all(&scratch);
    Some(dir)
}

/// `cargo check`'s errors in the crate itself (message texts), or `Err` when cargo failed
/// before compiling it (a dependency that does not resolve, say).
fn compile_errors(dir: &Path) -> Result<Vec<String>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--quiet", "--message-format", "json"])
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            common::repo().join("target/oracle/target"),
        )
        .output()
        .expect("cargo runs");
    let mut errors = Vec::new();
    for message in cargo_metadata::Message::parse_stream(out.stdout.as_slice()) {
        if let Ok(cargo_metadata::Message::CompilerMessage(m)) = message
            && m.message.level == cargo_metadata::diagnostic::DiagnosticLevel::Error
        {
            errors.push(m.message.message);
        }
    }
    if !out.status.success() && errors.is_empty() {
        return Err(common::text(&out.stderr));
    }
    errors.sort();
    Ok(errors)
}

#[test]
#[ignore = "needs crates.io to build each rmcp version the ui-tests use (slow); .ci/run runs it"]
fn fixed_rmcp_ui_tests_still_compile_against_the_real_sdk() {
    if skip() {
        return;
    }
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for case in common::ui_case::all() {
        let Some(dir) = buildable_case(&case) else {
            continue;
        };
        let diff = common::mcp_lint(&dir, &[".", "--diff", "--unsafe-fixes"]);
        if diff.status.code() != Some(1) {
            continue;
        }
        let before = compile_errors(&dir)
            .unwrap_or_else(|e| panic!("{}: cargo check failed: {e}", case.display()));
        let fix = common::mcp_lint(&dir, &[".", "--fix", "--unsafe-fixes"]);
        assert!(
            common::text(&fix.stderr).contains("mcp-lint: applied "),
            "{}: {}",
            case.display(),
            common::text(&fix.stderr)
        );
        let after = compile_errors(&dir)
            .unwrap_or_else(|e| panic!("{}: cargo check failed: {e}", case.display()));
        let new: Vec<&String> = after.iter().filter(|e| !before.contains(e)).collect();
        if !new.is_empty() {
            failures.push(format!(
                "{}: the fixes broke the build: {new:?}\n{}",
                case.display(),
                common::text(&diff.stdout)
            ));
        }
        checked.push((case.display().to_string(), before));
    }
    for (case, errors) in &checked {
        println!(
            "{case}: {} errors before the fixes {errors:?}",
            errors.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let clean = checked.iter().filter(|(_, e)| e.is_empty()).count();
    assert!(
        checked.len() >= 10 && clean >= 8,
        "too few fixed rmcp cases that build: {clean} of {}",
        checked.len()
    );
}
