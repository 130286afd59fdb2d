//@ dep: rmcp = "3.11"
// A manual call_tool whose body is an async block awaited in place: `async move { .. }.await`
// evaluates the block where it stands, so the block's exits are call_tool's. The internal
// error made at its tail is reported once, where it is made; the unknown tool's
// invalid_params is the spec's answer.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Files;

impl Files {
    async fn stat(&self, path: &str) -> std::io::Result<u64> {
        Ok(tokio::fs::metadata(path).await?.len())
    }
}

impl ServerHandler for Files {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        async move {
            let size = match request.name.as_ref() {
                "stat" => self.stat("Cargo.toml").await,
                other => {
                    return Err(McpError::invalid_params(format!("no tool {other}"), None));
                }
            };
            size.map(|n| CallToolResult::success(vec![Content::text(n.to_string())]).into())
                .map_err(|e| McpError::internal_error(e.to_string(), None))
        }
        .await
    }
}
