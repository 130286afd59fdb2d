//@ dep: rmcp = "3.11"
// The lint is opt-in: without it, a lock unwrap and an `expect` that states its invariant are
// not reported, while the unwrap on the tool's argument is (`panic_in_tool`).
use rmcp::{ErrorData as McpError, model::*, tool, tool_router};
use std::sync::Mutex;

pub struct Notes {
    notes: Mutex<Vec<String>>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Note at an index")]
    async fn note(&self, index: String) -> Result<CallToolResult, McpError> {
        let notes = self.notes.lock().unwrap();
        let i: usize = index.parse().unwrap();
        let first = notes.first().expect("checked above: never empty");
        let text = notes.get(i).unwrap_or(first);
        Ok(CallToolResult::success(vec![Content::text(text.clone())]))
    }
}
