//@ dep: rmcp = "1.6"
// Serializing the tool's own data to JSON does not fail on it (the same judgement as for
// `serde_json::to_string(..).unwrap()`), so its mapped error is no path the tool takes
// (clean). Reading the caller's JSON can fail: that `?` is reported.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Note {
    pub title: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Show a note")]
    async fn show(&self) -> Result<CallToolResult, McpError> {
        let note = Note {
            title: "groceries".into(),
        };
        let text = serde_json::to_string_pretty(&note)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Read a note")]
    async fn read(&self, raw: String) -> Result<CallToolResult, McpError> {
        let note: Note = serde_json::from_str(&raw)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(note.title)]))
    }
}
