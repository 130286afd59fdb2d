//@ dep: rmcp = "0.8"
// A fn that returns, unchanged, another fn's parse of its own parameter parses it too: the
// variant the inner parse gives an unknown string is what the wrapper gives an unknown tool
// name, and a tool result answering it is reported.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

enum Kind {
    Today,
    Uptime,
    Other,
}

impl Kind {
    fn from_label(label: &str) -> Kind {
        match label {
            "today" => Kind::Today,
            "uptime" => Kind::Uptime,
            _ => Kind::Other,
        }
    }
}

fn kind_of_tool(name: &str) -> Kind {
    Kind::from_label(name.trim())
}

pub struct Clock;

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let text = match kind_of_tool(&request.name) {
            Kind::Today => "2026-12-07".to_string(),
            Kind::Uptime => "3 days".to_string(),
            Kind::Other => {
                let reply = format!("there is no {} here", request.name);
                return Ok(CallToolResult::success(vec![Content::text(reply)]));
            }
        };
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
