//@ dep: rmcp = "0.8"
// A call_tool that parses the tool's name into an enum of its own and matches on that: the arm
// of the variant the parse gives any other name answers an unknown tool, and a tool result
// there is reported. The same shape on an argument that is not the name is not.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Server;

enum Command {
    Echo,
    Clock,
    Missing,
}

enum Unit {
    Seconds,
    Millis,
    Default,
}

fn command(text: &str) -> Command {
    match text {
        "echo" => Command::Echo,
        "clock" => Command::Clock,
        _ => Command::Missing,
    }
}

fn unit(text: &str) -> Unit {
    match text {
        "s" | "seconds" => Unit::Seconds,
        "ms" => Unit::Millis,
        _ => Unit::Default,
    }
}

fn clock(requested: &str) -> CallToolResult {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let shown = match unit(requested) {
        Unit::Seconds => now.as_secs().to_string(),
        Unit::Millis => now.as_millis().to_string(),
        Unit::Default => return CallToolResult::success(vec![Content::text(format!("{now:?}"))]),
    };
    CallToolResult::success(vec![Content::text(shown)])
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        match command(request.name.as_ref()) {
            Command::Echo => Ok(CallToolResult::success(vec![Content::text(format!("{args:?}"))])),
            Command::Clock => {
                let requested = args.get("unit").and_then(|v| v.as_str()).unwrap_or("s");
                Ok(clock(requested))
            }
            Command::Missing => Ok(CallToolResult::error(vec![Content::text(format!(
                "no tool called {}",
                request.name
            ))])),
        }
    }
}
