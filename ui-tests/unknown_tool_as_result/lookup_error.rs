//@ dep: rmcp = "0.8"
//@ dep: anyhow = "1"
// Names the dispatcher does not match fall through to a registry whose lookup fails with
// "not found": the dispatcher turns that error into a tool result, so an unknown tool is
// answered as if it ran. A registry error about something else, made into a result the same
// way, is an ordinary tool failure and is not reported.
use std::collections::HashMap;

use anyhow::Context;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Registry {
    scripts: HashMap<String, String>,
}

impl Registry {
    fn run(&self, name: &str) -> anyhow::Result<String> {
        let script = self
            .scripts
            .get(name)
            .context(format!("tool '{name}' not found"))?;
        Ok(script.to_uppercase())
    }

    fn reload(&self) -> anyhow::Result<String> {
        let n = self.scripts.len();
        anyhow::ensure!(n > 0, "the script folder is empty");
        Ok(format!("{n} scripts"))
    }
}

pub struct Server {
    registry: Registry,
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match request.name.as_ref() {
            "ping" => return Ok(CallToolResult::success(vec![Content::text("pong")])),
            "reload" => {
                return match self.registry.reload() {
                    Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
                    Err(e) => Ok(CallToolResult::error(vec![Content::text(e.to_string())])),
                };
            }
            _ => {}
        }
        match self.registry.run(&request.name) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(e.to_string())])),
        }
    }
}
