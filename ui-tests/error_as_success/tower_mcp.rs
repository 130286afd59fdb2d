//@ dep: tower-mcp = "0.25"
// tower-mcp: failure text sent with CallToolResult::text from a handler closure.
use tower_mcp::{CallToolResult, ToolBuilder};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    path: String,
}

pub fn build() -> tower_mcp::Tool {
    ToolBuilder::new("read")
        .description("Read a file")
        .handler(|input: Input| async move {
            match std::fs::read_to_string(&input.path) {
                Ok(text) => Ok(CallToolResult::text(text)),
                Err(e) => Ok(CallToolResult::text(format!("Error: {e}"))),
            }
        })
        .build()
}
