//@ dep: rmcp = "2.1"
// A loop's value is what its `break` gives, and so is a labelled block's: failure text given
// by a `break` and sent as a success is still failure text (reported, in both tools).
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, tool, tool_router};

pub struct Config;

#[tool_router]
impl Config {
    #[tool(description = "The first readable config file")]
    async fn first(&self) -> Result<CallToolResult, ErrorData> {
        let mut tries = ["a.toml", "b.toml"].into_iter();
        let text = loop {
            let Some(path) = tries.next() else {
                break "no config file".to_string();
            };
            match std::fs::read_to_string(path) {
                Ok(text) => break text,
                Err(e) if tries.len() == 0 => break format!("cannot read {path}: {e}"),
                Err(_) => continue,
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "The main config file")]
    async fn main_config(&self) -> Result<CallToolResult, ErrorData> {
        let text = 'read: {
            match std::fs::read_to_string("main.toml") {
                Ok(text) => break 'read text,
                Err(e) => break 'read format!("cannot read main.toml: {e}"),
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {}
