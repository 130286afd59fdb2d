//@ dep: rmcp = "3.11"
// The iteration that finds the requested tool leaves the loop on every path of its branch: a
// `match` whose every arm returns diverges, and so does an `if`/`else` whose two branches
// return. The code after the loop still answers exactly the names no tool has (reported),
// while a branch that may fall through (an `if` without `else`) makes no such region.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

type Run = fn(&JsonObject) -> Result<String, String>;

fn size(args: &JsonObject) -> Result<String, String> {
    Ok(args.len().to_string())
}

fn first(args: &JsonObject) -> Result<String, String> {
    args.keys().next().cloned().ok_or_else(|| "no arguments".to_string())
}

const REGISTRY: [(&str, Run); 2] = [("size", size), ("first", first)];

pub struct Registry;

impl ServerHandler for Registry {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let wanted = request.name.as_ref();
        for (label, run) in REGISTRY {
            if label == wanted {
                match run(&args) {
                    Ok(text) => return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into()),
                    Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(e)]).into()),
                }
            }
        }
        Ok(CallToolResult::error(vec![ContentBlock::text(format!("no tool named {wanted}"))]).into())
    }
}

pub struct Chooser;

impl ServerHandler for Chooser {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let mut last = String::new();
        for (label, run) in REGISTRY {
            if label == request.name.as_ref() {
                if let Ok(text) = run(&args) {
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
                } else {
                    return Ok(CallToolResult::error(vec![ContentBlock::text("failed")]).into());
                }
            }
            last = label.to_string();
        }
        Ok(CallToolResult::error(vec![ContentBlock::text(format!("no tool after {last}"))]).into())
    }
}

pub struct Lenient;

impl ServerHandler for Lenient {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        for (label, run) in REGISTRY {
            if label == request.name.as_ref() {
                if let Ok(text) = run(&args) {
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
                }
            }
        }
        Ok(CallToolResult::error(vec![ContentBlock::text("nothing ran")]).into())
    }
}

fn main() {}
