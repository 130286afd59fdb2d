//@ dep: rmcp = "2.1"
// Tools whose whole body is a call of a fn in another module: that fn is the tool's body, so
// its failures sit where they would in the tool itself (the `?` that returns them). A helper
// other code also calls stays a helper: there the place is where the error object is made.
use rmcp::model::*;
use rmcp::{tool, tool_router};

pub struct Server {
    root: String,
}

mod disk {
    use super::Server;
    use rmcp::model::*;

    pub async fn size(server: &Server) -> Result<CallToolResult, ErrorData> {
        let meta = std::fs::metadata(&server.root).map_err(|e| {
            ErrorData::internal_error(format!("cannot stat {}: {e}", server.root), None)
        })?;
        Ok(CallToolResult::success(vec![ContentBlock::text(meta.len().to_string())]))
    }

    pub fn first_line(server: &Server) -> Result<String, ErrorData> {
        let text = std::fs::read_to_string(&server.root).map_err(|e| {
            ErrorData::internal_error(format!("cannot read {}: {e}", server.root), None)
        })?;
        Ok(text.lines().next().unwrap_or_default().to_string())
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Size of the root")]
    async fn size(&self) -> Result<CallToolResult, ErrorData> {
        disk::size(self).await
    }

    #[tool(description = "First line of the root")]
    async fn head(&self) -> Result<CallToolResult, ErrorData> {
        let line = disk::first_line(self)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(line)]))
    }

    #[tool(description = "Title of the root")]
    async fn title(&self) -> Result<CallToolResult, ErrorData> {
        disk::first_line(self).map(|t| CallToolResult::success(vec![ContentBlock::text(t)]))
    }
}
