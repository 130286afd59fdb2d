//@ dep: modelcontextprotocol-server = "0.1.5"
//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// modelcontextprotocol-server: the closure given to `with_tool` is called with the tool's
// arguments, whatever it names its parameter. Decoding them (or a value read from them) with
// `?` rejects bad arguments, and the server answers that `Err` with a JSON-RPC error:
// reported as validation. Reading a file that is not there is an execution failure.
use modelcontextprotocol_server::ServerBuilder;
use modelcontextprotocol_server::mcp_protocol::tool::{ToolCallResult, ToolContent};
use modelcontextprotocol_server::transport::StdioTransport;
use serde_json::{Value, json};

fn text(text: String) -> ToolCallResult {
    ToolCallResult { content: vec![ToolContent::Text { text }], is_error: None }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = ServerBuilder::new("files", "0.1.0")
        .with_transport(StdioTransport::new())
        .with_tool("size", Some("Size of a file"), json!({"type": "object"}), |payload: Value| {
            let path: String = serde_json::from_value(payload["path"].clone())?;
            let meta = std::fs::metadata(&path)?;
            Ok(text(meta.len().to_string()))
        })
        .with_tool("lines", Some("Lines of a text"), json!({"type": "object"}), |v| {
            let body: String = serde_json::from_value(v)?;
            Ok(text(body.lines().count().to_string()))
        })
        .build()?;
    server.run().await?;
    Ok(())
}
