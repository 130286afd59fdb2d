//@ dep: tower-mcp = "0.25"
// tower-mcp: tools are closures given to ToolBuilder; panics in them (and in helpers they
// call) leave the request unanswered unless the router opts into catch_panics().
use tower_mcp::{CallToolResult, ToolBuilder};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    path: String,
}

fn first_line(text: &str) -> String {
    text.lines().next().expect("a line").to_string()
}

pub fn build() -> tower_mcp::Tool {
    ToolBuilder::new("head")
        .description("First line of a file")
        .handler(|input: Input| async move {
            let text = std::fs::read_to_string(&input.path).unwrap();
            Ok(CallToolResult::text(first_line(&text)))
        })
        .build()
}
