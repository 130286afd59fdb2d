//@ dep: rmcp = "3.11"
//@ manifest: [package.metadata.mcp-lint]
//@ manifest: error-builders = ["tool_failure"]
// A project's own error-result builder, named in the configuration: what it is given is sent
// to the model as an isError result.
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

fn tool_failure(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Stat")]
    async fn stat(&self, path: String) -> Result<CallToolResult, McpError> {
        match std::fs::metadata(&path) {
            Ok(m) => Ok(CallToolResult::success(vec![ContentBlock::text(m.len().to_string())])),
            Err(e) => Ok(tool_failure(format!("stat failed: {e:?}"))),
        }
    }
}
