//@ dep: rmcp = "1.2"
// Renaming `success` to `error` is safe only where every path into the result carries the
// failure. Where failure text is one alternative among others (a `Result` and its fallback,
// a local reassigned on failure, two `match` arms of which one is data), the rename would
// turn the successful path into an error too: help only, no fix. Where every arm that gives
// the value is failure text, the rename is offered.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

pub struct Notes;

#[tool_router]
impl Notes {
    #[tool(description = "Read the notes file")]
    async fn read_notes(&self) -> Result<CallToolResult, ErrorData> {
        let notes = std::fs::read_to_string("notes.md").unwrap_or_else(|e| e.to_string());
        Ok(CallToolResult::success(vec![Content::text(notes)]))
    }

    #[tool(description = "Count the notes")]
    async fn count_notes(&self) -> Result<CallToolResult, ErrorData> {
        let mut summary = String::from("0 notes");
        if let Err(e) = std::fs::metadata("notes.md") {
            summary = format!("cannot open the notes: {e}");
        }
        Ok(CallToolResult::success(vec![Content::text(summary)]))
    }

    #[tool(description = "Archive the notes")]
    async fn archive_notes(&self) -> Result<CallToolResult, ErrorData> {
        let report;
        match std::fs::copy("notes.md", "notes.bak") {
            Ok(_) if std::path::Path::new("notes.lock").exists() => {
                report = "Error: the notes are locked".to_string();
            }
            Ok(_) => return Ok(CallToolResult::success(vec![Content::text("archived")])),
            Err(e) => report = format!("archiving failed: {e}"),
        }
        Ok(CallToolResult::success(vec![Content::text(report)]))
    }
}

fn main() {}
