//@ dep: rmcp = "2.1"
// Error types reached through a type alias and a glob import; a String alias stays a tool error.
use rmcp::model::*;
use rmcp::{tool, tool_router};

type ToolResult = Result<CallToolResult, ErrorData>;
type TextResult<T> = std::result::Result<T, String>;

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Disk usage")]
    async fn usage(&self) -> ToolResult {
        let meta = std::fs::metadata("/")
            .map_err(|e| ErrorData::internal_error(format!("stat failed: {e}"), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(meta.len().to_string())]))
    }

    #[tool(description = "Hostname")]
    async fn hostname(&self) -> TextResult<String> {
        let name = std::fs::read_to_string("/etc/hostname").map_err(|e| e.to_string())?;
        Ok(name)
    }
}
