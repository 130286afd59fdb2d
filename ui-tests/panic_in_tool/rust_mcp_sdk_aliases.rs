//@ dep: rust-mcp-sdk = "1.1"
// rust-mcp-sdk tools whose return type is written through the crate's aliases, a plain one
// and a generic one: an alias is the type it names, so these are the SDK's tool methods and
// their panics are reported as in a tool written with the full `Result`.
use std::sync::Arc;

use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};
use rust_mcp_sdk::McpServer;

type ToolResult = Result<CallToolResult, CallToolError>;
type Answer<T> = std::result::Result<T, CallToolError>;

pub struct Limit {
    pub value: String,
}

impl Limit {
    pub fn call_tool(&self) -> ToolResult {
        let n: usize = self.value.parse().unwrap();
        Ok(CallToolResult::text_content(vec![TextContent::from(n.to_string())]))
    }
}

pub struct Offset {
    pub value: String,
}

impl Offset {
    pub fn call_tool(&self) -> Answer<CallToolResult> {
        let n: i64 = self.value.parse().expect("an integer");
        Ok(CallToolResult::text_content(vec![TextContent::from(n.to_string())]))
    }
}

pub struct Handler;

#[async_trait::async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> ToolResult {
        let value = params
            .arguments
            .and_then(|a| a.get("value").and_then(|v| v.as_str().map(String::from)))
            .unwrap_or_default();
        match params.name.as_str() {
            "limit" => Limit { value }.call_tool(),
            "offset" => Offset { value }.call_tool(),
            _ => Err(CallToolError::unknown_tool(params.name)),
        }
    }
}
