//! The analysis on small inputs, asserted through its dump (the same text
//! `MCP_LINT_DUMP=summaries` prints): which crate fn each call resolves to, where a fn's
//! failures come from, and what its parameters flow into.

use std::collections::HashMap;
use std::path::PathBuf;

use super::facts::{SINK_CODE, SINK_SUCCESS};
use super::handlers::Handlers;
use crate::config::Config;
use crate::model::ir::FileIr;
use crate::sdk::Sdk;
use crate::source::{SourceFile, SourceMap};
use crate::workspace::Version;

fn rmcp() -> Box<dyn Sdk> {
    Box::new(crate::sdk::rmcp::Rmcp::new(Some(Version(0, 8, 5))))
}

fn hand_rolled() -> Box<dyn Sdk> {
    Box::new(crate::sdk::handrolled::HandRolled)
}

/// `src` as the crate's only file, lowered and analysed with `sdk`.
fn lowered(src: &str) -> (SourceMap, FileIr) {
    let mut sources = SourceMap::default();
    let id = sources.add(SourceFile::new(
        PathBuf::from("src/main.rs"),
        "src/main.rs".into(),
        src.into(),
    ));
    let ast = syn::parse_file(src).expect("test source parses");
    let ir = crate::model::span::with_file(src, || {
        crate::model::lower::lower_file(id, Vec::new(), &ast, &HashMap::new())
    });
    (sources, ir)
}

/// The dump of `src` analysed with `sdk`, and each fn's summary sinks by name.
fn dump(src: &str, sdk: Box<dyn Sdk>) -> (String, HashMap<String, Vec<u8>>) {
    let (sources, ir) = lowered(src);
    let config = Config::default();
    let a = super::analyse(vec![&ir], 1, Some(sdk.as_ref()), &config);
    let dispatch = sdk
        .writes_own_responses()
        .then(|| super::dispatch::Dispatch::find(&a));
    let handlers = Handlers::build(&a, Some(sdk.as_ref()), true, dispatch.as_ref());
    let sinks = a
        .program
        .fn_ids()
        .map(|f| {
            (
                a.program.def(f).name.to_string(),
                a.summaries[f as usize].sinks.clone(),
            )
        })
        .collect();
    (super::dump::dump(&a, &handlers, &sources), sinks)
}

/// The dump's block for the fn whose label is `label` (`Type::name` or `name`).
fn block<'d>(dump: &'d str, label: &str) -> &'d str {
    let head = format!("fn {label} [");
    let start = dump
        .find(&head)
        .unwrap_or_else(|| panic!("no fn {label} in:\n{dump}"));
    let end = dump[start + 1..]
        .find("\nfn ")
        .map_or(dump.len(), |e| start + 2 + e);
    &dump[start..end]
}

fn assert_has(text: &str, needle: &str) {
    assert!(text.contains(needle), "`{needle}` not in:\n{text}");
}

const STORE: &str = r#"
use rmcp::{ErrorData, model::CallToolResult};
use std::sync::Arc;
use tokio::sync::Mutex;
struct Store;
impl Store {
    fn load(&self, id: &str) -> Result<String, ErrorData> {
        Err(ErrorData::internal_error(format!("no {id}"), None))
    }
}
struct Server { store: Store, shared: Arc<Mutex<Store>> }
impl Server {
    fn new() -> Self { todo!() }
    async fn by_field(&self) -> Result<String, ErrorData> { self.store.load("a") }
    async fn by_guard(&self) -> Result<String, ErrorData> { self.shared.lock().await.load("b") }
    async fn by_local(&self) -> Result<String, ErrorData> {
        let s = Server::new();
        s.store.load("c")
    }
    async fn by_param(&self, other: &Store) -> Result<String, ErrorData> { other.load("d") }
}
"#;

#[test]
fn method_calls_resolve_by_the_receivers_type() {
    let (d, _) = dump(STORE, rmcp());
    for f in ["by_field", "by_guard", "by_local", "by_param"] {
        let b = block(&d, &format!("Server::{f}"));
        assert_has(b, "Method -> Store::load");
        assert!(
            !b.contains("(may)"),
            "typed receiver resolved by name:\n{b}"
        );
    }
}

#[test]
fn enum_variants_type_what_they_hold_and_what_they_make() {
    let src = r#"
struct Serve; struct List;
impl Serve { fn run(self) -> u8 { 1 } }
impl List { fn run(self) -> u8 { 2 } }
enum Command { Serve(Serve), List(List) }
impl Command {
    fn run(self) -> u8 {
        match self { Self::Serve(c) => c.run(), Self::List(c) => c.run() }
    }
}
fn main() {
    let command = Command::List(List);
    match command { Command::Serve(s) => s.run(), other => other.run() };
}
"#;
    let (d, _) = dump(src, rmcp());
    let dispatch = block(&d, "Command::run");
    assert_has(dispatch, "Method -> Serve::run");
    assert_has(dispatch, "Method -> List::run");
    let main = block(&d, "main");
    assert_has(main, "Method -> Serve::run");
    assert_has(main, "Method -> Command::run");
    assert!(!main.contains("(may)"), "resolved by name:\n{main}");
}

