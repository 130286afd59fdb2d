//@ dep: mcp-server = "0.3"
//@ dep: serde_json = "1"
// An MCP SDK mcp-lint has no table for: tools are the closures given to a registration call,
// panics in them are reported (nothing is known to catch them), and the error lints stay off
// because where a closure's `Err` goes is the SDK's decision; the summary line says so.
use mcp_server::{Server, StdioTransport, ToolDefinition};
use serde_json::Value;

fn word_count(args: &Value) -> Result<String, String> {
    let text = args["text"].as_str().ok_or("text is required")?;
    Ok(text.split_whitespace().count().to_string())
}

#[tokio::main]
async fn main() {
    let server = Server::builder()
        .with_tool(ToolDefinition::new("count", "Count words"), |args: Value| {
            word_count(&args)
        })
        .with_tool(ToolDefinition::new("first", "First word"), |args: Value| {
            let text = args["text"].as_str().unwrap();
            Ok::<String, String>(text.split(' ').next().unwrap_or("").to_string())
        })
        .build();
    server.serve(StdioTransport::new()).await.ok();
}
