//@ dep: rmcp = "0.14"
// A result whose `is_error` is computed from the same verdict as its text answers a failure
// as one: `is_error: Some(!removed)` is `true` exactly when the text says the removal failed
// (not reported). The same text under a literal `is_error: Some(false)` is a failure sent as
// a success (reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Files;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Target {
    path: String,
}

#[tool_router]
impl Files {
    #[tool(description = "Remove a file")]
    async fn remove(&self, Parameters(t): Parameters<Target>) -> Result<CallToolResult, McpError> {
        let removed = std::fs::remove_file(&t.path).is_ok();
        let text = if removed {
            format!("removed {}", t.path)
        } else {
            format!("Failed to remove {}", t.path)
        };
        Ok(CallToolResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: Some(!removed),
            meta: None,
        })
    }

    #[tool(description = "Remove a file, always reporting success")]
    async fn remove_quietly(&self, Parameters(t): Parameters<Target>) -> Result<CallToolResult, McpError> {
        let text = match std::fs::remove_file(&t.path) {
            Ok(()) => format!("removed {}", t.path),
            Err(e) => format!("Failed to remove {}: {e}", t.path),
        };
        Ok(CallToolResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: Some(false),
            meta: None,
        })
    }
}

fn main() {}