#[test]
fn a_call_on_an_unknown_receiver_may_call_every_method_of_that_name() {
    let src = r#"
struct A; struct B;
impl A { fn fetch(&self) -> u8 { 1 } }
impl B { fn fetch(&self) -> u8 { 2 } }
fn run() -> u8 {
    let x = elsewhere::make();
    x.fetch()
}
"#;
    let (d, _) = dump(src, rmcp());
    let b = block(&d, "run");
    assert_has(b, "(may) -> ");
    assert_has(b, "A::fetch");
    assert_has(b, "B::fetch");
}

#[test]
fn fn_values_nested_fns_and_trait_defaults_are_calls() {
    let src = r#"
fn parse_row(s: &str) -> Result<u8, String> { s.parse().map_err(|_| "bad".to_string()) }
trait Tool { fn describe(&self) -> String { helper() } }
fn helper() -> String { String::new() }
struct T;
impl Tool for T {}
fn rows(v: Vec<&str>) -> Vec<Result<u8, String>> {
    fn inner() -> u8 { 3 }
    let _ = inner();
    let _ = T.describe();
    v.into_iter().map(parse_row).collect()
}
"#;
    let (d, _) = dump(src, rmcp());
    let b = block(&d, "rows");
    assert_has(b, "FnValue -> parse_row");
    assert_has(b, "Call -> inner");
    assert_has(b, "Method -> Tool::describe");
    assert_has(block(&d, "Tool::describe"), "Call -> helper");
}

#[test]
fn a_helpers_error_reaches_the_tool_through_a_tail_call() {
    let src = r#"
use rmcp::{ErrorData, model::CallToolResult};
struct S;
impl S {
    async fn run(&self, q: &str) -> Result<CallToolResult, ErrorData> {
        if q.is_empty() {
            return Err(ErrorData::internal_error("empty query", None));
        }
        todo!()
    }
    async fn query(&self, q: String) -> Result<CallToolResult, ErrorData> {
        self.run(&q).await
    }
}
"#;
    let (d, _) = dump(src, rmcp());
    // The error is made on line 7 of `run`; the tool's summary carries it with the call.
    assert_has(block(&d, "S::run"), "Err:Protocol(");
    let q = block(&d, "S::query");
    assert_has(q, "Method -> S::run");
    assert_has(q, "exit Tail");
    assert_has(q, "@src/main.rs:7:");
}

#[test]
fn let_bound_and_matched_failure_text_is_followed_to_the_success_constructor() {
    let src = r#"
use rmcp::{ErrorData, model::{CallToolResult, Content}};
fn fetch() -> Result<String, std::io::Error> { todo!() }
fn tool() -> Result<CallToolResult, ErrorData> {
    let text = match fetch() {
        Ok(v) => v,
        Err(e) => format!("failed: {e}"),
    };
    let content = vec![Content::text(text)];
    Ok(CallToolResult::success(content))
}
"#;
    let (d, _) = dump(src, rmcp());
    let b = block(&d, "tool");
    assert_has(b, "return ");
    assert_has(b, "ErrText { unknown_tool: false } @src/main.rs:7:");
}

#[test]
fn a_parameter_that_becomes_a_success_is_in_the_summary() {
    let src = r#"
use serde_json::Value;
fn reply(v: Value) -> Result<rmcp::model::CallToolResult, rmcp::ErrorData> {
    Ok(rmcp::model::CallToolResult::success(vec![rmcp::model::Content::text(v.to_string())]))
}
"#;
    let (_, sinks) = dump(src, rmcp());
    assert!(
        sinks["reply"][0] & SINK_SUCCESS != 0,
        "{:?}",
        sinks["reply"]
    );
}

