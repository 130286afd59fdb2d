//@ dep: rmcp = "0.14"
// A manual `call_tool` that hands the request to `dispatch::call_tool`, which hands it to
// `routes::call_tool`: fns of the same name in other modules, not recursion. The arguments'
// parse error three calls down is answered with -32602 (reported where it is made).
use rmcp::model::{CallToolRequestParams, CallToolResult, Content, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

fn parse_args<T: serde::de::DeserializeOwned>(args: Option<JsonObject>) -> Result<T, McpError> {
    serde_json::from_value(serde_json::Value::Object(args.unwrap_or_default()))
        .map_err(|e| McpError::invalid_params(e.to_string(), None))
}

mod routes {
    use super::*;

    pub async fn call_tool(request: CallToolRequestParams) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "echo" => {
                let text: String = parse_args(request.arguments)?;
                Ok(CallToolResult::success(vec![Content::text(text)]))
            }
            other => Err(McpError::invalid_params(format!("unknown tool: {other}"), None)),
        }
    }
}

mod dispatch {
    use super::*;

    pub async fn call_tool(request: CallToolRequestParams) -> Result<CallToolResult, McpError> {
        routes::call_tool(request).await
    }
}

pub struct Server;

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        dispatch::call_tool(request).await
    }
}
