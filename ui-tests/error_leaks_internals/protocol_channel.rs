//@ dep: rmcp = "0.8"
// An Err that becomes a JSON-RPC error is error_escapes_tool's concern, not a leak into a
// tool result; a backtrace in an isError result is reported.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Protocol error")]
    async fn proto(&self) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string("/etc/hostname")
            .map_err(|e| McpError::internal_error(format!("{e:?}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Backtrace")]
    async fn trace(&self) -> Result<CallToolResult, McpError> {
        let bt = std::backtrace::Backtrace::capture();
        Ok(CallToolResult::error(vec![Content::text(format!("failed at {}", bt))]))
    }
}
