use super::*;
use crate::families::testing;

/// A hand-rolled JSON-RPC-like server: dispatch on the method, on the tool name (nested in
/// `tools/call`, and through a registry's fallback), on a temporary (`to_lowercase()`), on
/// `as_ref()`, in a closure, in an inline module; matches used as statements, tails and `let`s.
const PROGRAM: &str = r#"
use std::collections::HashMap;

type Handler = fn(&str) -> Result<String, String>;

struct Request {
    id: u32,
    method: String,
    tool: String,
    args: String,
}

fn error_object(code: i32, message: &str) -> String {
    format!("{{\"code\":{code},\"message\":\"{message}\"}}")
}

fn echo(args: &str) -> Result<String, String> {
    Ok(args.to_string())
}

fn call_tool(name: &str, args: &str, extra: &HashMap<String, Handler>) -> Result<String, String> {
    match name {
        "echo" => echo(args),
        "shout" | "upper" => Ok(args.to_uppercase()),
        "count" => {
            let n = args.split_whitespace().count();
            Ok(format!("{n} words"))
        }
        other => match extra.get(other) {
            Some(handler) => handler(args),
            None => Err(format!("unknown tool: {other}")),
        },
    }
}

mod registry {
    pub fn describe(name: &str) -> &'static str {
        match name { "echo" => "repeats its input", "count" => "counts words", _ => "no such tool" }
    }
}

/// How loud a log level is; `as_ref` is told by the patterns which `&str` it makes.
fn level(name: &String) -> u8 {
    match name.as_ref() {
        "debug" => 0,
        "info" => 1,
        _ => 2,
    }
}

fn normalize(raw: &str) -> usize {
    match raw.trim().to_lowercase().as_str() {
        "tools/call" => 1,
        "tools/list" | "list" => 2,
        mut other => {
            other = other.trim_matches('/');
            other.len() + 100
        }
    }
}

struct Server {
    calls: u32,
    log: Vec<String>,
    extra: HashMap<String, Handler>,
}

impl Server {
    fn handle(&mut self, req: &Request) -> String {
        self.calls += 1;
        match req.method.as_str() {
            "notifications/initialized" | "notifications/cancelled" => {
                self.log.push(format!("note {}", req.method))
            }
            "ping" => {}
            _ => self.log.push(format!("request {}", req.id)),
        }
        let result = match req.method.as_str() {
            "initialize" => Ok(String::from("{\"protocolVersion\":\"2025-06-18\"}")),
            "tools/list" => Ok(["echo", "count", "nope"]
                .iter()
                .map(|t| format!("{t}: {}", registry::describe(t)))
                .collect::<Vec<_>>()
                .join("; ")),
            "tools/call" => match req.tool.as_str() {
                "" => Err(error_object(-32602, "missing tool name")),
                "panic" | "crash" => Err(error_object(-32603, "refused")),
                tool => call_tool(tool, &req.args, &self.extra)
                    .map_err(|e| error_object(-32602, &e)),
            },
            "ping" => Ok(String::new()),
            _ => Err(error_object(-32601, "method not found")),
        };
        match result {
            Ok(r) => format!("{{\"id\":{},\"result\":{r:?}}}", req.id),
            Err(e) => format!("{{\"id\":{},\"error\":{e}}}", req.id),
        }
    }
}

fn main() {
    let mut extra: HashMap<String, Handler> = HashMap::new();
    extra.insert("reverse".to_string(), |a| Ok(a.chars().rev().collect()));
    let mut server = Server { calls: 0, log: Vec::new(), extra };
    let methods = ["initialize", "tools/list", "tools/call", "ping", "notifications/initialized", "resources/list", ""];
    let tools = ["echo", "shout", "upper", "count", "reverse", "delete", "panic", ""];
    for (i, method) in methods.iter().enumerate() {
        for tool in tools {
            let req = Request {
                id: i as u32,
                method: method.to_string(),
                tool: tool.to_string(),
                args: "hello mcp world".into(),
            };
            println!("{method} {tool} -> {}", server.handle(&req));
        }
    }
    println!("{:?} {}", server.log, server.calls);
    for name in ["debug", "info", "warn"] {
        println!("{name} {}", level(&name.to_string()));
    }
    for raw in [" Tools/Call ", "LIST", "/other/", "x"] {
        println!("{raw:?} {}", normalize(raw));
    }
    let route = |m: &str| match m { "a" => 1, "b" => 2, _ => 0 };
    println!("{} {} {}", route("a"), route("b"), route("zz"));
}
"#;

