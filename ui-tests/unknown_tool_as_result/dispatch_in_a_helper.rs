//@ dep: rmcp = "0.8"
// A call_tool that lets a helper pick the tool: the helper's catch-all answers a name no tool
// has with a tool result, which is reported there, as in the dispatcher's own `match`.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Server;

impl Server {
    fn answer(&self, request: &CallToolRequestParam) -> CallToolResult {
        match request.name.as_ref() {
            "ping" => CallToolResult::success(vec![Content::text("pong")]),
            other => CallToolResult::error(vec![Content::text(format!("no tool called {other}"))]),
        }
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let result = self.answer(&request);
        Ok(result)
    }
}
