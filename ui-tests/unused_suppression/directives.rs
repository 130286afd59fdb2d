//@ dep: rmcp = "3.11"
// Suppression comments: on the line, above a statement, above an item, `expect`, file level;
// unused and unexplained ones are reported.
use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ServiceExt, tool, tool_router, transport::stdio};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "On the line")]
    async fn on_line(&self, path: String) -> Result<String, String> {
        let text = std::fs::read_to_string(path).unwrap(); // mcp-lint: allow(panic_in_tool, reason = "the path is checked by the client")
        Ok(text)
    }

    #[tool(description = "Above a statement, no reason")]
    async fn above(&self, path: String) -> Result<String, String> {
        // mcp-lint: allow(panic_in_tool)
        let text = std::fs::read_to_string(path).unwrap();
        Ok(text)
    }

    // mcp-lint: expect(error_escapes_tool, reason = "the host maps -32603 to a retry")
    #[tool(description = "Above an item")]
    async fn item(&self, path: String) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    // mcp-lint: expect(panic_in_tool, reason = "nothing panics here any more")
    #[tool(description = "Unfulfilled")]
    async fn clean(&self) -> String {
        "ok".into()
    }

    #[tool(description = "Typo")]
    async fn typo(&self, path: String) -> Result<String, String> {
        let text = std::fs::read_to_string(path).unwrap(); // mcp-lint: allow(panic_in_tol, reason = "typo")
        Ok(text)
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // mcp-lint: allow(stdout_in_stdio_server, reason = "the banner goes out before the client connects")
    println!("starting");
    Server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
