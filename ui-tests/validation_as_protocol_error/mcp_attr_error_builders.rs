//@ dep: mcp-attr = "0.0.7"
// mcp-attr errors are built as `Error::new(code)` and given a message or source after:
// `with_message(..)` returns the same error with the same code, so an `INVALID_PARAMS` one
// still rejects the arguments (validation) and an `INTERNAL_ERROR` one is a failure of the tool.
use mcp_attr::server::{McpServer, mcp_server, serve_stdio};
use mcp_attr::{Error, ErrorCode, Result};

struct Dates;

fn parse_day(text: &str) -> Result<u32> {
    text.parse::<u32>().map_err(|_| {
        Error::new(ErrorCode::INVALID_PARAMS).with_message(format!("not a day: {text}"), true)
    })
}

#[mcp_server]
impl McpServer for Dates {
    #[tool]
    async fn day(&self, text: String) -> Result<String> {
        let d = parse_day(&text)?;
        Ok(d.to_string())
    }

    #[tool]
    async fn month(&self, text: String) -> Result<String> {
        let m: u32 = text
            .parse()
            .map_err(|_| Error::new(ErrorCode::INVALID_PARAMS).with_message("not a month", true))?;
        Ok(m.to_string())
    }

    #[tool]
    async fn year(&self, path: String) -> Result<String> {
        let y = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(ErrorCode::INTERNAL_ERROR).with_message(e.to_string(), true))?;
        Ok(y)
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    serve_stdio(Dates).await?;
    Ok(())
}
