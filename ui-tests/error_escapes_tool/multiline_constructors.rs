//@ dep: mcp-attr = "0.0.7"
// A constructor written over several lines is quoted on one line in the message: the closure
// by its head (`|_| { mcp_attr::Error::new(..)`), not with its line breaks and indentation.
use mcp_attr::server::{McpServer, mcp_server, serve_stdio};
use mcp_attr::Result;

fn parse_limit(text: &str) -> Result<u32> {
    text.parse::<u32>().map_err(|_| {
        mcp_attr::Error::new(mcp_attr::ErrorCode::INTERNAL_ERROR)
            .with_message(format!("cannot use {text} as a limit"), true)
    })
}

struct Notes;

#[mcp_server]
impl McpServer for Notes {
    #[tool]
    async fn recent(&self, limit: String) -> Result<String> {
        let n = parse_limit(&limit)?;
        Ok(format!("the {n} most recent notes"))
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    serve_stdio(Notes).await?;
    Ok(())
}
