//@ dep: rmcp = "1.3"
// A list in the tool's arguments may be empty: `ids[0]` panics on `{"ids": []}` however
// constant the index is. Checked first (`is_empty`, a length test) it cannot; the pieces of a
// `split` are never empty as a list, so its first piece is always there.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{ErrorData, tool, tool_router};

pub struct Batch;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub ids: Vec<u64>,
    pub line: String,
}

#[tool_router]
impl Batch {
    #[tool(description = "The first id (reported)")]
    async fn first(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::success(vec![Content::text(a.ids[0].to_string())]))
    }

    #[tool(description = "The first id, through a local (reported)")]
    async fn head(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let ids = a.ids;
        Ok(CallToolResult::success(vec![Content::text(ids[0].to_string())]))
    }

    #[tool(description = "The first id, checked")]
    async fn checked(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        if a.ids.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("give at least one id")]));
        }
        Ok(CallToolResult::success(vec![Content::text(a.ids[0].to_string())]))
    }

    #[tool(description = "The first field of a line")]
    async fn field(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let fields: Vec<&str> = a.line.split(',').collect();
        Ok(CallToolResult::success(vec![Content::text(fields[0].to_string())]))
    }
}
