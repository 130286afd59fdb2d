//@ dep: turbomcp = "2.3"
// turbomcp before 3.0: the generated dispatch maps a tool's `McpError` to a server error the
// router answers with a JSON-RPC error, so `?` and `return Err(..)` leave the tool as
// protocol errors; a panic leaves the request unanswered (3.x answers both differently, see
// the panic_in_tool case for it).
use turbomcp::prelude::*;

#[derive(Clone)]
struct Notes;

#[server(name = "notes", version = "1.0.0")]
impl Notes {
    #[tool("Read a note")]
    async fn read_note(&self, path: String) -> McpResult<String> {
        let text = std::fs::read_to_string(&path).map_err(|e| McpError::internal(e.to_string()))?;
        Ok(text)
    }

    #[tool("First line of a note")]
    async fn first_line(&self, path: String) -> McpResult<String> {
        if path.is_empty() {
            return Err(McpError::internal("no path given".to_string()));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        Ok(text.lines().next().unwrap_or_default().to_string())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Notes.run_stdio().await?;
    Ok(())
}
