//@ dep: rmcp = "0.8"
// A hand-written call_tool answering unknown names with a tool result; the same catch-all
// in a match on something other than the tool name is not reported.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Server;

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let mode = std::env::var("MODE").unwrap_or_default();
        let greeting = match mode.as_str() {
            "loud" => "HELLO",
            _ => "hello",
        };
        match request.name.as_ref() {
            "greet" => Ok(CallToolResult::success(vec![Content::text(greeting)])),
            other => Ok(CallToolResult::error(vec![Content::text(format!(
                "unknown tool {other}"
            ))])),
        }
    }
}
