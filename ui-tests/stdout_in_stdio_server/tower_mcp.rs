//@ dep: tower-mcp = "0.25"
//@ dep: tracing-subscriber = "0.3"
// tower-mcp over stdio: a println! in a handler closure and a default fmt subscriber.
use tower_mcp::{CallToolResult, McpRouter, StdioTransport, ToolBuilder};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    name: String,
}

#[tokio::main]
async fn main() -> Result<(), tower_mcp::BoxError> {
    tracing_subscriber::fmt().init();
    let greet = ToolBuilder::new("greet")
        .description("Say hello")
        .handler(|input: Input| async move {
            println!("greeting {}", input.name);
            Ok(CallToolResult::text(format!("hello {}", input.name)))
        })
        .build();
    let router = McpRouter::new().server_info("greeter", "1.0").tool(greet);
    StdioTransport::new(router).run().await?;
    Ok(())
}
