//@ dep: mcp-attr = "0.0.7"
// mcp-attr: a #[tool]'s Err becomes a JSON-RPC error.
use mcp_attr::server::{McpServer, mcp_server, serve_stdio};
use mcp_attr::Result;

struct Files;

#[mcp_server]
impl McpServer for Files {
    #[tool]
    async fn read(&self, path: String) -> Result<String> {
        let text = std::fs::read_to_string(&path)?;
        Ok(text)
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    serve_stdio(Files).await?;
    Ok(())
}
