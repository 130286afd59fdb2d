//! `mcp-lint contract`: the findings and the contract agree on every ui-test crate, each
//! handler has its own paths, and the output is the documented one in every format.

mod common;

use common::contract::{contract, findings, server};
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

/// The contract of the bundled example in each format, compared in full with
/// `tests/contract/notes-server.*` (re-written with `MCP_LINT_BLESS=1`).
#[test]
fn the_example_server_contract_in_every_format() {
    let dir = common::repo().join("example/notes-server");
    let mut failures = Vec::new();
    for (format, extension) in [("human", "txt"), ("markdown", "md"), ("json", "json")] {
        let out = common::mcp_lint(
            &dir,
            &["contract", ".", "--format", format, "--color", "never"],
        );
        let actual = format!(
            "{}{}exit code: {}\n",
            common::text(&out.stdout),
            common::text(&out.stderr),
            out.status.code().unwrap_or(-1)
        );
        let expected_path = common::repo()
            .join("tests/contract")
            .join(format!("notes-server.{extension}"));
        if std::env::var_os("MCP_LINT_BLESS").is_some() {
            std::fs::write(&expected_path, &actual).expect("bless");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{format}: output differs\n--- expected\n{expected}\n--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn colour_only_when_asked() {
    let dir = common::repo().join("example/notes-server");
    let always = common::mcp_lint(&dir, &["contract", ".", "--color", "always"]);
    assert!(common::text(&always.stdout).contains("\u{1b}[33mjsonrpc_error\u{1b}[0m"));
    let never = common::mcp_lint(&dir, &["contract", ".", "--color", "never"]);
    assert!(!common::text(&never.stdout).contains('\u{1b}'));
    // `auto` is off when stdout is not a terminal, as here.
    let auto = common::mcp_lint(&dir, &["contract", "."]);
    assert_eq!(auto.stdout, never.stdout);
}

/// Every contract mcp-lint writes (the example's, every ui-test's) is valid against the
/// schema in `docs/contract.schema.json`.
#[test]
fn json_contracts_follow_the_documented_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(common::repo().join("docs/contract.schema.json")).expect("schema"),
    )
    .expect("schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("contract.schema.json", schema)
        .expect("schema loads");
    let index = compiler
        .compile("contract.schema.json", &mut schemas)
        .expect("schema compiles");
    let (example, _, _) = contract(&common::repo().join("example/notes-server"), &[]);
    let mut contracts = vec![("example".to_string(), example)];
    for case in common::ui_case::all() {
        let (dir, _) = common::ui_case::scratch(&case).expect("scratch crate");
        contracts.push((case.display().to_string(), contract(&dir, &[]).0));
        let _ = std::fs::remove_dir_all(&dir);
    }
    let mut channels = std::collections::BTreeSet::new();
    for (name, c) in &contracts {
        if let Err(e) = schemas.validate(c, index) {
            panic!("{name}: the contract does not follow the schema:\n{e:#}\n{c:#}");
        }
        for f in c["tools"].as_array().into_iter().flatten() {
            for p in f["failures"].as_array().into_iter().flatten() {
                channels.insert(p["channel"].as_str().unwrap_or_default().to_string());
            }
        }
    }
    // Every channel occurs, so each part of the schema was checked on real output.
    assert_eq!(
        channels.into_iter().collect::<Vec<_>>(),
        [
            "is_error",
            "jsonrpc_error",
            "no_answer",
            "server_exit",
            "success"
        ]
    );
    // The schema really constrains the output.
    let mut broken = contracts[0].1.clone();
    broken["tools"][0]["failures"][0]["channel"] = serde_json::json!("loud");
    assert!(schemas.validate(&broken, index).is_err());
}

/// A helper two tools share is on both contracts (the lint reports its panic once), and a
/// dispatcher does not repeat the paths of the tools it calls.
#[test]
fn each_handler_has_its_own_paths() {
    let shared = r#"    #[tool(description = "A")]
    async fn first(&self) -> String {
        first_line("a")
    }

    #[tool(description = "B")]
    async fn second(&self) -> String {
        first_line("b")
    }
"#;
    let code = server(shared).replace(
        "fn main() {}",
        "fn first_line(text: &str) -> String {\n    text.lines().next().unwrap().to_string()\n}\n\nfn main() {}",
    );
    let dir = common::scratch_crate(
        "own_paths",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", &code)],
    );
    let (shared_contract, stderr, status) = contract(&dir, &[]);
    assert_eq!(status, 0, "{stderr}");
    let lints: Vec<(String, Value, Value)> = shared_contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| {
            t["failures"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |f| {
                    (
                        t["name"].as_str().unwrap_or_default().to_string(),
                        f["chain"].clone(),
                        f["lint"].clone(),
                    )
                })
        })
        .collect();
    assert_eq!(
        lints,
        [
            (
                "first".to_string(),
                serde_json::json!(["first", "first_line"]),
                serde_json::json!("panic_in_tool")
            ),
            (
                "second".to_string(),
                serde_json::json!(["second", "first_line"]),
                serde_json::json!("panic_in_tool")
            ),
        ]
    );
    let found = findings(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    let _ = std::fs::remove_dir_all(&dir);

    // A manual dispatcher calling a tool fn: the protocol errors the tool's helper makes are
    // the tool's, not the dispatcher's too.
    let manual = r#"use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Server;

impl Server {
    async fn fetch(&self) -> Result<CallToolResult, McpError> {
        let body = load()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(body)]))
    }
}

