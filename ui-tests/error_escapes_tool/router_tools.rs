//@ dep: rmcp = "3.11"
// `?` and `Err(..)` in tools whose error type is ErrorData are protocol errors;
// tools returning Result<_, String> turn Err into isError results.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

#[derive(Debug)]
pub struct AppError(String);

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        McpError::internal_error(e.0, None)
    }
}

fn load(path: &str) -> Result<String, AppError> {
    std::fs::read_to_string(path).map_err(|e| AppError(e.to_string()))
}

#[tool_router]
impl Server {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string(&args.path)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Load through a From impl")]
    async fn load(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = load(&args.path)?;
        if text.is_empty() {
            return Err(McpError::internal_error("empty file", None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "The right way: String errors become isError")]
    async fn read_ok(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let text = std::fs::read_to_string(&args.path).map_err(|e| e.to_string())?;
        Ok(text)
    }

    #[tool(description = "A closure with its own error type")]
    async fn parse(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let parsed = (|| -> Result<u32, std::num::ParseIntError> {
            let n: u32 = args.path.parse()?;
            Ok(n * 2)
        })();
        let text = match parsed {
            Ok(n) => n.to_string(),
            Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
