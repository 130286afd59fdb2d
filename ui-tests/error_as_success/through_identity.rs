//@ dep: rmcp = "2.1"
// `std::convert::identity(x)` is `x`: failure text passed through it and sent as a success
// is still failure text (reported), and file content passed through it is still content.
use std::convert::identity;

use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, tool, tool_router};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Show the motd")]
    async fn motd(&self) -> Result<CallToolResult, ErrorData> {
        let text = match std::fs::read_to_string("/etc/motd") {
            Ok(text) => identity(text),
            Err(e) => identity(format!("cannot read the motd: {e}")),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {}
