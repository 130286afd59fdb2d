//@ dep: rmcp = "3.11"
// The spec's answer (a -32602 protocol error) is not reported, and neither is a #[tool] fn:
// rmcp's router answers unknown tools itself.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Convert")]
    async fn convert(&self) -> Result<CallToolResult, ErrorData> {
        let unit = std::env::var("UNIT").unwrap_or_default();
        match unit.as_str() {
            "c" => Ok(CallToolResult::success(vec![ContentBlock::text("celsius")])),
            _ => Ok(CallToolResult::error(vec![ContentBlock::text("unsupported unit")])),
        }
    }
}

pub struct Manual;

impl ServerHandler for Manual {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![ContentBlock::text("pong")]).into()),
            name => Err(ErrorData::invalid_params(format!("unknown tool: {name}"), None)),
        }
    }
}
