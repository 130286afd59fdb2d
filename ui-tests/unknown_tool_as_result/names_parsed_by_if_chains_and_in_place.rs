//@ dep: rmcp = "0.8"
// The tool's name parsed into an enum by an `if` chain, and by a `match` written in place
// as the scrutinee: the variant the last `else` or the `_` arm gives is every name no tool
// has, and a tool result answering it is reported, as for a parse fn that `match`es.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

enum Action {
    Reverse,
    Shout,
    NotFound,
}

fn action(label: &str) -> Action {
    if label == "reverse" {
        Action::Reverse
    } else if label.eq("shout") {
        Action::Shout
    } else {
        Action::NotFound
    }
}

fn text_of(args: &JsonObject) -> String {
    args.get("text").and_then(|v| v.as_str()).unwrap_or_default().to_string()
}

pub struct Chained;

impl ServerHandler for Chained {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let text = text_of(&request.arguments.clone().unwrap_or_default());
        let reply = match action(&request.name) {
            Action::Reverse => text.chars().rev().collect::<String>(),
            Action::Shout => text.to_uppercase(),
            Action::NotFound => return Ok(CallToolResult::success(vec![Content::text("no such tool")])),
        };
        Ok(CallToolResult::success(vec![Content::text(reply)]))
    }
}

pub struct InPlace;

impl ServerHandler for InPlace {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let text = text_of(&request.arguments.clone().unwrap_or_default());
        let parsed = match request.name.as_ref() {
            "reverse" => Action::Reverse,
            "shout" => Action::Shout,
            _ => Action::NotFound,
        };
        match parsed {
            Action::Reverse => Ok(CallToolResult::success(vec![Content::text(text.chars().rev().collect::<String>())])),
            Action::Shout => Ok(CallToolResult::success(vec![Content::text(text.to_uppercase())])),
            Action::NotFound => Ok(CallToolResult::success(vec![Content::text(format!("unknown: {}", request.name))])),
        }
    }
}
