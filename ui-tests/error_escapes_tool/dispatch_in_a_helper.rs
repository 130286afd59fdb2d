//@ dep: rmcp = "0.8"
// A call_tool that hands the request on before it selects a tool: the helper's `match` on the
// name is the dispatcher's. A tool's failure in one of its arms is reported; its catch-all's
// invalid_params is the spec's answer to an unknown tool, and the helper is no tool itself.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Server;

impl Server {
    async fn route(&self, call: CallToolRequestParam) -> Result<CallToolResult, ErrorData> {
        let args = call.arguments.clone().unwrap_or_default();
        match call.name.as_ref() {
            "size" => {
                let path = args.get("path").and_then(|v| v.as_str()).unwrap_or(".");
                let meta = std::fs::metadata(path)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Ok(CallToolResult::success(vec![Content::text(meta.len().to_string())]))
            }
            "version" => Ok(CallToolResult::success(vec![Content::text("1.0")])),
            unknown => Err(ErrorData::invalid_params(format!("no tool {unknown}"), None)),
        }
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        self.route(request).await
    }
}
