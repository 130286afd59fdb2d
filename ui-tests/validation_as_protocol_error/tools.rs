//@ dep: rmcp = "1.8"
//@ lock: rmcp 1.8.0
// Argument validation answered with -32602 instead of an isError result.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub count: i64,
    pub name: Option<String>,
}

#[tool_router]
impl Server {
    #[tool(description = "Repeat")]
    async fn repeat(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if args.count <= 0 {
            return Err(McpError::invalid_params("count must be positive", None));
        }
        let name = args
            .name
            .ok_or_else(|| McpError::invalid_params("name is required", None))?;
        if name.len() > 100 {
            return Err(McpError::new(ErrorCode::INVALID_PARAMS, "name too long", None));
        }
        Ok(CallToolResult::success(vec![Content::text(name.repeat(args.count as usize))]))
    }

    #[tool(description = "The SDK's own prefix: converted to isError by rmcp >= 1.8")]
    async fn prefixed(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if args.count < 0 {
            return Err(McpError::invalid_params(
                "failed to deserialize parameters: count must not be negative",
                None,
            ));
        }
        Ok(CallToolResult::success(vec![Content::text("ok")]))
    }

    #[tool(description = "Right: validation as a tool error")]
    async fn right(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if args.count <= 0 {
            return Ok(CallToolResult::error(vec![Content::text("count must be positive")]));
        }
        Ok(CallToolResult::success(vec![Content::text("ok")]))
    }
}
