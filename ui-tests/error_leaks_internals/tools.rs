//@ dep: rmcp = "3.11"
// Debug output of errors, backtraces and panic payloads in error results; Display is fine.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Read")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        std::fs::read_to_string(&args.path).map_err(|e| format!("read failed: {e:?}"))
    }

    #[tool(description = "Stat")]
    async fn stat(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        match std::fs::metadata(&args.path) {
            Ok(m) => Ok(CallToolResult::success(vec![ContentBlock::text(m.len().to_string())])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "stat failed: {:#?}",
                e
            ))])),
        }
    }

    #[tool(description = "Guarded")]
    async fn guarded(&self) -> Result<String, String> {
        match std::panic::catch_unwind(|| 1 + 1) {
            Ok(n) => Ok(n.to_string()),
            Err(payload) => Err(format!("panicked: {:?}", payload.downcast_ref::<&str>())),
        }
    }

    #[tool(description = "Right: Display of the error")]
    async fn right(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let options = vec!["a", "b"];
        std::fs::read_to_string(&args.path)
            .map_err(|e| format!("cannot read {}: {e}; try one of {options:?}", args.path))
    }
}
