use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode, ServerInfo};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub name: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct AppendArgs {
    pub name: String,
    pub line: String,
    pub at: Option<usize>,
}

pub struct Notes {
    notes: Mutex<HashMap<String, Vec<String>>>,
    tool_router: ToolRouter<Self>,
}

const QUOTA_EXCEEDED: i32 = -32050;

#[tool_router]
impl Notes {
    pub fn new() -> Self {
        Self {
            notes: Mutex::new(HashMap::new()),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read a note from disk")]
    async fn read_note(
        &self,
        Parameters(args): Parameters<ReadArgs>,
    ) -> Result<CallToolResult, McpError> {
        if args.name.is_empty() {
            return Err(McpError::invalid_params("name must not be empty", None));
        }
        let text = std::fs::read_to_string(format!("notes/{}.md", args.name))
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Append a line to a note")]
    async fn append(&self, Parameters(args): Parameters<AppendArgs>) -> Result<String, String> {
        let mut notes = self.notes.lock().unwrap();
        let lines = notes.entry(args.name.clone()).or_default();
        let at = args.at.unwrap_or(lines.len());
        let previous = lines[at - 1].clone();
        lines.insert(at, args.line);
        Ok(format!("appended after: {previous}"))
    }

    #[tool(description = "Delete a note")]
    async fn delete(&self, Parameters(args): Parameters<ReadArgs>) -> Result<CallToolResult, McpError> {
        match std::fs::remove_file(format!("notes/{}.md", args.name)) {
            Ok(()) => Ok(CallToolResult::success(vec![Content::text("deleted")])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!(
                "Failed to delete {}: {e}",
                args.name
            ))])),
        }
    }

    #[tool(description = "Count notes")]
    async fn count(&self) -> Result<CallToolResult, McpError> {
        let notes = self.notes.lock().unwrap();
        if notes.len() > 1000 {
            return Err(McpError::new(ErrorCode(QUOTA_EXCEEDED), "too many notes", None));
        }
        let summary = summarize(&notes);
        Ok(CallToolResult::success(vec![Content::text(summary)]))
    }
}

fn summarize(notes: &HashMap<String, Vec<String>>) -> String {
    let first = notes.keys().next().expect("at least one note");
    format!("{} notes, first: {first}", notes.len())
}

#[tool_handler]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::default()
    }
}
