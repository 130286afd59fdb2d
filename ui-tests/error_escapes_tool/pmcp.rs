//@ dep: pmcp = "2.23"
// pmcp: every Err of ToolHandler::handle is sent as JSON-RPC -32603, except
// Error::tool_rejected, which becomes an isError result. A crate-local trait with the same
// name is not pmcp's.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{Value, json};

pub struct ReadFile;

#[async_trait]
impl ToolHandler for ReadFile {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args["path"]
            .as_str()
            .ok_or_else(|| Error::validation("path is required"))?;
        let text = std::fs::read_to_string(path).map_err(|e| Error::internal(e.to_string()))?;
        if text.is_empty() {
            return Err(Error::tool_rejected("the file is empty", None));
        }
        Ok(json!({ "text": text }))
    }
}

mod local {
    pub trait ToolHandler {
        fn handle(&self, args: serde_json::Value) -> Result<String, String>;
    }
}

pub struct Echo;

impl local::ToolHandler for Echo {
    fn handle(&self, args: serde_json::Value) -> Result<String, String> {
        let text = args["text"].as_str().ok_or("text is required")?;
        Ok(text.to_string())
    }
}

#[tokio::main]
async fn main() -> pmcp::Result<()> {
    let server = pmcp::Server::builder().name("files").tool("read_file", ReadFile).build()?;
    server.run_stdio().await
}
