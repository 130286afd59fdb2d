//@ dep: modelcontextprotocol-server = "0.1.5"
//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
//@ dep: tokio = { version = "1", features = ["full"] }
// A synchronous tool closure that runs an async handler with `block_in_place` and
// `Handle::current().block_on(async { .. })`: the handler's errors come back through both and
// reach the client as JSON-RPC -32603 (reported where they are made), and its panic is on the
// tool's path although the closures are written in `main`.
use modelcontextprotocol_server::ServerBuilder;
use modelcontextprotocol_server::mcp_protocol::tool::{ToolCallResult, ToolContent};
use modelcontextprotocol_server::transport::StdioTransport;
use serde_json::{Value, json};
use tokio::runtime::Handle;
use tokio::task::block_in_place;

struct Search;

impl Search {
    async fn handle(&self, args: Value) -> anyhow::Result<ToolCallResult> {
        let query = args
            .get("query")
            .and_then(|v| v.as_str())
            .ok_or_else(|| anyhow::anyhow!("Missing required parameter: query"))?;
        let text = tokio::fs::read_to_string(query).await?;
        let _n: u32 = text.trim().parse().unwrap();
        Ok(ToolCallResult { content: vec![ToolContent::Text { text }], is_error: None })
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = ServerBuilder::new("search", "0.1.0")
        .with_transport(StdioTransport::new())
        .with_tool("search", Some("Search"), json!({"type": "object"}), move |args: Value| {
            let handler = Search;
            block_in_place(move || Handle::current().block_on(async move { handler.handle(args).await }))
        })
        .build()?;
    server.run().await?;
    Ok(())
}
