//@ dep: rmcp = "0.8"
// The text the catch-all of a `match` on the tool's name gives is the answer to a name no
// tool has, wherever it goes: a successful result built from it after the `match` answers the
// unknown tool, reported once, at that result. Text a catch-all of another `match` (on an
// argument) gives is ordinary output.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Greeter;

impl ServerHandler for Greeter {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        let language = args.get("language").and_then(|v| v.as_str()).unwrap_or("en");
        let reply = match request.name.as_ref() {
            "greet" => match language {
                "fr" => "bonjour".to_string(),
                "de" => "hallo".to_string(),
                other => format!("hello ({other} is not translated)"),
            },
            "farewell" => "goodbye".to_string(),
            unknown => format!("{unknown}? try greet or farewell"),
        };
        Ok(CallToolResult::success(vec![Content::text(reply)]))
    }
}
