//@ dep: rmcp = "0.8"
// A manual call_tool dispatcher, a handler under catch_unwind, and prompt handlers.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Server;

impl Server {
    fn lookup(&self, key: &str) -> String {
        std::env::var(key).expect("variable is set")
    }

    fn risky(&self) -> String {
        panic!("boom")
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerInfo {
        // Startup: not reported.
        let _ = std::env::var("X").unwrap();
        ServerInfo::default()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "env" => Ok(CallToolResult::success(vec![Content::text(self.lookup("HOME"))])),
            "safe" => {
                let out = std::panic::catch_unwind(|| self.risky())
                    .unwrap_or_else(|_| "panicked".to_string());
                Ok(CallToolResult::success(vec![Content::text(out)]))
            }
            _ => Err(McpError::invalid_params("tool not found", None)),
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        let args = request.arguments.unwrap();
        Err(McpError::invalid_params(format!("unknown prompt {args:?}"), None))
    }
}
