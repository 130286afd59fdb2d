//@ dep: rmcp = "0.8"
// Failure text built by a same-crate helper, and structured results that carry an error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::json;

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub id: u64,
}

fn error_text(what: &str) -> String {
    format!("Error: {what}")
}

fn describe(id: u64) -> String {
    format!("item {id}")
}

fn fetch(id: u64) -> Result<String, std::io::Error> {
    std::fs::read_to_string(format!("/items/{id}"))
}

#[tool_router]
impl Server {
    #[tool(description = "Fetch an item")]
    async fn item(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        if args.id == 0 {
            return Ok(error_text("id must not be zero"));
        }
        Ok(describe(args.id))
    }

    #[tool(description = "Fetch an item as JSON")]
    async fn item_json(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        match fetch(args.id) {
            Ok(body) => Ok(CallToolResult::structured(json!({"body": body}))),
            Err(e) => Ok(CallToolResult::structured(json!({"error": e.to_string()}))),
        }
    }

    #[tool(description = "Report status")]
    async fn status(&self) -> Result<CallToolResult, McpError> {
        if std::env::var("DOWN").is_ok() {
            return Ok(CallToolResult::structured(json!({"success": false, "reason": "down"})));
        }
        Ok(CallToolResult::structured(json!({"success": true})))
    }
}
