//@ dep: rmcp = "0.8"
// A `call_tool` whose whole body hands the request to a helper of the server: the helper is
// the dispatcher itself. It looks the tool up in a map of trait objects, so each
// implementation it may run is a tool, and a tool's failure returned as `Err` is reported
// where it is made, as it would be were the lookup written in `call_tool`.
use std::collections::HashMap;

use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

trait Tool: Send + Sync {
    fn run(&self, args: JsonObject) -> Result<CallToolResult, ErrorData>;
}

struct Read;

impl Tool for Read {
    fn run(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let path = args.get("path").and_then(|v| v.as_str()).unwrap_or("README.md");
        let text = std::fs::read_to_string(path)
            .map_err(|e| ErrorData::internal_error(format!("{path}: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

struct Length;

impl Tool for Length {
    fn run(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let text = args.get("text").and_then(|v| v.as_str()).unwrap_or_default();
        Ok(CallToolResult::success(vec![Content::text(text.len().to_string())]))
    }
}

pub struct Server {
    tools: HashMap<&'static str, Box<dyn Tool>>,
}

impl Server {
    async fn dispatch(&self, request: CallToolRequestParam) -> Result<CallToolResult, ErrorData> {
        let tool = self
            .tools
            .get(request.name.as_ref())
            .ok_or_else(|| ErrorData::invalid_params(format!("no tool {}", request.name), None))?;
        tool.run(request.arguments.unwrap_or_default())
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        self.dispatch(request).await
    }
}
