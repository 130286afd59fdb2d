//@ dep: rmcp = "3.11"
// In a hand-written call_tool, parse_json_object(..)? is a -32602 protocol error in every
// rmcp version; the unknown-tool arm is not reported.
use rmcp::handler::server::tool::parse_json_object;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

#[derive(serde::Deserialize)]
struct EchoArgs {
    text: String,
}

pub struct Server;

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "echo" => {
                let args: EchoArgs = parse_json_object(request.arguments.unwrap_or_default())?;
                Ok(CallToolResult::success(vec![ContentBlock::text(args.text)]).into())
            }
            _ => Err(ErrorData::invalid_params("tool not found", None)),
        }
    }
}
