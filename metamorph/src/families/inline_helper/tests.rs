use super::*;
use crate::families::testing;

const PROGRAM: &str = r#"
use std::collections::HashMap;

#[derive(Debug)]
enum RpcError {
    InvalidParams(String),
    MethodNotFound(String),
}

type Params = HashMap<String, String>;
type Handler = fn(&Params) -> Result<String, RpcError>;

fn parse_count(raw: &str, max: u32) -> Result<u32, RpcError> {
    if raw.is_empty() {
        return Err(RpcError::InvalidParams("count is empty".into()));
    }
    let n: u32 = match raw.parse() {
        Ok(n) => n,
        Err(e) => return Err(RpcError::InvalidParams(format!("count: {e}"))),
    };
    if n > max {
        return Err(RpcError::InvalidParams(format!("count {n} > {max}")));
    }
    Ok(n)
}

fn normalize(name: &str) -> String {
    let trimmed = name.trim();
    if let Some(rest) = trimmed.strip_prefix("tool_") {
        return rest.to_lowercase();
    }
    trimmed.to_lowercase()
}

fn error_code(e: &RpcError) -> i32 {
    match e {
        RpcError::InvalidParams(_) => -32602,
        RpcError::MethodNotFound(_) => -32601,
    }
}

fn log_line(tag: &str, id: u64) {
    if id == 0 {
        println!("[{tag}] notification");
        return;
    }
    println!("[{tag}] id={id}");
}

fn render(text: String) -> Box<dyn std::fmt::Display> {
    if text.is_empty() {
        return Box::new(0);
    }
    Box::new(text)
}

fn shift(a: i64, b: i64) -> i64 {
    a * 10 + b
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pong(params: &Params) -> Result<String, RpcError> {
    Ok(format!("pong {}", params.len()))
}

fn lookup(params: &Params, key: &str) -> Option<String> {
    params.get(key).cloned()
}

fn check_len(text: &str) -> Result<(), RpcError> {
    if text.len() > 40 {
        return Err(RpcError::InvalidParams(format!("{} bytes", text.len())));
    }
    Ok(())
}

fn double(n: i64) -> i64 {
    n * 2
}

fn triple(n: i64) -> i64 {
    n * 3
}

fn tool_repeat(params: &Params) -> Result<String, RpcError> {
    let text = params.get("text").cloned().unwrap_or_default();
    let count = parse_count(params.get("count").map(String::as_str).unwrap_or(""), 5)?;
    Ok(text.repeat(count as usize))
}

fn tool_upper(params: &Params) -> Result<String, RpcError> {
    let Some(text) = lookup(params, "text") else {
        return Err(RpcError::InvalidParams("text".into()));
    };
    check_len(&text)?;
    Ok(format!("{} ({} chars)", text.to_uppercase(), width(text.trim().to_string().as_str())))
}

struct Server {
    tools: HashMap<&'static str, Handler>,
}

impl Server {
    fn dispatch(&self, method: &str, params: &Params) -> Result<String, RpcError> {
        match method {
            "tools/call" => {
                let name = normalize(params.get("name").map(String::as_str).unwrap_or_default());
                let tool = self.tools.get(name.as_str()).ok_or_else(|| RpcError::MethodNotFound(name.clone()))?;
                tool(params)
            }
            "ping" => pong(params).map(|s| s + "!"),
            other => Err(RpcError::MethodNotFound(other.to_string())),
        }
    }
}

fn main() {
    let mut tools: HashMap<&'static str, Handler> = HashMap::new();
    tools.insert("repeat", tool_repeat);
    tools.insert("upper", tool_upper);
    let server = Server { tools };
    let calls: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("tools/call", vec![("name", "repeat"), ("text", "ab"), ("count", "3")]),
        ("tools/call", vec![("name", " Tool_Repeat "), ("text", "ab"), ("count", "9")]),
        ("tools/call", vec![("name", "repeat"), ("text", "ab"), ("count", "x")]),
        ("tools/call", vec![("name", "repeat"), ("text", "ab")]),
        ("tools/call", vec![("name", "upper"), ("text", " héllo ")]),
        ("tools/call", vec![("name", "upper")]),
        ("tools/call", vec![("name", "upper"), ("text", "a text that is much longer than forty bytes")]),
        ("tools/call", vec![("name", "missing")]),
        ("ping", vec![]),
        ("resources/read", vec![]),
    ];
    for (id, (method, params)) in calls.into_iter().enumerate() {
        log_line(method, id as u64);
        let params: Params = params.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        match server.dispatch(method, &params) {
            Ok(out) => println!("ok {out}"),
            Err(e) => println!("error {} {e:?}", error_code(&e)),
        }
    }
    let a = {
        let n = 1;
        triple(n) + 1
    };
    let b = {
        let n = 2;
        double(n)
    };
    println!("{a} {b}");
    for t in ["", "x"] {
        println!("{} {}", render(t.to_string()), shift(a + 1, a));
    }
}
"#;

