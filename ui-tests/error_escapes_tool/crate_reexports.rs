//@ dep: rmcp = "2.1"
// The SDK's error type reached through the crate's own modules: a renaming `pub use`, a
// re-export of that re-export, a glob of a prelude module, and a path relative to the root.
// Each tool's `Err` is a JSON-RPC error however the type was imported; a String error is not.
mod errors {
    pub use rmcp::ErrorData as ServiceError;
}

mod api {
    pub use super::errors::ServiceError as ApiError;
}

mod prelude {
    pub use crate::errors::*;
    pub use rmcp::model::{CallToolResult, ContentBlock};
}

use crate::prelude::*;
use rmcp::{tool, tool_router};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Size of a file")]
    async fn size(&self) -> Result<CallToolResult, ServiceError> {
        let meta = std::fs::metadata("data.txt")
            .map_err(|e| ServiceError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(meta.len().to_string())]))
    }

    #[tool(description = "First line of a file")]
    async fn head(&self) -> Result<CallToolResult, api::ApiError> {
        let text = std::fs::read_to_string("data.txt")
            .map_err(|e| errors::ServiceError::internal_error(e.to_string(), None))?;
        let first = text.lines().next().unwrap_or_default().to_string();
        Ok(CallToolResult::success(vec![ContentBlock::text(first)]))
    }

    #[tool(description = "Whole file")]
    async fn cat(&self) -> Result<String, String> {
        std::fs::read_to_string("data.txt").map_err(|e| format!("cannot read data.txt: {e}"))
    }
}

fn main() {}