#[test]
fn a_hand_rolled_tool_failure_is_followed_into_the_error_response() {
    let src = r#"
use serde_json::{Value, json};
fn call_tool(id: Value, name: &str, args: &Value) -> Value {
    match run_tool(name, args) {
        Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
        Err(e) => rpc_error(id, -32603, &e.to_string()),
    }
}
fn run_tool(name: &str, args: &Value) -> Result<String, String> {
    match name {
        "render" => {
            let file = args["file"].as_str().ok_or("file is required")?;
            std::fs::read_to_string(file).map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown tool {name}")),
    }
}
fn rpc_error(id: Value, code: i64, msg: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": msg}})
}
fn main() {
    let req: Value = serde_json::from_str("{}").unwrap_or_default();
    if req["method"] == "tools/call" {
        println!("{}", call_tool(req["id"].clone(), "render", &req["params"]["arguments"]));
    }
}
"#;
    let (d, sinks) = dump(src, hand_rolled());
    // `code` becomes the error object's code; `id` and `msg` do not.
    assert!(
        sinks["rpc_error"][1] & SINK_CODE != 0,
        "{:?}",
        sinks["rpc_error"]
    );
    assert!(sinks["rpc_error"][0] & SINK_CODE == 0);
    assert!(sinks["rpc_error"][2] & SINK_CODE == 0);
    let b = block(&d, "call_tool");
    assert_has(b, "Call -> run_tool");
    assert_has(b, "Call -> rpc_error");
    let r = block(&d, "run_tool");
    assert_has(r, "exit Question src/main.rs:12:");
    assert_has(r, "exit Tail");
}

#[test]
fn an_error_stored_and_never_returned_is_not_an_exit() {
    let src = r#"
use rmcp::{ErrorData, model::CallToolResult};
struct S { last: Option<ErrorData> }
impl S {
    fn tool(&mut self) -> Result<CallToolResult, ErrorData> {
        let e = Err::<(), _>(ErrorData::internal_error("x", None));
        self.last = e.err();
        Ok(CallToolResult::success(vec![]))
    }
}
"#;
    let (d, _) = dump(src, rmcp());
    let b = block(&d, "S::tool");
    assert!(
        !b.contains("  exit "),
        "a stored error became an exit:\n{b}"
    );
}

#[test]
fn failure_text_put_into_a_map_stays_with_the_json_value_that_wraps_it() {
    let src = r#"
use serde_json::{json, Map, Value};
fn report(failed: bool) -> String {
    let mut out = Map::new();
    if failed {
        out.insert("error".to_string(), json!("Failed to export the model"));
    }
    Value::Object(out).to_string()
}
fn listed(failed: bool) -> String {
    let mut out = Vec::new();
    if failed {
        out.push(json!("could not reach the renderer"));
    }
    Value::Array(out).to_string()
}
"#;
    let (d, _) = dump(src, rmcp());
    assert_has(
        block(&d, "report"),
        "summary ret={FailText @src/main.rs:6:41}",
    );
    assert_has(
        block(&d, "listed"),
        "summary ret={FailText @src/main.rs:13:18}",
    );
}

#[test]
fn a_context_message_says_whether_the_tool_is_unknown() {
    let src = r#"
use anyhow::Context;
fn lookup(tools: &std::collections::HashMap<String, u8>, name: &str) -> anyhow::Result<u8> {
    let tool = tools.get(name).with_context(|| format!("no such tool: {name}"))?;
    Ok(*tool)
}
fn open(path: &str) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path).ok().context("the file is not readable")?;
    Ok(text)
}
"#;
    let (d, _) = dump(src, rmcp());
    assert_has(
        block(&d, "lookup"),
        "Foreign { about_args: false, unknown_tool: true } @src/main.rs:4:",
    );
    assert_has(
        block(&d, "open"),
        "Foreign { about_args: false, unknown_tool: false } @src/main.rs:8:",
    );
}

#[test]
fn a_linked_members_fns_are_analysed_only_when_the_crate_reaches_them() {
    let own = "fn main() { let _ = used(); }";
    let member = "fn used() -> Result<(), String> { Err(\"used\".into()) }\n\
                  fn unused() -> Result<(), String> { Err(\"unused\".into()) }";
    let lower = |id: usize, src: &str| {
        let ast = syn::parse_file(src).expect("test source parses");
        crate::model::span::with_file(src, || {
            crate::model::lower::lower_file(id, Vec::new(), &ast, &HashMap::new())
        })
    };
    let (own_ir, member_ir) = (lower(0, own), lower(1, member));
    let config = Config::default();
    let sdk = rmcp();
    let a = super::analyse(vec![&own_ir, &member_ir], 1, Some(sdk.as_ref()), &config);
    let exits = |name: &str| {
        let f = a
            .program
            .fn_ids()
            .find(|&f| a.program.def(f).name == name)
            .expect("the fn is in the program");
        a.facts[f as usize].exits.len()
    };
    assert_eq!(exits("used"), 1, "a member fn the crate calls is analysed");
    assert_eq!(exits("unused"), 0, "a member fn nothing reaches is not");
}

#[test]
fn every_branch_that_answers_with_failure_text_is_kept_well_past_two_dozen() {
    // Forty arms, each answering with failure text of its own: each is a site to change,
    // none is dropped because the value has many origins.
    let arms: String = (0..40)
        .map(|i| format!("        {i} => format!(\"Error: step {i} failed: {{e}}\"),\n"))
        .collect();
    let src = format!(
        "use rmcp::model::{{CallToolResult, Content}};\n\
         fn answer(n: u32, e: std::io::Error) -> CallToolResult {{\n\
         let text = match n {{\n{arms}        _ => String::new(),\n    }};\n\
         CallToolResult::success(vec![Content::text(text)])\n}}\n"
    );
    let (dump, _) = dump(&src, rmcp());
    let sites = block(&dump, "answer")
        .lines()
        .filter(|l| l.trim_start().starts_with("success-with-failure"))
        .count();
    assert_eq!(sites, 40, "{dump}");
}
