//@ dep: rust-mcp-sdk = "0.7"
// rust-mcp-sdk: text_content built from an error is a success (isError absent);
// CallToolResult::with_error is the right way.
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolResult, TextContent};

pub struct Stat {
    pub path: String,
}

impl Stat {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        match std::fs::metadata(&self.path) {
            Ok(m) => Ok(CallToolResult::text_content(vec![TextContent::from(m.len().to_string())])),
            Err(e) => Ok(CallToolResult::text_content(vec![TextContent::from(format!(
                "Error: {e}"
            ))])),
        }
    }

    pub fn run_tool(&self) -> Result<CallToolResult, CallToolError> {
        match std::fs::metadata(&self.path) {
            Ok(m) => Ok(CallToolResult::text_content(vec![TextContent::from(m.len().to_string())])),
            Err(e) => Ok(CallToolResult::with_error(CallToolError::new(e))),
        }
    }
}
