//@ dep: rmcp = "3.11"
// The Debug form of an error passed to a helper that sends its argument in an isError result.
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
fn fail(msg: String) -> CallToolResult { CallToolResult::error(vec![ContentBlock::text(msg)]) }
pub struct Server;
#[tool_router]
impl Server {
    #[tool(description = "1")]
    async fn one(&self, p: String) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string(&p) { Ok(t) => Ok(CallToolResult::success(vec![ContentBlock::text(t)])), Err(e) => Ok(fail(format!("{e:?}"))) }
    }
}
