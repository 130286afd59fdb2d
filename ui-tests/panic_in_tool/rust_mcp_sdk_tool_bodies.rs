//@ dep: rust-mcp-sdk = "1.0"
// rust-mcp-sdk takes a method returning `Result<CallToolResult, CallToolError>` for a tool. One
// that only a tool calls, and whose value that tool returns unchanged, is the tool's body: a
// panic there is reported once, reached from the tool. The dispatcher hands the request to a
// helper that selects the tool by name: that helper is the dispatcher's, not a tool.
use std::sync::Arc;

use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};
use rust_mcp_sdk::McpServer;

pub struct Shout {
    pub text: Option<String>,
}

impl Shout {
    pub async fn run_tool(self) -> Result<CallToolResult, CallToolError> {
        self.upper().await
    }

    async fn upper(self) -> Result<CallToolResult, CallToolError> {
        let text = self.text.expect("the schema requires text");
        Ok(CallToolResult::text_content(vec![TextContent::from(text.to_uppercase())]))
    }
}

pub struct Handler;

impl Handler {
    async fn route(&self, params: CallToolRequestParams) -> Result<CallToolResult, CallToolError> {
        match params.name.as_str() {
            "shout" => {
                let text = params
                    .arguments
                    .and_then(|a| a.get("text").and_then(|t| t.as_str()).map(String::from));
                Shout { text }.run_tool().await
            }
            other => Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "unknown tool {other}"
            ))])),
        }
    }
}

#[async_trait::async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        self.route(params).await
    }
}
