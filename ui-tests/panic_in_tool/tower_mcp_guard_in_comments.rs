//@ dep: tower-mcp = "0.25"
//@ lib
// tower-mcp catches a handler's panic only when the code calls the router's `catch_panics`.
// Here the call is only written in a comment and in a string: no guard is on, and the panic
// is reported. (Turn it on with `McpRouter::new().catch_panics()`.)
use tower_mcp::{CallToolResult, ToolBuilder};

const SETUP_HINT: &str = "build the router with .catch_panics() to answer panics";

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    index: usize,
}

pub fn pick_tool() -> tower_mcp::Tool {
    ToolBuilder::new("pick")
        .description(SETUP_HINT)
        .handler(|q: Query| async move {
            let names = ["alpha", "beta", "gamma"];
            let name = names.get(q.index).copied().unwrap();
            Ok(CallToolResult::text(name))
        })
        .build()
}
