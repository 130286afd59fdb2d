//@ dep: ultrafast-mcp = "202506018.1"
// ultrafast-mcp: one handle_tool_call dispatches every tool; an unknown name answered with an
// isError result instead of an error, and a panic on the way.
use async_trait::async_trait;
use ultrafast_mcp::{MCPError, MCPResult, ToolCall, ToolContent, ToolHandler, ToolResult};

pub struct Echo;

#[async_trait]
impl ToolHandler for Echo {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "echo" => {
                let args = call.arguments.unwrap();
                Ok(ToolResult {
                    content: vec![ToolContent::text(args.to_string())],
                    is_error: Some(false),
                })
            }
            other => Ok(ToolResult {
                content: vec![ToolContent::text(format!("Unknown tool: {other}"))],
                is_error: Some(true),
            }),
        }
    }
}

fn _unused(e: std::io::Error) -> MCPError {
    MCPError::internal_error(e.to_string())
}