fn families() -> [&'static dyn Family; 4] {
    [
        &DispatchConst,
        &DispatchIfChain,
        &DispatchEqMethod,
        &DispatchEnum,
    ]
}

#[test]
fn the_server_answers_every_method_and_tool_the_same_under_each_family() {
    for family in families() {
        let out = testing::same_behaviour(family, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        if family.name() != "dispatch_const" {
            assert!(!text.contains("\"tools/list\" => Ok"), "{text}");
        }
    }
}

#[test]
fn string_arms_match_consts_declared_before_their_item_one_per_literal() {
    let text = testing::rewritten(
        &DispatchConst,
        r#"fn handle(method: &str) -> u8 {
    match method {
        "initialize" => 1,
        "tools/call" | "tools/list" => 2,
        _ => 0,
    }
}
mod tools {
    #[cfg(feature = "x")]
    fn call(name: &str) -> u8 { match name { "tools/call" => 1, r"x" => 2, n => n.len() as u8 } }
}
"#,
    );
    assert_eq!(
        text,
        r#"const MM_K0: &str = "initialize";
const MM_K1: &str = "tools/call";
const MM_K2: &str = "tools/list";
fn handle(method: &str) -> u8 {
    match method {
        MM_K0 => 1,
        MM_K1 | MM_K2 => 2,
        _ => 0,
    }
}
mod tools {
    #[cfg(feature = "x")] const MM_K3: &str = "tools/call";
    #[cfg(feature = "x")] const MM_K4: &str = r"x";
    #[cfg(feature = "x")]
    fn call(name: &str) -> u8 { match name { MM_K3 => 1, MM_K4 => 2, n => n.len() as u8 } }
}
"#
    );
}

#[test]
fn a_match_on_tool_names_becomes_an_if_chain_with_the_same_fallback() {
    let text = testing::rewritten(
        &DispatchIfChain,
        r#"fn call(name: &str) -> Result<String, String> {
    match name {
        "read" => Ok(read()),
        "write" | "save" => { save(); Ok(String::new()) }
        other => Err(format!("unknown tool {other}")),
    }
}
"#,
    );
    assert_eq!(
        text,
        r#"fn call(name: &str) -> Result<String, String> {
    { let mm_s0: &str = name;
        if mm_s0 == "read" { Ok(read()) }
        else if mm_s0 == "write" || mm_s0 == "save" { save(); Ok(String::new()) }
        else { let other = mm_s0; Err(format!("unknown tool {other}")) }
    }
}
"#
    );
}

#[test]
fn a_scrutinee_with_a_temporary_stays_a_match_scrutinee() {
    let text = testing::rewritten(
        &DispatchIfChain,
        r#"fn f(m: &str) -> u8 { let k = match m.to_lowercase().as_str() { "a" => 1, "b" => 2, _ => 0 }; k }"#,
    );
    assert_eq!(
        text,
        r#"fn f(m: &str) -> u8 { let k = match m.to_lowercase().as_str() { mm_s0 => { let mm_s0: &str = mm_s0; if mm_s0 == "a" { 1 } else if mm_s0 == "b" { 2 } else { 0 } } }; k }"#
    );
}

#[test]
fn the_eq_method_chain_compares_with_eq_calls() {
    let text = testing::rewritten(
        &DispatchEqMethod,
        r#"fn f(req: &Req) { match req.method.as_str() { "ping" => pong(), "tools/list" | "list" => list(), _ => {} } }"#,
    );
    assert_eq!(
        text,
        r#"fn f(req: &Req) { { let mm_s0: &str = req.method.as_str(); if mm_s0.eq("ping") { pong() } else if mm_s0.eq("tools/list") || mm_s0.eq("list") { list() } else {} } }"#
    );
}

#[test]
fn a_match_on_methods_becomes_a_match_on_a_parsed_enum() {
    let text = testing::rewritten(
        &DispatchEnum,
        r#"impl S {
    fn f(&self, method: &str) -> u8 { match method { "a" => 1, "b" | "c" => 2, other => other.len() as u8 } }
}
"#,
    );
    assert_eq!(
        text,
        r#"enum MmMethod0 { V0, V1, Other }
fn mm_parse0(mm_s0: &str) -> MmMethod0 { match mm_s0 { "a" => MmMethod0::V0, "b" | "c" => MmMethod0::V1, _ => MmMethod0::Other } }
impl S {
    fn f(&self, method: &str) -> u8 { { let mm_s0: &str = method; match mm_parse0(mm_s0) { MmMethod0::V0 => 1, MmMethod0::V1 => 2, MmMethod0::Other => { let other = mm_s0; other.len() as u8 }, } } }
}
"#
    );
}

