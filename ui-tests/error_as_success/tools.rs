//@ dep: rmcp = "3.11"
// Failures returned as successful results, and look-alikes that are fine.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        match std::fs::read_to_string(&args.path) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "could not read {}: {e}",
                args.path
            ))])),
        }
    }

    #[tool(description = "Stat a file")]
    async fn stat(&self, Parameters(args): Parameters<Args>) -> String {
        match std::fs::metadata(&args.path) {
            Ok(m) => m.len().to_string(),
            Err(e) => e.to_string(),
        }
    }

    #[tool(description = "Check a file")]
    async fn check(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        if !std::path::Path::new(&args.path).exists() {
            return Ok("Error: file not found".to_string());
        }
        let size = std::fs::metadata(&args.path)
            .map(|m| m.len().to_string())
            .unwrap_or_else(|e| format!("{e}"));
        Ok(size)
    }

    #[tool(description = "Right: Err(String) becomes isError")]
    async fn right(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        std::fs::read_to_string(&args.path).map_err(|e| format!("Failed to read: {e}"))
    }

    #[tool(description = "Right: log search returning lines that mention ERROR")]
    async fn grep_errors(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let lines: Vec<String> = std::fs::read_to_string(&args.path)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("ERROR"))
            .map(String::from)
            .collect();
        if lines.is_empty() {
            return Ok(CallToolResult::success(vec![ContentBlock::text("No results found")]));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(lines.join("\n"))]))
    }
}
