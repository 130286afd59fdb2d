//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// Where failures meet a success constructor in a shared fn:
// - `reply` wraps every `Outcome` it is given, failed or not, into a success. It could tell
//   them apart (the value is the crate's own type), so its constructor is the one place to
//   change: one finding there, none at the tools that hand it a failed outcome, none at
//   `refuse`, which builds the failed outcome it passes on;
// - `finish` picks its constructor by a `bool` flag: callers that pass `true` get an error
//   result, so their failure text is no finding; the one that passes `false` with failure
//   text is.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};
use serde::Serialize;

#[derive(Serialize)]
pub struct Outcome {
    success: bool,
    detail: String,
}

fn reply(outcome: Outcome) -> CallToolResult {
    let text = serde_json::to_string(&outcome).unwrap_or_default();
    CallToolResult::success(vec![Content::text(text)])
}

fn refuse(detail: String) -> CallToolResult {
    reply(Outcome {
        success: false,
        detail,
    })
}

fn finish(text: String, is_error: bool) -> CallToolResult {
    if is_error {
        CallToolResult::error(vec![Content::text(text)])
    } else {
        CallToolResult::success(vec![Content::text(text)])
    }
}

pub struct Shelf;

#[tool_router]
impl Shelf {
    #[tool(description = "Put a book back")]
    async fn put_back(&self) -> Result<CallToolResult, ErrorData> {
        match std::fs::write("shelf.txt", "book") {
            Ok(()) => Ok(reply(Outcome {
                success: true,
                detail: "done".into(),
            })),
            Err(e) => Ok(refuse(format!("the shelf is stuck: {e}"))),
        }
    }

    #[tool(description = "Take a book out")]
    async fn take_out(&self) -> Result<CallToolResult, ErrorData> {
        if let Err(e) = std::fs::remove_file("shelf.txt") {
            return Ok(refuse(e.to_string()));
        }
        Ok(reply(Outcome {
            success: true,
            detail: "taken".into(),
        }))
    }

    #[tool(description = "Count the books")]
    async fn count(&self) -> Result<CallToolResult, ErrorData> {
        match std::fs::read_to_string("shelf.txt") {
            Ok(text) => Ok(finish(text.lines().count().to_string(), false)),
            Err(e) => Ok(finish(format!("cannot count: {e}"), true)),
        }
    }

    #[tool(description = "Dust the shelf")]
    async fn dust(&self) -> Result<CallToolResult, ErrorData> {
        let done = !std::path::Path::new("dusty").exists();
        match std::fs::remove_file("dusty") {
            Ok(()) => Ok(finish("dusted".to_string(), !done)),
            Err(e) => Ok(finish(format!("Error: cannot dust: {e}"), false)),
        }
    }
}

fn main() {}
