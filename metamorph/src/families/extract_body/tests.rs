use super::*;
use crate::families::testing;

const PROGRAM: &str = r#"
use std::collections::HashMap;
use std::fmt;
use std::future::Future;

#[derive(Debug)]
struct ToolError {
    code: i32,
    message: String,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "error {}: {}", self.code, self.message)
    }
}

trait Tool {
    fn name(&self) -> String;
    fn call(&self, args: &[(String, String)]) -> Result<String, ToolError>;
}

/// Finds a required argument.
fn arg(args: &[(String, String)], key: &str) -> Result<String, ToolError> {
    match args.iter().find(|(k, _)| k == key) {
        Some((_, v)) => Ok(v.clone()),
        None => Err(ToolError { code: -32602, message: format!("missing argument {key}") }),
    }
}

struct Echo;

impl Tool for Echo {
    fn name(&self) -> String {
        "echo".to_string()
    }
    fn call(&self, args: &[(String, String)]) -> Result<String, ToolError> {
        let text = arg(args, "text")?;
        if text.is_empty() {
            return Err(ToolError { code: -32602, message: "empty text".into() });
        }
        Ok(text)
    }
}

struct Add {
    offset: i64,
}

impl Tool for Add {
    fn name(&self) -> String {
        String::from("add")
    }
    fn call(&self, args: &[(String, String)]) -> Result<String, ToolError> {
        let mut total = self.offset;
        for key in ["a", "b"] {
            let raw = arg(args, key)?;
            total += raw.parse::<i64>().map_err(|e| ToolError { code: -32602, message: format!("{key}: {e}") })?;
        }
        Ok(total.to_string())
    }
}

struct Parameters<T>(T);

struct Server {
    tools: HashMap<String, Box<dyn Tool>>,
    calls: u32,
}

impl Server {
    fn new(offset: i64) -> Self {
        let mut tools: HashMap<String, Box<dyn Tool>> = HashMap::new();
        for tool in [Box::new(Echo) as Box<dyn Tool>, Box::new(Add { offset })] {
            tools.insert(tool.name(), tool);
        }
        Server { tools, calls: 0 }
    }

    fn dispatch(&mut self, method: &str, params: Option<(String, Vec<(String, String)>)>) -> Result<String, ToolError> {
        self.calls += 1;
        match method {
            "tools/list" => {
                let mut names: Vec<&String> = self.tools.keys().collect();
                names.sort();
                Ok(format!("{names:?}"))
            }
            "tools/call" => {
                let Some((name, args)) = params else {
                    return Err(ToolError { code: -32602, message: "no params".into() });
                };
                let tool = self.tools.get(&name).ok_or_else(|| ToolError { code: -32601, message: format!("unknown tool {name}") })?;
                tool.call(&args)
            }
            other => Err(ToolError { code: -32601, message: format!("unknown method {other}") }),
        }
    }

    fn describe(&self, (code, label): (i32, &str)) -> String {
        format!("{label}={code} after {} calls", self.calls)
    }

    async fn handle(&self, Parameters(req): Parameters<(String, i32)>) -> Result<i32, String> {
        if req.1 < 0 {
            return Err(format!("negative {}", req.0));
        }
        Ok(req.1 * 2 + self.calls as i32)
    }

    fn finish(mut self, _: u8) -> String {
        self.calls += 100;
        format!("calls={}", self.calls)
    }
}

fn greet(Parameters(who): Parameters<String>, _: bool) -> String {
    format!("hello {who}")
}

fn halve(mut n: u32) -> u32 {
    while n > 10 {
        n /= 2;
    }
    n
}

fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn main() {
    let mut server = Server::new(10);
    let pairs = |items: &[(&str, &str)]| items.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let requests = vec![
        ("tools/list", None),
        ("tools/call", Some(("echo".to_string(), pairs(&[("text", "hi")])))),
        ("tools/call", Some(("echo".to_string(), pairs(&[("text", "")])))),
        ("tools/call", Some(("echo".to_string(), pairs(&[])))),
        ("tools/call", Some(("add".to_string(), pairs(&[("a", "1"), ("b", "2")])))),
        ("tools/call", Some(("add".to_string(), pairs(&[("a", "1"), ("b", "x")])))),
        ("tools/call", Some(("nope".to_string(), vec![]))),
        ("tools/call", None),
        ("resources/list", None),
    ];
    for (method, params) in requests {
        match server.dispatch(method, params) {
            Ok(out) => println!("{method}: ok {out}"),
            Err(e) => println!("{method}: {e} / {e:?}"),
        }
    }
    println!("{}", server.describe((7, "seven")));
    println!("{:?}", block_on(server.handle(Parameters(("x".into(), 4)))));
    println!("{:?}", block_on(server.handle(Parameters(("y".into(), -1)))));
    println!("{}", greet(Parameters("world".into()), true));
    println!("{} {}", halve(100), halve(3));
    println!("{}", server.finish(0));
}
"#;

