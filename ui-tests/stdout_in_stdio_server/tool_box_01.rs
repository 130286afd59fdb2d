//@ dep: rmcp = { version = "0.1.5", features = ["server", "transport-io"] }
// rmcp 0.1: `#[tool(tool_box)]`, `rmcp::Error`, and the `(stdin(), stdout())` transport.
use rmcp::model::{CallToolResult, Content, ServerInfo};
use rmcp::{Error as McpError, ServerHandler, ServiceExt, tool};
use tokio::io::{stdin, stdout};

#[derive(Clone)]
pub struct Calc;

#[tool(tool_box)]
impl Calc {
    #[tool(description = "Divide")]
    async fn div(&self, #[tool(param)] a: i64, #[tool(param)] b: i64) -> Result<CallToolResult, McpError> {
        println!("dividing {a} by {b}");
        if b == 0 {
            return Err(McpError::internal_error("division by zero", None));
        }
        Ok(CallToolResult::success(vec![Content::text((a / b).to_string())]))
    }
}

#[tool(tool_box)]
impl ServerHandler for Calc {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::default()
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = Calc.serve((stdin(), stdout())).await?;
    server.waiting().await?;
    Ok(())
}
