//@ dep: tower-mcp = "0.25"
//@ lib
// tower-mcp: a handler given as a fn item and one given as a closure that only forwards to a
// fn are the same handlers as closures written out; their panics are reported (the router's
// panic guard is not turned on here). The metamorphic check turns one form into the other.
use tower_mcp::{CallToolResult, ToolBuilder};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Path {
    path: String,
}

async fn read_config(input: Path) -> Result<CallToolResult, tower_mcp::Error> {
    let text = std::fs::read_to_string(&input.path).unwrap();
    Ok(CallToolResult::text(text))
}

async fn first_line(input: Path) -> Result<CallToolResult, tower_mcp::Error> {
    let text = std::fs::read_to_string(&input.path).unwrap();
    Ok(CallToolResult::text(text.lines().take(1).collect::<String>()))
}

pub fn read_config_tool() -> tower_mcp::Tool {
    ToolBuilder::new("read_config")
        .description("Read the configuration file")
        .handler(read_config)
        .build()
}

pub fn first_line_tool() -> tower_mcp::Tool {
    ToolBuilder::new("first_line")
        .description("The first line of a file")
        .handler(|input| async move { first_line(input).await })
        .build()
}
