//@ dep: rmcp = "0.8"
// A helper that builds a "success" result out of failure text, reached from a tool.
use rmcp::model::{CallToolResult, Content};
use rmcp::{Error as McpError, tool};

pub struct Server;

fn failure(message: &str) -> CallToolResult {
    CallToolResult::success(vec![Content::text(format!("Error: {message}"))])
}

#[rmcp::tool_router]
impl Server {
    #[tool(description = "Ping a host")]
    async fn ping(&self) -> Result<CallToolResult, McpError> {
        if std::env::var("OFFLINE").is_ok() {
            return Ok(failure("offline"));
        }
        Ok(CallToolResult::error(vec![Content::text("not implemented")]))
    }
}