#[test]
fn a_tool_layer_does_the_same_with_every_body_moved_into_a_helper() {
    let out = testing::same_behaviour(&ExtractBody, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    for expected in [
        "{ mm_body_arg0(args, key) }",
        "{ Self::mm_body_new0(offset) }",
        "{ self.mm_body_handle0(Parameters(req)).await }",
        "{ self.mm_body_describe0((code, label)) }",
        "{ self.mm_body_finish0(mm_p0) }",
        "fn finish(mut self, mm_p0: u8)",
        "fn mm_body_finish0(mut self, _: u8) -> String {",
        "{ mm_body_greet0(Parameters(who), mm_p1) }",
        "{ mm_body_halve0(n) }",
        "fn mm_body_halve0(mut n: u32) -> u32 {",
        "{ use fmt::Display as _;",
    ] {
        assert!(text.contains(expected), "{expected} missing:\n{text}");
    }
    assert!(!text.contains("mm_body_main"), "{text}");
    assert_eq!(out.old_names("Server::mm_body_new0"), "Server::new");
    assert!(!text.contains("mm_body_block_on"), "generic: {text}");
}

#[test]
fn a_free_fn_calls_its_helper_placed_right_after_it() {
    let text = testing::rewritten(
        &ExtractBody,
        "/// Adds.\n#[inline]\nfn add(a: i32, (b, c): (i32, i32)) -> i32 {\n    a + b + c\n}\n",
    );
    assert_eq!(
        text,
        "/// Adds.\n#[inline]\nfn add(a: i32, (b, c): (i32, i32)) -> i32 { mm_body_add0(a, (b, c)) }\n\n\
         fn mm_body_add0(a: i32, (b, c): (i32, i32)) -> i32 {\n    a + b + c\n}\n"
    );
}

#[test]
fn a_tool_method_keeps_its_attribute_and_its_helper_goes_to_a_plain_impl_after_the_router() {
    let text = testing::rewritten(
        &ExtractBody,
        "struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"echo\")]\n    async fn echo(&self, Parameters(args): Parameters<Args>) -> Result<String, E> {\n        Ok(args.text)\n    }\n}\n",
    );
    assert_eq!(
        text,
        "struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"echo\")]\n    async fn echo(&self, Parameters(args): Parameters<Args>) -> Result<String, E> { self.mm_body_echo0(Parameters(args)).await }\n}\n\n\
         impl S {\n    async fn mm_body_echo0(&self, Parameters(args): Parameters<Args>) -> Result<String, E> {\n        Ok(args.text)\n    }\n}\n"
    );
}

#[test]
fn a_method_of_a_plain_impl_gets_its_helper_in_the_same_impl() {
    let text = testing::rewritten(
        &ExtractBody,
        "impl S {\n    #[cfg(unix)]\n    fn get(&mut self, key: String) -> u8 {\n        self.0\n    }\n}\n",
    );
    assert_eq!(
        text,
        "impl S {\n    #[cfg(unix)]\n    fn get(&mut self, key: String) -> u8 { self.mm_body_get0(key) }\n\n    \
         #[cfg(unix)]\n    fn mm_body_get0(&mut self, key: String) -> u8 {\n        self.0\n    }\n}\n"
    );
}

#[test]
fn a_trait_impl_for_a_local_type_gets_a_plain_impl_that_brings_the_trait_into_scope() {
    let text = testing::rewritten(
        &ExtractBody,
        "struct S;\nimpl rmcp::ServerHandler for S {\n    fn get_info(&self) -> Info {\n        self.info()\n    }\n}\n",
    );
    assert_eq!(
        text,
        "struct S;\nimpl rmcp::ServerHandler for S {\n    fn get_info(&self) -> Info { self.mm_body_get_info0() }\n}\n\n\
         impl S {\n    fn mm_body_get_info0(&self) -> Info { use rmcp::ServerHandler as _;\n        self.info()\n    }\n}\n"
    );
}

#[test]
fn fns_whose_helper_could_not_be_written_the_same_are_skipped() {
    for skipped in [
        "fn main() { run(); }",
        "fn g<T: Clone>(t: T) -> T { t }",
        "fn l<'a>(s: &'a str) -> &'a str { s }",
        "fn i(s: impl AsRef<str>) -> usize { s.as_ref().len() }",
        "const fn c() -> u8 { 1 }",
        "unsafe fn u() -> u8 { 1 }",
        "extern \"C\" fn e() -> u8 { 1 }",
        "fn r(&(a, b): &(u8, u8)) -> u8 { a + b }",
        "#[tokio::main] async fn serve() { run().await }",
        "struct S; impl S { fn arc(self: Arc<Self>) -> u8 { 1 } }",
        "trait T { fn d(&self) -> u8 { 1 } }",
        "impl fmt::Display for Vec<u8> { fn fmt(&self) -> u8 { 1 } }",
        "struct S; impl Iterator for S { type Item = u8; fn next(&mut self) -> Option<Self::Item> { None } }",
        "struct S; impl<T> From<T> for S { fn from(_: T) -> S { S } }",
        "struct S; #[unknown_macro] impl S { fn m(&self) -> u8 { 1 } }",
        "#[tool] fn t(_: u8) -> u8 { 1 }",
        "#[expect(clippy::unwrap_used)]\nfn x() -> u8 { f().unwrap() }",
        // The body would leave what a suppression directive covers.
        "// mcp-lint: allow(panic_in_tool, reason = \"checked\")\n\n/// Doc.\nfn p(v: &[u8]) -> u8 { v[0] }",
        "/// Doc.\n// mcp-lint: allow(panic_in_tool, reason = \"checked\")\n#[tool]\nfn p(v: &[u8]) -> u8 { v[0] }",
        "struct S;\n// mcp-lint: allow(panic_in_tool, reason = \"checked\")\n#[tool_router]\nimpl S {\n    fn p(&self, v: &[u8]) -> u8 { v[0] }\n}",
    ] {
        let out = testing::rewrite(&ExtractBody, skipped);
        assert_eq!(out.sites, 0, "{skipped}");
    }
}

#[test]
fn a_plain_impl_under_a_directive_keeps_the_helpers_under_it_and_lint_levels_follow_the_body() {
    let text = testing::rewritten(
        &ExtractBody,
        "// mcp-lint: allow(panic_in_tool, reason = \"checked\")\nimpl S {\n    #[allow(clippy::indexing_slicing)]\n    fn p(&self, v: &[u8]) -> u8 {\n        v[0]\n    }\n}\n",
    );
    assert_eq!(
        text,
        "// mcp-lint: allow(panic_in_tool, reason = \"checked\")\nimpl S {\n    #[allow(clippy::indexing_slicing)]\n    fn p(&self, v: &[u8]) -> u8 { self.mm_body_p0(v) }\n\n    \
         #[allow(clippy::indexing_slicing)]\n    fn mm_body_p0(&self, v: &[u8]) -> u8 {\n        v[0]\n    }\n}\n"
    );
}
