//@ dep: modelcontextprotocol-server = "0.1.5"
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: anyhow = "1"
// modelcontextprotocol-server: tools are closures given to `ServerBuilder::with_tool`, and the
// server answers a closure's `Err` with JSON-RPC -32603. Decoding the arguments with `?` is
// validation; a failing read is an execution failure; an `isError` result is the right answer.
use modelcontextprotocol_server::ServerBuilder;
use modelcontextprotocol_server::mcp_protocol::tool::{ToolCallResult, ToolContent};
use modelcontextprotocol_server::transport::StdioTransport;
use serde::Deserialize;
use serde_json::{Value, from_value, json};

#[derive(Deserialize)]
struct ReadArgs {
    path: String,
}

fn read_note(args: ReadArgs) -> anyhow::Result<ToolCallResult> {
    if args.path.contains("..") {
        return Ok(ToolCallResult {
            content: vec![ToolContent::Text { text: "path leaves the notes folder".into() }],
            is_error: Some(true),
        });
    }
    let text = std::fs::read_to_string(&args.path)?;
    Ok(ToolCallResult { content: vec![ToolContent::Text { text }], is_error: None })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = ServerBuilder::new("notes", "0.1.0")
        .with_transport(StdioTransport::new())
        .with_tool("read", Some("Read a note"), json!({"type": "object"}), {
            let root = String::from("notes");
            move |args: Value| {
                let _ = &root;
                let args: ReadArgs = from_value(args)?;
                read_note(args)
            }
        })
        .build()?;
    server.run().await?;
    Ok(())
}
