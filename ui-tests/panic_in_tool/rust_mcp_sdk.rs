//@ dep: rust-mcp-sdk = "1.0"
// rust-mcp-sdk: panics in handle_call_tool_request and in the tool methods it runs leave the
// request unanswered (the SDK catches no panics).
use std::sync::{Arc, Mutex};

use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};
use rust_mcp_sdk::McpServer;

pub struct Echo {
    pub message: Option<String>,
}

impl Echo {
    pub async fn run_tool(self) -> Result<CallToolResult, CallToolError> {
        let message = self.message.unwrap();
        Ok(CallToolResult::text_content(vec![TextContent::from(message)]))
    }
}

pub struct Handler {
    pub count: Mutex<u32>,
}

#[async_trait::async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        *self.count.lock().unwrap() += 1;
        let args = params.arguments.expect("arguments are present");
        Ok(CallToolResult::text_content(vec![TextContent::from(format!("{args:?}"))]))
    }
}
