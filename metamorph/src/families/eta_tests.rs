use super::*;
use crate::families::testing;

/// A router whose `register` takes `impl Fn(&str) -> ..`, a fn pointer table, owned-typed
/// helpers given to iterator adapters, and async tools polled by a tiny `block_on`.
const PROGRAM: &str = r#"
use std::collections::HashMap;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

type ToolFn = fn(&str) -> Result<String, String>;

struct Router {
    tools: Vec<(String, Box<dyn Fn(&str) -> Result<String, String>>)>,
}

impl Router {
    fn new() -> Router {
        Router { tools: Vec::new() }
    }

    fn register(&mut self, name: &str, f: impl Fn(&str) -> Result<String, String> + 'static) -> &mut Router {
        self.tools.push((name.to_string(), Box::new(f)));
        self
    }

    fn call(&self, name: &str, arg: &str) -> String {
        match self.tools.iter().find(|(n, _)| n == name) {
            Some((_, f)) => match f(arg) {
                Ok(v) => format!("ok: {v}"),
                Err(e) => format!("error: {e}"),
            },
            None => format!("unknown tool: {name}"),
        }
    }

    fn trimmed(text: &str) -> Result<String, String> {
        Ok(text.trim().to_string())
    }

    fn with_defaults(mut self) -> Router {
        self.register("trim", Self::trimmed);
        self.register("trim2", |t| Self::trimmed(t));
        self
    }
}

fn read_file(path: &str) -> Result<String, String> {
    if path.starts_with('/') {
        Ok(format!("contents of {path}"))
    } else {
        Err(format!("relative path: {path}"))
    }
}

fn echo(text: &str) -> Result<String, String> {
    Ok(text.to_string())
}

fn parse_limit(raw: String) -> Result<u32, String> {
    raw.trim().parse::<u32>().map_err(|e| format!("bad limit {raw:?}: {e}"))
}

fn describe(limit: u32) -> String {
    format!("limit={limit}")
}

async fn fetch(name: String) -> Result<String, String> {
    if name.is_empty() {
        Err("no name".to_string())
    } else {
        Ok(format!("fetched {name}"))
    }
}

fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn run_tool<F, Fut>(f: F, arg: String) -> Result<String, String>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<String, String>>,
{
    block_on(f(arg))
}

fn main() {
    let mut router = Router::new().with_defaults();
    router.register("read_file", read_file).register("echo", |t| echo(t));
    let calls = [("read_file", "/srv/a"), ("read_file", "b"), ("echo", "hello"), ("trim", "  x  "), ("trim2", " y"), ("missing", "")];
    for (name, arg) in calls {
        println!("{}", router.call(name, arg));
    }
    let mut table: HashMap<&str, ToolFn> = HashMap::new();
    table.insert("read", read_file);
    table.insert("echo", |t| echo(t));
    let mut keys: Vec<&str> = table.keys().copied().collect();
    keys.sort();
    for k in keys {
        println!("{k}: {:?}", table[k]("/x"));
    }
    let limits: Vec<Result<u32, String>> = ["10", " 7", "x"].iter().map(|s| s.to_string()).map(parse_limit).collect();
    println!("{limits:?}");
    let described: Vec<String> = [1u32, 2].into_iter().map(|n| describe(n)).collect();
    let third = Some(3u32).map(describe);
    println!("{described:?} {third:?}");
    let fetch_later = |n| async move { fetch(n).await };
    let answers = [run_tool(fetch, "a".into()), run_tool(fetch_later, String::new()), run_tool(|n| fetch(n), "b".into())];
    println!("{answers:?}");
}
"#;

