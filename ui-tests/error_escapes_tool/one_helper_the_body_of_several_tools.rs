//@ dep: rmcp = "2.1"
// Several tools whose whole body is a call of one helper: the helper is shared, so its
// failures are reported once, in the helper, naming every tool that reaches it. A helper only
// one tool calls that way is that tool's body.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{tool, tool_router};

pub struct Shelf;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Key {
    pub key: String,
}

pub enum Request {
    Get(Key),
    Drop(Key),
}

impl Shelf {
    async fn run(&self, request: Request) -> Result<CallToolResult, ErrorData> {
        let key = match request {
            Request::Get(k) | Request::Drop(k) => k.key,
        };
        let value = std::env::var(&key)
            .map_err(|e| ErrorData::internal_error(format!("{key}: {e}"), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(value)]))
    }

    async fn count(&self, Parameters(k): Parameters<Key>) -> Result<CallToolResult, ErrorData> {
        let n = std::fs::read_dir(&k.key)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?
            .count();
        Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())]))
    }
}

#[tool_router]
impl Shelf {
    #[tool(description = "Get a value")]
    async fn get(&self, Parameters(k): Parameters<Key>) -> Result<CallToolResult, ErrorData> {
        self.run(Request::Get(k)).await
    }

    #[tool(description = "Drop a value")]
    async fn drop_key(&self, Parameters(k): Parameters<Key>) -> Result<CallToolResult, ErrorData> {
        self.run(Request::Drop(k)).await
    }

    #[tool(description = "Count entries")]
    async fn count_entries(&self, Parameters(k): Parameters<Key>) -> Result<CallToolResult, ErrorData> {
        self.count(Parameters(k)).await
    }
}
