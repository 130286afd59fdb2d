//@ dep: rmcp = "3.11"
// Panics in #[tool] fns and in helpers they call are reported with the call chain.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
use std::sync::Mutex;

pub struct Server {
    hits: Mutex<u32>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
    pub line: usize,
}

#[tool_router]
impl Server {
    pub fn new() -> Self {
        // Startup code: not reported.
        let limit: u32 = std::env::var("LIMIT").unwrap().parse().unwrap();
        Self { hits: Mutex::new(limit) }
    }

    #[tool(description = "Read one line of a file")]
    async fn read_line(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        *self.hits.lock().unwrap() += 1; // lock poisoning: not reported by default
        let re = regex::Regex::new("^[a-z/]+$").unwrap(); // constant input: cannot fail
        let text = std::fs::read_to_string(&args.path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let line = lines[args.line - 1];
        let n = args.line.checked_sub(1).unwrap_or(0);
        Ok(format!("{n}: {line} {}", re.is_match(line)))
    }

    #[tool(description = "Summarize")]
    async fn summarize(&self) -> Result<CallToolResult, McpError> {
        let text = first_word("");
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Not done yet")]
    async fn later(&self) -> String {
        todo!()
    }
}

fn first_word(text: &str) -> String {
    text.split(' ').next().map(String::from).expect("a word")
}
