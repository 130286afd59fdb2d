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
    let out = common::build::oracle_cargo(dir, &["build", "--quiet"]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    common::build::oracle_target().join("debug").join(name)
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

/// The SDKs whose fixed ui-tests are built: rmcp, and the others whose ui-tests get fixes.
const FIXED_CASE_SDKS: &[&str] = &["rmcp", "tower-mcp", "rust-mcp-sdk"];

/// What a fixed ui-test needs besides its SDK to compile.
#[test]
#[ignore = "needs crates.io to build each SDK version the ui-tests use (slow); .ci/run runs it"]
fn fixed_ui_tests_still_compile_against_the_real_sdks() {
    if skip() {
        return;
    }
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    // `MCP_LINT_ORACLE_CASES=text`: only the cases whose path contains it (a local run).
    let only = std::env::var("MCP_LINT_ORACLE_CASES").ok();
    for case in common::ui_case::all() {
        if only
            .as_deref()
            .is_some_and(|o| !case.to_string_lossy().contains(o))
        {
            continue;
        }
        let Some(dir) = common::build::buildable_case_of(&case, "fixed", FIXED_CASE_SDKS) else {
            continue;
        };
        let diff = common::mcp_lint(&dir, &[".", "--diff", "--unsafe-fixes"]);
        if diff.status.code() != Some(1) {
            continue;
        }
        let before = common::build::compile_errors(&dir)
            .unwrap_or_else(|e| panic!("{}: cargo check failed: {e}", case.display()));
        let fix = common::mcp_lint(&dir, &[".", "--fix", "--unsafe-fixes"]);
        assert!(
            common::text(&fix.stderr).contains("mcp-lint: applied "),
            "{}: {}",
            case.display(),
            common::text(&fix.stderr)
        );
        let after = common::build::compile_errors(&dir)
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
    if only.is_some() {
        return;
    }
    let clean = checked.iter().filter(|(_, e)| e.is_empty()).count();
    assert!(
        checked.len() >= 12 && clean >= 8,
        "too few fixed cases that build: {clean} of {}",
        checked.len()
    );
    // Each SDK besides rmcp has fixed cases among them, built against the real crate.
    for sdk in &FIXED_CASE_SDKS[1..] {
        let of_sdk = checked.iter().filter(|(case, _)| {
            std::fs::read_to_string(case).is_ok_and(|s| {
                s.lines()
                    .any(|l| l.starts_with(&format!("//@ dep: {sdk} = ")))
            })
        });
        assert!(of_sdk.count() >= 1, "no fixed {sdk} case was built");
    }
}

/// The contract of the crate in `dir`, as JSON.
fn contract_json(dir: &Path) -> Value {
    let out = common::mcp_lint(dir, &["contract", ".", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("contract is JSON")
}

/// The tool named `name` in a JSON contract.
fn contract_tool<'a>(contract: &'a Value, name: &str) -> &'a Value {
    contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool `{name}` in {contract:#}"))
}

/// The channels of a tool's failure paths.
fn channels(tool: &Value) -> Vec<&str> {
    tool["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["channel"].as_str().unwrap_or_default())
        .collect()
}

/// One tool per channel, each failing the one way its contract lists.
const CONTRACT_SERVER: &str = r#"use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt, tool, tool_handler, tool_router, transport::stdio};

#[derive(Clone)]
pub struct Contracted;

#[tool_router]
impl Contracted {
    #[tool(description = "A failure the model reads: Err of Result<String, String>")]
    async fn missing(&self) -> Result<String, String> {
        std::fs::read_to_string("/nonexistent/file").map_err(|e| format!("cannot read the file: {e}"))
    }

    #[tool(description = "A failure the model reads: an error result")]
    async fn refuse(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::error(vec![ContentBlock::text("the value must be positive")]))
    }

    #[tool(description = "An execution failure as a JSON-RPC error")]
    async fn escape(&self) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string("/nonexistent/file")
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Argument validation as a JSON-RPC error")]
    async fn validate(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::invalid_params("n must be positive", None))
    }

    #[tool(description = "A failure sent as a success")]
    async fn hidden(&self) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string("/nonexistent/file") {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("Error: {e}"))])),
        }
    }

    #[tool(description = "A panic")]
    async fn boom(&self) -> String {
        let missing: Option<String> = None;
        missing.unwrap()
    }

    #[tool(description = "An exit")]
    async fn quit(&self) -> String {
        std::process::exit(3)
    }
}