fn load() -> Result<String, McpError> {
    std::fs::read_to_string("/body").map_err(|e| McpError::internal_error(e.to_string(), None))
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "fetch" => self.fetch().await,
            _ => Err(McpError::invalid_params("unknown tool", None)),
        }
    }
}

fn main() {}
"#;
    let dir = common::scratch_crate(
        "dispatched",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", manual)],
    );
    let (contract, stderr, _) = contract(&dir, &[]);
    let tool = |name: &str| {
        contract["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {stderr}{contract:#}"))
            .clone()
    };
    let kinds = |t: &Value| -> Vec<String> {
        t["failures"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| format!("{} {} {}", f["channel"], f["kind"], f["origin"]["line"]))
            .collect()
    };
    assert_eq!(tool("fetch")["kind"], "tool");
    // Made in `load`, which only the tool calls.
    assert_eq!(
        kinds(&tool("fetch")),
        ["\"jsonrpc_error\" \"execution\" 15"]
    );
    assert_eq!(
        kinds(&tool("call_tool")),
        ["\"jsonrpc_error\" \"unknown_tool\" 26"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tool's `Err` forwarded unchanged from a crate fn (`helper()?`, `helper().await` as the
/// tail) is made at that fn's exits: the contract's `isError` paths sit there, the same
/// paths as when the code was written in the tool, and a helper that never returns `Err`
/// gives none.
#[test]
fn forwarded_errors_are_placed_where_they_are_made() {
    let tools = r#"    #[tool(description = "Inline")]
    async fn inline(&self) -> Result<String, String> {
        let text = std::fs::read_to_string("a.txt").map_err(|e| e.to_string())?;
        if text.is_empty() {
            return Err("a.txt is empty".to_string());
        }
        Ok(text)
    }

    #[tool(description = "Forwarded")]
    async fn forwarded(&self) -> Result<String, String> {
        let header = header("b.txt")?;
        body(header).await
    }

    #[tool(description = "Never fails")]
    async fn steady(&self) -> Result<String, String> {
        greeting()
    }
"#;
    let helpers = r#"fn header(path: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if text.is_empty() {
        return Err(format!("{path} is empty"));
    }
    Ok(text)
}

async fn body(header: String) -> Result<String, String> {
    let rest = std::fs::read_to_string("c.txt").map_err(|e| e.to_string())?;
    Ok(header + &rest)
}

fn greeting() -> Result<String, String> {
    Ok("hello".to_string())
}

fn main() {}"#;
    let code = server(tools).replace("fn main() {}", helpers);
    let dir = common::scratch_crate(
        "forwarded_paths",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", &code)],
    );
    let (c, stderr, status) = contract(&dir, &[]);
    assert_eq!(status, 0, "{stderr}");
    let line_of = |needle: &str| {
        code.lines()
            .position(|l| l.contains(needle))
            .map(|i| i as u64 + 1)
            .expect("the line is in the code")
    };
    let paths = |tool: &str| -> Vec<u64> {
        c["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["name"] == tool)
            .flat_map(|t| t["failures"].as_array().into_iter().flatten())
            .filter(|f| f["channel"] == "is_error")
            .filter_map(|f| f["origin"]["line"].as_u64())
            .collect()
    };
    assert_eq!(
        paths("inline"),
        [
            line_of("read_to_string(\"a.txt\")"),
            line_of("return Err(\"a.txt is empty\""),
        ],
        "{c:#}"
    );
    assert_eq!(
        paths("forwarded"),
        [
            line_of("read_to_string(path)"),
            line_of("return Err(format!(\"{path} is empty\"))"),
            line_of("read_to_string(\"c.txt\")"),
        ],
        "{c:#}"
    );
    assert!(paths("steady").is_empty(), "{c:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fn whose whole body hands its parameters to another handler of the same role is that
/// handler under another name: moving a dispatcher's body into a helper leaves one
/// dispatcher in the contract, the fn that does the work.
#[test]
fn a_wrapper_of_a_handler_is_listed_once() {
    let code = r#"use serde_json::{Value, json};
use std::io::BufRead;

fn shout(args: &Value) -> Value {
    let text = args["text"].as_str().unwrap_or_default();
    json!({ "content": [{ "type": "text", "text": text.to_uppercase() }] })
}

fn route_call(params: &Value) -> Value {
    match params["name"].as_str() {
        Some("shout") => shout(&params["arguments"]),
        _ => json!({ "content": [{ "type": "text", "text": "no such tool" }], "isError": true }),
    }
}

fn route(params: &Value) -> Value {
    route_call(params)
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let reply = match request["method"].as_str() {
            Some("tools/call") => route(&request["params"]),
            _ => json!({ "error": { "code": -32601, "message": "no such method" } }),
        };
        println!("{}", json!({ "jsonrpc": "2.0", "id": request["id"], "result": reply }));
    }
}
"#;
    let dir = common::scratch_crate(
        "wrapper_listed_once",
        &["serde_json = \"1\"".to_string()],
        &[("src/main.rs", code)],
    );
    let (contract, stderr, _) = contract(&dir, &[]);
    let dispatchers: Vec<&str> = contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["kind"] == "dispatcher")
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(dispatchers, ["route_call"], "{stderr}\n{contract:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An exit whose error may be made by either of two callees (a trait object's two
/// implementations) answers with either code: the contract lists a path per code, the same
/// paths whichever implementation the file declares first.
#[test]
fn an_exit_that_may_answer_with_two_codes_has_a_path_for_each() {
    let missing = "struct Missing;\n\nimpl Store for Missing {\n    fn read(&self, uri: &str) -> Result<ReadResourceResult, McpError> {\n        Err(McpError::resource_not_found(uri.to_string(), None))\n    }\n}\n";
    let broken = "struct Broken;\n\nimpl Store for Broken {\n    fn read(&self, _uri: &str) -> Result<ReadResourceResult, McpError> {\n        Err(McpError::internal_error(\"disk failed\", None))\n    }\n}\n";
    let handler = r#"use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Server {
    store: Box<dyn Store>,
}

impl ServerHandler for Server {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        self.store.read(&request.uri)
    }
}

trait Store: Send + Sync {
    fn read(&self, uri: &str) -> Result<ReadResourceResult, McpError>;
}
"#;
    let mut seen = Vec::new();
    for (name, order) in [
        ("codes_ab", [missing, broken]),
        ("codes_ba", [broken, missing]),
    ] {
        let code = format!("{handler}\n{}\n{}\nfn main() {{}}\n", order[0], order[1]);
        let dir = common::scratch_crate(
            name,
            &["rmcp = \"3.11\"".to_string()],
            &[("src/main.rs", &code)],
        );
        let (contract, stderr, status) = contract(&dir, &[]);
        assert_eq!(status, 0, "{stderr}");
        let paths: Vec<String> = contract["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|t| t["failures"].as_array().into_iter().flatten())
            .map(|f| format!("{} {} {}", f["code"], f["constructor"], f["origin"]["line"]))
            .collect();
        seen.push(paths);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(
        seen[0],
        [
            "-32603 \"internal_error\" 15",
            "-32002 \"resource_not_found\" 15"
        ]
    );
    assert_eq!(seen[0], seen[1]);
}

/// A hand-rolled server answers a tool's failure with the code its own error object carries:
/// a tool whose error text is about its arguments does not make that -32602 when the
/// dispatcher's answer writes -32603. The tool's path names no code it does not know.
#[test]
fn a_hand_rolled_tool_failure_has_no_code_the_server_does_not_send() {
    let code = r#"use serde_json::{Value, json};
use std::io::BufRead;

fn halve(args: &Value) -> Result<Value, String> {
    let n = args["n"].as_f64().ok_or("argument n must be a number")?;
    Ok(json!(n / 2.0))
}

fn call(params: &Value) -> Result<Value, String> {
    match params["name"].as_str() {
        Some("halve") => halve(&params["arguments"]),
        _ => Err("unknown tool".to_string()),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let outcome = match request["method"].as_str() {
            Some("tools/call") => call(&request["params"]),
            _ => Err("method not found".to_string()),
        };
        let reply = match outcome {
            Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
        };
        println!("{reply}");
    }
}
"#;
    let dir = common::scratch_crate(
        "hand_rolled_codes",
        &["serde_json = \"1\"".to_string()],
        &[("src/main.rs", code)],
    );
    let (contract, stderr, _) = contract(&dir, &[]);
    let halve = contract["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["name"] == "halve")
        .unwrap_or_else(|| panic!("no tool `halve`: {stderr}\n{contract:#}"));
    let codes: Vec<&Value> = halve["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["channel"] == "jsonrpc_error")
        .map(|f| &f["code"])
        .collect();
    assert!(!codes.is_empty(), "{contract:#}");
    assert!(
        codes.iter().all(|c| c.is_null() || *c == -32603),
        "a code the server does not send: {codes:?}\n{contract:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hand-rolled server answers with what it writes: the contract's success shapes of its
/// dispatcher are the results it sends, the same whether a fn builds the response and returns
/// it as a `Value` or the request loop builds and prints it itself.
#[test]
fn a_hand_rolled_dispatcher_succeeds_with_what_it_writes() {
    let answer = r#"json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "content": [{ "type": "text", "text": text }] } })"#;
    let in_a_fn = format!(
        "use serde_json::{{Value, json}};\n\
         fn answer(request: &Value) -> Value {{\n\
         \x20   match request[\"params\"][\"name\"].as_str() {{\n\
         \x20       Some(\"echo\") => {{ let text = request[\"params\"][\"arguments\"].to_string(); {answer} }}\n\
         \x20       _ => json!({{ \"jsonrpc\": \"2.0\", \"id\": request[\"id\"], \"error\": {{ \"code\": -32602, \"message\": \"unknown tool\" }} }}),\n\
         \x20   }}\n\
         }}\n\
         fn main() {{\n\
         \x20   for line in std::io::stdin().lines().map_while(Result::ok) {{\n\
         \x20       let request: Value = serde_json::from_str(&line).unwrap_or_default();\n\
         \x20       if request[\"method\"] == \"tools/call\" {{ println!(\"{{}}\", answer(&request)); }}\n\
         \x20   }}\n\
         }}\n"
    );
    let in_the_loop = format!(
        "use serde_json::{{Value, json}};\n\
         fn main() {{\n\
         \x20   for line in std::io::stdin().lines().map_while(Result::ok) {{\n\
         \x20       let request: Value = serde_json::from_str(&line).unwrap_or_default();\n\
         \x20       if request[\"method\"] != \"tools/call\" {{ continue; }}\n\
         \x20       let response = match request[\"params\"][\"name\"].as_str() {{\n\
         \x20           Some(\"echo\") => {{ let text = request[\"params\"][\"arguments\"].to_string(); {answer} }}\n\
         \x20           _ => json!({{ \"jsonrpc\": \"2.0\", \"id\": request[\"id\"], \"error\": {{ \"code\": -32602, \"message\": \"unknown tool\" }} }}),\n\
         \x20       }};\n\
         \x20       println!(\"{{response}}\");\n\
         \x20   }}\n\
         }}\n"
    );
    let deps = ["serde_json = \"1\"".to_string()];
    for (name, source) in [
        ("answer_in_a_fn", &in_a_fn),
        ("answer_in_the_loop", &in_the_loop),
    ] {
        let dir = common::scratch_crate(name, &deps, &[("src/main.rs", source.as_str())]);
        let (contract, stderr, code) = contract(&dir, &[]);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(code, 0, "{name}: {stderr}");
        let dispatchers: Vec<&Value> = contract["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["kind"] == "dispatcher")
            .collect();
        assert_eq!(dispatchers.len(), 1, "{name}: {contract:#}");
        assert_eq!(
            dispatchers[0]["success"],
            serde_json::json!(["content"]),
            "{name}: {contract:#}"
        );
    }
}
