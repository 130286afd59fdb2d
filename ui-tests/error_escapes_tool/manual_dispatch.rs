//@ dep: rmcp = "0.12"
// A manual call_tool: the unknown-tool arm is a protocol error by spec; execution failures
// in the dispatcher and in the fns it dispatches to are not.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Server;

impl Server {
    async fn fetch(&self, url: &str) -> Result<CallToolResult, ErrorData> {
        let body = reqwest::get(url)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("{}", body.status()))]))
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match request.name.as_ref() {
            "fetch" => self.fetch("https://example.com").await,
            "time" => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Ok(CallToolResult::success(vec![Content::text(now.as_secs().to_string())]))
            }
            other => Err(ErrorData::invalid_params(format!("unknown tool {other}"), None)),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        // Resources have no isError: a protocol error is right here.
        Err(ErrorData::resource_not_found(request.uri, None))
    }
}
