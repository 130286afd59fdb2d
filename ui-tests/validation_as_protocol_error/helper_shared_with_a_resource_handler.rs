//@ dep: rmcp = "0.14"
// A check a resource handler and the tool dispatcher both call: for the resource a JSON-RPC
// error is the answer (resources have no isError), for the tool it is an argument rejected
// as a protocol error. The finding names the tool dispatcher, whichever handler is nearer
// the check in the call graph, and its chain runs from the dispatcher.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Vault {
    ids: Vec<String>,
}

impl Vault {
    fn known(&self, id: &str) -> Result<(), ErrorData> {
        if self.ids.iter().any(|k| k == id) {
            Ok(())
        } else {
            Err(ErrorData::invalid_params(format!("no such id: {id}"), None))
        }
    }

    fn check_arguments(&self, args: &JsonObject) -> Result<(), ErrorData> {
        if let Some(id) = args.get("id").and_then(|v| v.as_str()) {
            self.known(id)?;
        }
        Ok(())
    }
}

impl ServerHandler for Vault {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        self.check_arguments(&args)?;
        match request.name.as_ref() {
            "count" => Ok(CallToolResult::success(vec![Content::text(self.ids.len().to_string())])),
            other => Err(ErrorData::invalid_params(format!("unknown tool {other}"), None)),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.known(&request.uri)?;
        Ok(ReadResourceResult { contents: vec![] })
    }
}

fn main() {}