#[tool_handler]
impl ServerHandler for Contracted {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Contracted.serve(stdio()).await?.waiting().await?;
    Ok(())
}
"#;

/// Calls each tool of `contract` named in `calls` (quitting ones in a session of their own,
/// followed by a call that must stay unanswered) and checks that the server's answer is what
/// the tool's only failure path promises. Returns the channels confirmed.
fn confirm_single_paths(
    binary: &Path,
    cwd: &Path,
    contract: &Value,
    calls: &[(&str, Value)],
) -> Vec<String> {
    let wait = Duration::from_secs(4);
    let mut confirmed = Vec::new();
    let mut failures = Vec::new();
    let (exits, answers): (Vec<_>, Vec<_>) = calls
        .iter()
        .cloned()
        .partition(|(name, _)| channels(contract_tool(contract, name)) == ["server_exit"]);
    let mut last = answers.clone();
    // After a panic the server must still answer: a last call that has an answer.
    if let Some(answered) = answers
        .iter()
        .find(|(name, _)| !channels(contract_tool(contract, name)).contains(&"no_answer"))
    {
        last.push(answered.clone());
    }
    let shared = common::wire::session(binary, cwd, &last, wait);
    let served_on = shared.response(last.len() as u64 + 1).is_some();
    for (i, (name, _)) in answers.iter().enumerate() {
        let tool = contract_tool(contract, name);
        let paths = tool["failures"].as_array().cloned().unwrap_or_default();
        assert_eq!(paths.len(), 1, "`{name}` has one failure path: {tool:#}");
        let answer = shared.response(i as u64 + 2);
        match common::wire::confirms(&paths[0], answer.as_ref(), shared.exited) {
            Ok(()) => confirmed.push(paths[0]["channel"].as_str().unwrap_or_default().to_string()),
            Err(e) => failures.push(format!("`{name}`: {e}")),
        }
        if paths[0]["channel"] == "no_answer" {
            assert!(
                served_on,
                "the server answers after `{name}` panicked: {:?}",
                shared.lines
            );
        }
    }
    for (name, args) in &exits {
        let tool = contract_tool(contract, name);
        let paths = tool["failures"].as_array().cloned().unwrap_or_default();
        assert_eq!(paths.len(), 1, "`{name}` has one failure path: {tool:#}");
        let alone = common::wire::session(
            binary,
            cwd,
            &[(name, args.clone()), (name, args.clone())],
            wait,
        );
        match common::wire::confirms(&paths[0], alone.response(2).as_ref(), alone.exited) {
            Ok(()) => confirmed.push("server_exit".to_string()),
            Err(e) => failures.push(format!("`{name}`: {e}")),
        }
        assert!(
            alone.response(3).is_none(),
            "a dead server answers nothing more"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    confirmed.sort();
    confirmed.dedup();
    confirmed
}

#[test]
#[ignore = "needs crates.io to build rmcp (slow); .ci/run runs it"]
fn rmcp_contract_is_what_the_wire_shows() {
    if skip() {
        return;
    }
    let dir = project("oracle-rmcp-contract", RMCP_DEPS, CONTRACT_SERVER);
    let contract = contract_json(&dir);
    let tools: Vec<&str> = contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        tools,
        [
            "missing", "refuse", "escape", "validate", "hidden", "boom", "quit"
        ]
    );
    let binary = build(&dir, "oracle-rmcp-contract");
    let calls: Vec<(&str, Value)> = tools.iter().map(|&t| (t, json!({}))).collect();
    let confirmed = confirm_single_paths(&binary, &dir, &contract, &calls);
    assert_eq!(
        confirmed,
        [
            "is_error",
            "jsonrpc_error",
            "no_answer",
            "server_exit",
            "success"
        ]
    );
    // The codes the contract gives are the ones on the wire.
    assert_eq!(
        contract_tool(&contract, "escape")["failures"][0]["code"],
        -32603
    );
    assert_eq!(
        contract_tool(&contract, "validate")["failures"][0]["code"],
        -32602
    );
}

#[test]
#[ignore = "needs crates.io to build rust-mcp-sdk (slow); .ci/run runs it"]
fn rust_mcp_sdk_contract_is_what_the_wire_shows() {
    if skip() {
        return;
    }
    let dir = project(
        "oracle-rust-mcp-sdk-contract",
        RUST_MCP_SDK_DEPS,
        RUST_MCP_SDK_SERVER,
    );
    let contract = contract_json(&dir);
    let dispatcher = contract_tool(&contract, "handle_call_tool_request");
    let line_of = |marker: &str| {
        RUST_MCP_SDK_SERVER
            .lines()
            .position(|l| l.contains(marker))
            .map(|i| i as u64 + 1)
            .unwrap_or_else(|| panic!("{marker} is in the server"))
    };
    // Each path of the dispatcher, with the call that takes it.
    let expected = [
        ("is_error", line_of("map_err(CallToolError::new)?"), "read"),
        (
            "is_error",
            line_of("CallToolError::unknown_tool"),
            "no_such_tool",
        ),
        ("no_answer", line_of("missing.unwrap()"), "boom"),
    ];
    let paths = dispatcher["failures"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let listed: Vec<(&str, u64)> = paths
        .iter()
        .map(|p| {
            (
                p["channel"].as_str().unwrap_or_default(),
                p["origin"]["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let mut wanted: Vec<(&str, u64)> = expected.iter().map(|(c, l, _)| (*c, *l)).collect();
    wanted.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, wanted, "{dispatcher:#}");
    let binary = build(&dir, "oracle-rust-mcp-sdk-contract");
    let calls: Vec<(&str, Value)> = expected
        .iter()
        .map(|(_, _, tool)| (*tool, json!({})))
        .chain([("read", json!({}))])
        .collect();
    let wire = common::wire::session(&binary, &dir, &calls, Duration::from_secs(4));
    for (i, (channel, line, tool)) in expected.iter().enumerate() {
        let path = paths
            .iter()
            .find(|p| p["channel"] == *channel && p["origin"]["line"] == *line)
            .expect("listed");
        if let Err(e) =
            common::wire::confirms(path, wire.response(i as u64 + 2).as_ref(), wire.exited)
        {
            panic!("`{tool}`: {e}");
        }
    }
    assert!(
        wire.response(calls.len() as u64 + 1).is_some(),
        "the server answers after a panic: {:?}",
        wire.lines
    );
}

#[test]
#[ignore = "needs crates.io to build the example with rmcp 0.8 (slow); .ci/run runs it"]
fn example_contract_is_what_the_wire_shows() {
    if skip() {
        return;
    }
    let example = common::repo().join("example/notes-server");
    let dir = common::repo().join("target/oracle/notes-server");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("project");
    let manifest = std::fs::read_to_string(example.join("Cargo.toml")).expect("manifest");
    std::fs::write(
        dir.join("Cargo.toml"),
        manifest.replacen("[dependencies]", "[workspace]\n\n[dependencies]", 1),
    )
    .expect("manifest");
    for file in ["main.rs", "notes.rs"] {
        std::fs::copy(example.join("src").join(file), dir.join("src").join(file)).expect("copy");
    }
    let contract = contract_json(&dir);
    let binary = build(&dir, "notes-server");
    // Run where there is no `notes/` directory, so every read and delete fails.
    let cwd = common::scratch_dir("notes-cwd");
    let paths_of = |name: &str| {
        contract_tool(&contract, name)["failures"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let find = |name: &str, channel: &str, kind: &str| {
        paths_of(name)
            .into_iter()
            .find(|p| p["channel"] == channel && p["kind"] == kind)
            .unwrap_or_else(|| panic!("`{name}` lists a {channel} {kind} path: {contract:#}"))
    };
    // Each call takes one path; `count` runs first, before `append` poisons the notes lock.
    let calls = [
        (
            "read_note",
            json!({"name": ""}),
            find("read_note", "jsonrpc_error", "validation"),
        ),
        (
            "read_note",
            json!({"name": "a"}),
            find("read_note", "jsonrpc_error", "execution"),
        ),
        (
            "delete",
            json!({"name": "a"}),
            find("delete", "success", "error_value"),
        ),
        ("count", json!({}), find("count", "no_answer", "expect")),
        (
            "append",
            json!({"name": "a", "line": "x"}),
            find("append", "no_answer", "index"),
        ),
    ];
    let requests: Vec<(&str, Value)> = calls.iter().map(|(t, a, _)| (*t, a.clone())).collect();
    let wire = common::wire::session(&binary, &cwd, &requests, Duration::from_secs(4));
    for (i, (tool, _, path)) in calls.iter().enumerate() {
        if let Err(e) =
            common::wire::confirms(path, wire.response(i as u64 + 2).as_ref(), wire.exited)
        {
            panic!("`{tool}`: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&cwd);
}
