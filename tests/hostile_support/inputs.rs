//! Generated hostile inputs.

/// A stdio server whose `main` prints to stdout: one deny-level finding that must always be
/// reported, whatever the other files do.
pub const STDIO_SERVER: &str = r#"use rmcp::{ServiceExt, transport::stdio};
pub struct S;
impl rmcp::ServerHandler for S {}
#[tokio::main]
async fn main() {
    println!("hello");
    S.serve(stdio()).await.unwrap().waiting().await.unwrap();
}
"#;

/// A tool whose body is `body`.
pub fn tool(body: &str) -> String {
    format!(
        "use rmcp::{{ErrorData as McpError, model::CallToolResult, tool, tool_router}};\n\
         pub struct T;\n#[tool_router]\nimpl T {{\n    #[tool(description = \"x\")]\n    \
         async fn run(&self) -> Result<CallToolResult, McpError> {{\n{body}\n        \
         Ok(CallToolResult::success(vec![]))\n    }}\n}}\n"
    )
}

/// One nesting shape: (name, text before, one level's opening, innermost, one level's
/// closing, text after), as the body of a fn.
pub type Shape = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// Every shape that makes syn, its drop or the walk recurse once per level.
pub const SHAPES: &[Shape] = &[
    ("negation", "fn f() { let _ = ", "- ", "1", "", "; }"),
    ("not", "fn f() { let _ = ", "!", "true", "", "; }"),
    ("deref", "fn f() { let _ = ", "*", "x", "", "; }"),
    ("reference", "fn f() { let _ = ", "&", "x", "", "; }"),
    ("return", "fn f() { ", "return ", "1", "", "; }"),
    ("closures", "fn f() { let _ = ", "|| ", "1", "", "; }"),
    (
        "closures_with_params",
        "fn f() { let _ = ",
        "|x| ",
        "x",
        "",
        "; }",
    ),
    ("parens", "fn f() { let _ = ", "(", "1", ")", "; }"),
    ("arrays", "fn f() { let _ = ", "[", "1", "]", "; }"),
    ("blocks", "fn f() { let _ = ", "{", "1", "}", "; }"),
    ("calls", "fn f() { let _ = ", "g(", "1", ")", "; }"),
    ("ifs", "fn f() { ", "if a { ", "1", "}", " }"),
    (
        "else_ifs",
        "fn f() { if a {} ",
        "else if a {} ",
        "",
        "",
        " }",
    ),
    ("assignments", "fn f() { ", "a = ", "1", "", "; }"),
    ("binary", "fn f() { let _ = 1", " + 1", "", "", "; }"),
    (
        "generic_types",
        "fn f() { let _: ",
        "Vec<",
        "u8",
        ">",
        " = x; }",
    ),
    (
        "reference_types",
        "fn f() { let _: ",
        "&",
        "u8",
        "",
        " = x; }",
    ),
    (
        "fn_types",
        "fn f() { let _: ",
        "fn() -> ",
        "u8",
        "",
        " = x; }",
    ),
    (
        "tuple_types",
        "fn f() { let _: ",
        "(",
        "u8",
        ",)",
        " = x; }",
    ),
    (
        "reference_patterns",
        "fn f() { let ",
        "&",
        "y",
        "",
        " = x; }",
    ),
    ("tuple_patterns", "fn f() { let ", "(", "y", ",)", " = x; }"),
    (
        "struct_patterns",
        "fn f() { let ",
        "S(",
        "y",
        ")",
        " = x; }",
    ),
    ("modules", "", "mod m { ", "fn f() {}", "}", ""),
    ("use_trees", "use ", "a::{", "b", "}", ";"),
    (
        "macro_args",
        "fn f() { println!(\"{}\", ",
        "- ",
        "1",
        "",
        "); }",
    ),
];

/// `shape` nested `levels` deep.
pub fn nested(shape: &Shape, levels: usize) -> String {
    let (_, before, open, inner, close, after) = shape;
    format!(
        "{before}{}{inner}{}{after}\n",
        open.repeat(levels),
        close.repeat(levels)
    )
}

/// How many levels of `shape` fit within the stack budget of this build, less a margin: the
/// depth at which the analysis must run fully (and not overflow).
pub fn deepest_admitted(shape: &Shape) -> usize {
    let per_level = mcp_lint::nesting::segments(&nested(shape, 100))
        .iter()
        .map(|s| s.bound)
        .max()
        .unwrap_or(1)
        .div_ceil(100)
        .max(1);
    (mcp_lint::source::max_levels() / per_level).saturating_sub(16)
}

/// Type aliases of aliases that double at each step, each of sixteen parameters: expanded
/// naively, 16^8 nodes.
pub fn alias_bomb() -> String {
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I"];
    let mut text = format!("type A<T> = ({});\n", "T, ".repeat(16));
    for pair in names.windows(2) {
        text.push_str(&format!("type {1}<T> = {0}<{0}<T>>;\n", pair[0], pair[1]));
    }
    text + &tool("        let _: I<u8> = todo!();")
        .replace("Result<CallToolResult, McpError>", "I<u8>")
}