#[test]
fn a_tool_layer_does_the_same_with_its_single_use_helpers_inlined() {
    let out = testing::same_behaviour(&InlineHelper, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    for gone in [
        "fn parse_count",
        "fn normalize",
        "fn error_code",
        "fn log_line",
        "fn render",
        "fn shift",
        "fn width",
        "fn pong",
        "fn lookup",
        "fn check_len",
        "fn triple",
        "fn double",
    ] {
        assert!(!text.contains(gone), "{gone} still there:\n{text}");
    }
    // Registered as values, the tools stay.
    assert!(
        text.contains("fn tool_repeat") && text.contains("fn tool_upper"),
        "{text}"
    );
    assert!(text.contains("break 'mm_inline"), "{text}");
}

#[test]
fn a_call_with_plain_arguments_becomes_a_block_that_binds_the_parameters() {
    let text = testing::rewritten(
        &InlineHelper,
        "fn scale(n: i32, by: i32) -> i32 {\n    n * by\n}\nfn main() {\n    let a = 2;\n    let x = scale(a + 1, a);\n}\n",
    );
    assert_eq!(
        text,
        "\nfn main() {\n    let a = 2;\n    let x = { let (n, by): (i32, i32) = (a + 1, a);\n    let mm_ret0: i32 = n * by; mm_ret0\n};\n}\n"
    );
}

#[test]
fn returns_break_out_of_a_labeled_block_given_the_return_type() {
    let text = testing::rewritten(
        &InlineHelper,
        "fn twice(n: i32) -> i32 {\n    if n < 0 {\n        return 0;\n    }\n    n * 2\n}\nfn main() {\n    println!(\"{}\", twice(3));\n}\n",
    );
    assert_eq!(
        text,
        "\nfn main() {\n    println!(\"{}\", ::core::convert::identity::<i32>({ let n: i32 = 3; 'mm_inline0: {\n    if n < 0 {\n        break 'mm_inline0 0;\n    }\n    let mm_ret0: i32 = n * 2; mm_ret0\n} }));\n}\n"
    );
}

#[test]
fn arguments_with_temporaries_are_bound_by_a_match_that_keeps_them_alive() {
    let text = testing::rewritten(
        &InlineHelper,
        "fn width(s: &str) -> usize { s.len() }\nfn main() { let n = width(name().trim().to_string().as_str()); }\n",
    );
    assert_eq!(
        text,
        "\nfn main() { let n = match ::core::convert::identity::<&str>(name().trim().to_string().as_str()) { s => { let mm_ret0: usize = s.len(); mm_ret0 } }; }\n"
    );
}

#[test]
fn a_block_where_the_parser_would_end_the_expression_is_wrapped() {
    let text = testing::rewritten(
        &InlineHelper,
        "fn get(n: u8) -> Option<u8> { Some(n) }\nfn main() { get(1).unwrap(); }\n",
    );
    assert_eq!(
        text,
        "\nfn main() { ::core::convert::identity::<Option<u8>>({ let n: u8 = 1; let mm_ret0: Option<u8> = Some(n); mm_ret0 }).unwrap(); }\n"
    );
    let text = testing::rewritten(
        &InlineHelper,
        "fn get(n: u8) -> Option<u8> { Some(n) }\nfn main() { let Some(v) = get(1) else { return }; }\n",
    );
    assert!(
        text.contains("let Some(v) = ::core::convert::identity::<Option<u8>>("),
        "{text}"
    );
    // A whole statement, or a block's tail, ends where the block does.
    let text = testing::rewritten(
        &InlineHelper,
        "fn get(n: u8) -> Option<u8> { Some(n) }\nfn main() { let v = { let n = 1; get(n) }; }\n",
    );
    assert_eq!(
        text,
        "\nfn main() { let v = { let n = 1; { let n: u8 = n; let mm_ret0: Option<u8> = Some(n); mm_ret0 } }; }\n"
    );
}

#[test]
fn a_helper_without_returns_or_parameters_gets_a_plain_block() {
    let text = testing::rewritten(
        &InlineHelper,
        "fn hello() { println!(\"hi\"); }\nfn main() { hello(); }\n",
    );
    assert_eq!(text, "\nfn main() { { println!(\"hi\"); }; }\n");
}

#[test]
fn helpers_that_cannot_be_inlined_the_same_stay() {
    for kept in [
        // Called twice, or used as a value.
        "fn h() -> u8 { 1 }\nfn main() { h(); h(); }",
        "fn h() -> u8 { 1 }\nfn main() { let f = h; f(); }",
        // `?` and macros that may return leave the caller.
        "fn h(s: &str) -> Result<u8, E> { Ok(s.parse()?) }\nfn main() { h(\"1\"); }",
        "fn h(s: &str) -> Result<u8, E> { bail!(\"no\") }\nfn main() { h(\"1\"); }",
        "fn h() -> u8 { println!(\"{}\", { return 1 }) }\nfn main() { h(); }",
        "fn h() -> u32 { line!() }\nfn main() { h(); }",
        // Signatures that cannot be copied into a `let`.
        "fn h<T>(t: T) -> T { t }\nfn main() { h(1); }",
        "fn h<'a>(s: &'a str) -> &'a str { s }\nfn main() { h(\"\"); }",
        "fn h(s: impl AsRef<str>) -> usize { 1 }\nfn main() { h(\"\"); }",
        "pub fn h() -> u8 { 1 }\nfn main() { h(); }",
        "fn h(_: Guard) -> u8 { 1 }\nfn main() { h(g); }",
        "async fn h() -> u8 { 1 }\nasync fn main() { h().await; }",
        // The caller binds a name the body uses freely.
        "fn prefix() -> u8 { 1 }\nfn h() -> u8 { prefix() }\nfn main() { let prefix = 2; h(); prefix; }",
        // The caller declares items the body would see.
        "fn h() -> u8 { 1 }\nfn main() { use std::fmt::Write; h(); }",
        // From another module, from a const fn, with a closure argument, recursive.
        "fn h() -> u8 { 1 }\nmod m { use super::*; fn c() { h(); } }",
        "fn h() -> u8 { 1 }\nconst fn c() -> u8 { h() }",
        "fn h(f: fn(u8) -> u8) -> u8 { f(1) }\nfn main() { h(|x| x + 1); }",
        "fn h(n: u8) -> u8 { if n == 0 { 0 } else { h(n - 1) } }",
        // Directives would cover other code; `#[allow]` would not reach the inlined body.
        "// mcp-lint: allow(panic_in_tool, reason = \"x\")\nfn h() -> u8 { 1 }\nfn main() { h(); }",
        "fn h() -> u8 { 1 }\nfn main() {\n    h(); // mcp-lint: allow(panic_in_tool, reason = \"x\")\n}",
        "#[allow(clippy::unwrap_used)]\nfn h() -> u8 { 1 }\nfn main() { h(); }",
        // Called through a macro we cannot read.
        "fn h() -> u8 { 1 }\nfn main() { json!({\"a\": h()}); }",
    ] {
        let out = testing::rewrite(&InlineHelper, kept);
        assert_eq!(out.sites, 0, "{kept}\n{}", out.tree.files["src/main.rs"]);
    }
}

#[test]
fn a_helper_inlined_into_another_one_that_is_inlined_too_is_left_for_a_later_run() {
    let program = "fn inner(x: u8) -> u8 { x + 1 }\nfn outer(x: u8) -> u8 { inner(x) * 2 }\nfn main() { println!(\"{}\", outer(3)); }\n";
    let out = testing::same_behaviour(&InlineHelper, &[("src/main.rs", program)]);
    assert_eq!(out.sites, 2, "{}", out.tree.files["src/main.rs"]);
}
