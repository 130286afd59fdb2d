//@ dep: rust-mcp-sdk = "1.1"
// rust-mcp-sdk: every Err(CallToolError) from handle_call_tool_request (and from the tool
// methods it dispatches to) becomes an isError result, unknown tools included. Nothing here is
// a protocol error.
use std::sync::Arc;

use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};
use rust_mcp_sdk::McpServer;

pub struct ReadFile {
    pub path: String,
}

impl ReadFile {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        let text = std::fs::read_to_string(&self.path).map_err(CallToolError::new)?;
        if text.is_empty() {
            return Err(CallToolError::from_message("the file is empty"));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}

pub struct Handler;

#[async_trait::async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        match params.name.as_str() {
            "read_file" => ReadFile { path: "/tmp/x".into() }.call_tool(),
            _ => Err(CallToolError::unknown_tool(params.name)),
        }
    }
}
