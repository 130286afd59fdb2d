//@ dep: rmcp = "3.11"
//@ manifest: [package.metadata.mcp-lint.lints]
//@ manifest: invariant_panic_in_tool = "warn"
// Asserted invariants on a tool's path, reported because the package turns the opt-in lint on:
// a lock unwrap, an `expect` whose message states the invariant, a piped child's handle, an
// `unreachable!` fallback. The unwrap on caller data is `panic_in_tool`'s, and stays so.
use rmcp::{ErrorData as McpError, model::*, tool, tool_router};
use std::process::{Command, Stdio};
use std::sync::Mutex;

pub struct Notes {
    notes: Mutex<Vec<String>>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Count notes")]
    async fn count(&self) -> Result<CallToolResult, McpError> {
        let notes = self.notes.lock().unwrap();
        Ok(CallToolResult::success(vec![Content::text(notes.len().to_string())]))
    }

    #[tool(description = "First word of the first note")]
    async fn first_word(&self) -> Result<CallToolResult, McpError> {
        let notes = self.notes.lock().unwrap_or_else(|p| p.into_inner());
        let first = notes.first().cloned().unwrap_or_default();
        let word = first.split(' ').next().expect("split always yields one item");
        Ok(CallToolResult::success(vec![Content::text(word.to_string())]))
    }

    #[tool(description = "Word count of a note, by wc")]
    async fn words(&self, text: String) -> Result<CallToolResult, McpError> {
        let spawned = Command::new("wc")
            .arg("-w")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn();
        let Ok(mut child) = spawned else {
            return Ok(CallToolResult::error(vec![Content::text("cannot run wc")]));
        };
        let _stdin = child.stdin.take().expect("piped above");
        let n: usize = text.parse().unwrap();
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }

    #[tool(description = "Kind of a number")]
    async fn kind(&self, n: i64) -> Result<CallToolResult, McpError> {
        let kind = match n.signum() {
            -1 => "negative",
            0 => "zero",
            1 => "positive",
            _ => unreachable!(),
        };
        Ok(CallToolResult::success(vec![Content::text(kind)]))
    }
}
