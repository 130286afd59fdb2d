//@ dep: rmcp = "3.11"
// A manual call_tool that searches its table of tools in a loop and returns from the
// iteration that finds the requested name: the code after the loop runs exactly when no tool
// has that name, so its `isError` result is the answer to an unknown tool (reported), as a
// catch-all arm of a `match` on the name would be. A loop that only reads the table
// (counting) leaves no such region.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

type Run = fn(&JsonObject) -> String;

fn echo(args: &JsonObject) -> String {
    format!("{args:?}")
}

fn count(args: &JsonObject) -> String {
    args.len().to_string()
}

const TABLE: [(&str, Run); 2] = [("echo", echo), ("count", count)];

pub struct Table;

impl ServerHandler for Table {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let mut seen = 0;
        for (label, _) in TABLE {
            seen += label.len();
        }
        for (label, run) in TABLE {
            if label == request.name.as_ref() {
                return Ok(CallToolResult::success(vec![Content::text(run(&args))]).into());
            }
        }
        Ok(CallToolResult::error(vec![Content::text(format!("no tool {} ({seen})", request.name))]).into())
    }
}
