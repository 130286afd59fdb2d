//@ dep: rmcp = "3.11"
// A manual call_tool whose match on the tool name is its tail: a tool's failure in an arm is
// reported; the catch-all arm's invalid_params is the spec's answer to an unknown tool.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
pub struct Server;
impl ServerHandler for Server {
    async fn call_tool(&self, request: CallToolRequestParams, _c: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "echo" => Ok(CallToolResult::success(vec![Content::text("x")])),
            "fail" => Err(McpError::internal_error("boom", None)),
            _ => Err(McpError::invalid_params("bad name", None)),
        }
    }
}