#[test]
fn only_the_outer_of_nested_sites_is_rewritten_except_by_the_const_family() {
    let program = r#"fn f(m: &str, t: &str) -> u8 { match m { "call" => match t { "x" => 1, "y" => 2, _ => 3 }, "list" => 4, _ => 0 } }"#;
    let chain = testing::rewritten(&DispatchIfChain, program);
    assert!(
        chain.contains("if mm_s0 == \"call\" { match t { \"x\" => 1"),
        "{chain}"
    );
    let consts = testing::rewritten(&DispatchConst, program);
    assert!(
        consts.contains("MM_K0 => match t { MM_K2 => 1, MM_K3 => 2"),
        "{consts}"
    );
}

#[test]
fn matches_that_are_not_plain_string_dispatch_are_skipped() {
    let skipped = [
        // A guard.
        r#"fn f(m: &str, ok: bool) -> u8 { match m { "a" if ok => 1, "b" => 2, _ => 0 } }"#,
        // A tuple scrutinee.
        r#"fn f(a: &str, b: &str) -> u8 { match (a, b) { ("a", _) => 1, (_, "b") => 2, _ => 0 } }"#,
        // No catch-all.
        r#"fn f(m: &str) -> u8 { match m { "a" => 1, "b" => 2 } }"#,
        // Options of strings.
        r#"fn f(m: Option<&str>) -> u8 { match m { Some("a") => 1, Some("b") => 2, _ => 0 } }"#,
        // An upper-case catch-all may be a constant pattern.
        r#"fn f(m: &str) -> u8 { match m { "a" => 1, "b" => 2, OTHER => 0 } }"#,
        // Byte strings.
        r#"fn f(m: &[u8]) -> u8 { match m { b"a" => 1, b"b" => 2, _ => 0 } }"#,
        // An attribute on an arm.
        r#"fn f(m: &str) -> u8 { match m { "a" => 1, #[cfg(x)] "b" => 2, _ => 0 } }"#,
    ];
    for family in families() {
        for program in skipped {
            let out = testing::rewrite(family, program);
            assert_eq!(out.sites, 0, "{}: {program}", family.name());
        }
    }
}

#[test]
fn one_string_arm_and_a_catch_all_are_a_dispatch() {
    let text = testing::rewritten(
        &DispatchIfChain,
        r#"fn f(m: &str) -> u8 { match m { "tools/call" => 1, _ => 0 } }"#,
    );
    assert!(
        text.contains(r#"if mm_s0 == "tools/call" { 1 } else { 0 }"#),
        "{text}"
    );
}

#[test]
fn bodies_that_start_with_a_block_like_expression_are_parenthesized() {
    let text = testing::rewritten(
        &DispatchIfChain,
        r#"fn f(m: &str, t: &str) -> usize { match m { "a" => match t { _ => "x" }.len(), "b" => 2, _ => 0 } }"#,
    );
    assert!(
        text.contains(r#"{ (match t { _ => "x" }.len()) }"#),
        "{text}"
    );
}

/// Matches in every syntactic place an expression can be: each rewrite must build and print
/// the same.
const POSITIONS: &str = r#"
fn code(m: &str) -> i32 {
    if let Some(n) = match m { "a" => Some(1), "b" => Some(2), _ => None } {
        return n;
    }
    let len = match m { "long" => m.len(), "short" => 1, _ => 0 } as i32;
    match m { "x" => "ex", "y" => "why", other => other }.to_string();
    if len > 0 {
        return match m { "long" | "longer" => len * 10, "short" => -len, _ => len };
    }
    std::cmp::max(match m { "z" => 26, "w" => 23, _ => -1 }, -5)
}

fn main() {
    for m in ["a", "b", "long", "longer", "short", "x", "z", "w", "?"] {
        println!("{m} {}", code(m));
    }
    let mut seen = Vec::new();
    for m in ["stop", "skip", "go", "stop"] {
        match m {
            "skip" => continue,
            "stop" => {
                if !seen.is_empty() {
                    break;
                }
                seen.push(0);
            }
            _ => seen.push(1),
        }
    }
    println!("{seen:?}");
}
"#;

#[test]
fn matches_in_every_expression_position_keep_their_value_and_control_flow() {
    for family in families() {
        testing::same_behaviour(family, &[("src/main.rs", POSITIONS)]);
    }
}
