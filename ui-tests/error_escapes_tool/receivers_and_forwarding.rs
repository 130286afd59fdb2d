//@ dep: rmcp = "3.11"
// The trail from a tool to an error through ordinary Rust steps: a method on a field, on a
// lock guard and on a local; a tail call that forwards a helper's result; a crate fn passed as
// a value; a fn nested in the tool; a trait's default method. Each error is reported where it
// is made, with the chain from the tool.
use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
use tokio::sync::Mutex;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub id: String,
}

pub struct Store;

impl Store {
    pub fn load(&self, id: &str) -> Result<String, McpError> {
        std::fs::read_to_string(id).map_err(|e| McpError::internal_error(e.to_string(), None))
    }
}

pub struct Db;

impl Db {
    pub async fn fetch(&self, id: &str) -> Result<String, McpError> {
        if id.is_empty() {
            return Err(McpError::internal_error("no rows", None));
        }
        Ok(id.to_string())
    }
}

pub struct Client;

impl Client {
    pub fn connect() -> Self {
        Client
    }

    pub fn get(&self, id: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("{id}: connection refused"), None))
    }
}

pub trait Describe {
    fn describe(&self, id: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("cannot describe {id}"), None))
    }
}

fn parse_row(row: &str) -> Result<u32, McpError> {
    row.parse().map_err(|_| McpError::internal_error("corrupt row", None))
}

pub struct Server {
    store: Store,
    db: Arc<Mutex<Db>>,
}

impl Describe for Server {}

impl Server {
    async fn render(&self, id: &str) -> Result<CallToolResult, McpError> {
        if id.starts_with('.') {
            return Err(McpError::internal_error("renderer unavailable", None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(id.to_string())]))
    }
}

#[tool_router]
impl Server {
    #[tool(description = "A method on a field")]
    async fn by_field(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = self.store.load(&a.id)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "A method on a lock guard")]
    async fn by_guard(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = self.db.lock().await.fetch(&a.id).await?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "A method on a local")]
    async fn by_local(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let client = Client::connect();
        let text = client.get(&a.id)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "A tail call that forwards a helper's result")]
    async fn forwarded(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        self.render(&a.id).await
    }

    #[tool(description = "A crate fn passed as a value")]
    async fn rows(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let rows = a.id.split(',').map(parse_row).collect::<Result<Vec<u32>, _>>()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{rows:?}"))]))
    }

    #[tool(description = "A fn nested in the tool")]
    async fn nested(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        fn quota(id: &str) -> Result<(), McpError> {
            if id.contains('*') {
                return Err(McpError::internal_error("quota exhausted", None));
            }
            Ok(())
        }
        quota(&a.id)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(a.id)]))
    }

    #[tool(description = "A trait's default method")]
    async fn described(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = self.describe(&a.id)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
