//@ dep: rmcp = "0.8"
// A println! inside a tool of a stdio server, with the 0.1-style tuple transport.
use rmcp::model::{CallToolResult, Content};
use rmcp::{Error as McpError, ServiceExt, tool};

#[derive(Clone)]
pub struct Server;

#[rmcp::tool_router]
impl Server {
    #[tool(description = "Say hi")]
    async fn hi(&self) -> Result<CallToolResult, McpError> {
        println!("hi was called");
        Ok(CallToolResult::success(vec![Content::text("hi")]))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let transport = rmcp::transport::stdio();
    Server.serve(transport).await?.waiting().await?;
    Ok(())
}
