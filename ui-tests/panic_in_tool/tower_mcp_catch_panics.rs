//@ dep: tower-mcp = "0.25"
// tower-mcp with the router's opt-in catch_panics(): a panic becomes an isError result.
use tower_mcp::{CallToolResult, McpRouter, ToolBuilder};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    path: String,
}

pub fn router() -> McpRouter {
    let head = ToolBuilder::new("head")
        .description("First line of a file")
        .handler(|input: Input| async move {
            let text = std::fs::read_to_string(&input.path).unwrap();
            Ok(CallToolResult::text(text))
        })
        .build();
    McpRouter::new().tool(head).catch_panics()
}