#[test]
fn a_router_answers_the_same_with_its_handlers_wrapped_in_closures() {
    let out = testing::same_behaviour(&EtaExpand, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    for expanded in [
        "self.register(\"trim\", |mm_a0| Self::trimmed(mm_a0));",
        "router.register(\"read_file\", |mm_a0| read_file(mm_a0))",
        "table.insert(\"read\", |mm_a0| read_file(mm_a0));",
        ".map(|mm_a0| parse_limit(mm_a0))",
        "Some(3u32).map(|mm_a0| describe(mm_a0))",
        "run_tool(|mm_a0| fetch(mm_a0), \"a\".into())",
    ] {
        assert!(text.contains(expanded), "{expanded}:\n{text}");
    }
    // A parameter is a local, not the fn of that name.
    assert!(text.contains("Box::new(f)"), "{text}");
    assert_eq!(out.sites, 6, "{text}");
}

#[test]
fn a_router_answers_the_same_with_its_forwarding_closures_reduced_to_fns() {
    let out = testing::same_behaviour(&EtaReduce, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    for reduced in [
        "self.register(\"trim2\", Self::trimmed);",
        ".register(\"echo\", echo);",
        "table.insert(\"echo\", echo);",
        ".map(describe).collect();",
        "let fetch_later = fetch;",
        "run_tool(fetch, \"b\".into())",
    ] {
        assert!(text.contains(reduced), "{reduced}:\n{text}");
    }
    assert_eq!(out.sites, 6, "{text}");
}

const SERVER: &str = "struct Value;
struct Server;
impl Server { fn tool(&self, name: &str, f: fn(Value) -> String) {} }
fn read_file(args: Value) -> String { String::new() }
fn apply(f: impl Fn(u32, u32) -> u32) -> u32 { f(1, 2) }
struct Tools;
impl Tools {
    fn add(a: u32, b: u32) -> u32 { a + b }
    fn total() -> u32 { apply(Self::add) }
}
";

#[test]
fn a_handler_argument_becomes_a_closure_with_the_fns_arity() {
    let main = format!("{SERVER}fn f(server: Server) {{ server.tool(\"read\", read_file); }}");
    let text = testing::rewritten(&EtaExpand, &main);
    assert!(
        text.contains("server.tool(\"read\", |mm_a0| read_file(mm_a0));"),
        "{text}"
    );
    assert!(
        text.contains("apply(|mm_a0, mm_a1| Self::add(mm_a0, mm_a1))"),
        "{text}"
    );
}

#[test]
fn closure_params_take_a_prefix_no_identifier_of_the_tree_uses() {
    let main =
        format!("{SERVER}fn f(server: Server, mm_a1: u8) {{ server.tool(\"read\", read_file); }}");
    let text = testing::rewritten(&EtaExpand, &main);
    assert!(text.contains("|mm_b0| read_file(mm_b0)"), "{text}");
}

#[test]
fn forwarding_closures_and_async_blocks_become_the_fn() {
    let text = testing::rewritten(
        &EtaReduce,
        "async fn fetch(name: String) -> String { name }
fn plain(name: String) -> String { name }
fn f() {
    let a = move |n| plain(n);
    let b = |n| async move { fetch(n).await };
    let c = |n| async move { plain(n).await };
}",
    );
    assert!(text.contains("let a = plain;"), "{text}");
    assert!(text.contains("let b = fetch;"), "{text}");
    // `plain`'s value is no future: that closure is not a forwarder.
    assert!(
        text.contains("let c = |n| async move { plain(n).await };"),
        "{text}"
    );
}

fn sites(family: &dyn Family, main: &str) -> usize {
    testing::rewrite(family, main).sites
}

const REF_FNS: &str = "use std::collections::HashMap;
type Handler = Box<dyn Fn(&str) -> String>;
fn by_ref(s: &str) -> String { s.to_string() }
fn owned_fn(s: String) -> String { s }
fn generic<T: ToString>(t: T) -> String { t.to_string() }
struct S;
impl S { fn run(&self, s: &str) -> String { String::new() } }
";

#[test]
fn fns_are_not_expanded_where_a_closure_could_get_another_type() {
    let cases = [
        // A local of that name, a generic fn, a method with `self`.
        "let by_ref = |s: &str| s.len(); server.tool(by_ref);",
        "server.tool(generic);",
        "server.tool(S::run);",
        // Macro arguments are not read.
        "let v = vec![owned_fn]; println!(\"{}\", (by_ref as fn(&str) -> String)(\"x\"));",
        // No expected signature for a reference parameter: not higher-ranked.
        "server.tool(\"read\", by_ref);",
        "let h = Box::new(by_ref) as Handler;",
        // Values of one map whose value type is unknown must share a type.
        "let mut m = HashMap::new(); m.insert(\"a\", owned_fn); m.insert(\"b\", owned_fn);",
        "let o = Some(owned_fn);",
    ];
    for case in cases {
        let main = format!("{REF_FNS}fn f(server: Server) {{ {case} }}");
        assert_eq!(sites(&EtaExpand, &main), 0, "{case}");
    }
    let in_const = format!("{REF_FNS}const fn f() {{ take(owned_fn); }}");
    assert_eq!(sites(&EtaExpand, &in_const), 0);
}

#[test]
fn closures_that_do_more_than_forward_or_may_coerce_are_not_reduced() {
    let cases = [
        "v.map(|s: String| owned_fn(s));",
        "v.map(|(a, b)| owned_fn(a));",
        "v.map(|s| owned_fn(s.clone()));",
        "v.map(|s| s.len());",
        "v.map(|a, b| two(b, a));",
        // A `&String` from the context would be coerced to `&str` by the call.
        "v.map(|s| by_ref(s));",
        "let h: fn(&String) -> String = |s| by_ref(s);",
        "let g = make(); v.map(|s| g(s));",
    ];
    for case in cases {
        let main = format!("{REF_FNS}fn two(a: u8, b: u8) {{}}\nfn f(v: V) {{ {case} }}");
        assert_eq!(sites(&EtaReduce, &main), 0, "{case}");
    }
}

#[test]
fn fns_of_other_modules_resolve_through_imports_and_module_paths() {
    let main = r#"
mod tools;
use crate::tools::shout;

fn main() {
    let names = vec!["read".to_string(), String::new()];
    let loud: Vec<String> = names.iter().cloned().map(shout).collect();
    let checked: Vec<Result<String, String>> = names.into_iter().map(|n| tools::check(n)).collect();
    let described: Vec<String> = [1u8, 2].into_iter().map(tools::inner::describe).collect();
    println!("{loud:?} {checked:?} {described:?}");
}
"#;
    let tools = r#"
pub fn shout(name: String) -> String {
    name.to_uppercase()
}

pub fn check(name: String) -> Result<String, String> {
    if name.is_empty() { Err("empty tool name".to_string()) } else { Ok(name) }
}

pub mod inner {
    pub fn describe(n: u8) -> String {
        format!("tool #{n}")
    }
}
"#;
    let files = [("src/main.rs", main), ("src/tools.rs", tools)];
    let out = testing::same_behaviour(&EtaExpand, &files);
    let text = &out.tree.files["src/main.rs"];
    assert!(text.contains(".map(|mm_a0| shout(mm_a0))"), "{text}");
    assert!(
        text.contains(".map(|mm_a0| tools::inner::describe(mm_a0))"),
        "{text}"
    );
    let out = testing::same_behaviour(&EtaReduce, &files);
    assert!(out.tree.files["src/main.rs"].contains(".map(tools::check)"));
}

#[test]
fn fns_under_an_attribute_macro_are_not_taken_for_fns() {
    // actix's `#[post("/")]` makes a struct of the fn; `#[tool_router]` may rewrite an impl.
    let main = "#[post(\"/call\")]
async fn call_tool(body: Json) -> String { String::new() }
#[tool_router]
impl Tools { fn list() -> String { String::new() } }
#[tracing::instrument]
fn traced(id: u64) -> u64 { id }
fn f(app: App) {
    app.service(call_tool);
    app.service(Tools::list);
    app.service(traced);
}";
    let text = testing::rewritten(&EtaExpand, main);
    assert!(text.contains("app.service(call_tool);"), "{text}");
    assert!(text.contains("app.service(Tools::list);"), "{text}");
    assert!(
        text.contains("app.service(|mm_a0| traced(mm_a0));"),
        "{text}"
    );
}

/// A router in the shape of axum's: handlers are any `FnOnce(T1, ..) -> Fut` through a trait
/// of its own, with extractor (owned) parameters.
const AXUM_LIKE: &str = r#"
use std::future::Future;
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};

struct State(String);
struct Query(String);

trait FromRequest { fn from_request(req: &str) -> Self; }
impl FromRequest for State { fn from_request(_: &str) -> Self { State("app".to_string()) } }
impl FromRequest for Query { fn from_request(req: &str) -> Self { Query(req.to_string()) } }

type Boxed = Box<dyn Fn(&str) -> Pin<Box<dyn Future<Output = String>>>>;

trait Handler<T>: Clone + 'static { fn into_boxed(self) -> Boxed; }

impl<F, Fut> Handler<()> for F where F: FnOnce() -> Fut + Clone + 'static, Fut: Future<Output = String> + 'static {
    fn into_boxed(self) -> Boxed { Box::new(move |_| Box::pin((self.clone())())) }
}

impl<F, Fut, T1, T2> Handler<(T1, T2)> for F
where F: FnOnce(T1, T2) -> Fut + Clone + 'static, Fut: Future<Output = String> + 'static, T1: FromRequest, T2: FromRequest {
    fn into_boxed(self) -> Boxed {
        Box::new(move |req| Box::pin((self.clone())(T1::from_request(req), T2::from_request(req))))
    }
}

fn get<H: Handler<T>, T>(handler: H) -> Boxed { handler.into_boxed() }

async fn health() -> String { "ok".to_string() }

async fn call_tool(State(app): State, Query(q): Query) -> String {
    if q.is_empty() { format!("{app}: error: empty tool name") } else { format!("{app}: called {q}") }
}

fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) { return v; }
    }
}

fn main() {
    let routes = [("/health", get(health)), ("/tools/call", get(call_tool))];
    for (path, req) in [("/health", ""), ("/tools/call", "read"), ("/tools/call", ""), ("/nope", "x")] {
        match routes.iter().find(|(p, _)| *p == path) {
            Some((_, h)) => println!("{path}: {}", block_on(h(req))),
            None => println!("{path}: not found"),
        }
    }
}
"#;

#[test]
fn handlers_of_a_trait_blanket_over_fn_once_work_as_closures() {
    let out = testing::same_behaviour(&EtaExpand, &[("src/main.rs", AXUM_LIKE)]);
    let text = &out.tree.files["src/main.rs"];
    assert!(text.contains("get(|| health())"), "{text}");
    assert!(
        text.contains("get(|mm_a0, mm_a1| call_tool(mm_a0, mm_a1))"),
        "{text}"
    );
}
