//@ dep: rmcp = "0.16"
// A report made of parts, each saying how it went: a part whose probe failed carries an
// `"error"` member, and the report holding it is data about the probes, not a failed call
// (no finding), also when the error member holds the error's text. A result whose own
// `"error"` member says the call failed is a failure (reported), one finding with its text.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

fn probe(path: &str) -> serde_json::Value {
    let size = match std::fs::metadata(path) {
        Ok(m) => json!({ "bytes": m.len() }),
        Err(e) => json!({ "error": e.to_string() }),
    };
    let owner = match std::fs::read_link(path) {
        Ok(target) => json!({ "link": target.display().to_string() }),
        Err(e) => json!({ "error": format!("not a link: {e}") }),
    };
    json!({ "path": path, "size": size, "link": owner })
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "What can be learnt about a path")]
    async fn diagnose(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let report = probe(&a.path);
        Ok(CallToolResult::success(vec![Content::text(report.to_string())]))
    }

    #[tool(description = "A path's size")]
    async fn size(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let answer = match std::fs::metadata(&a.path) {
            Ok(m) => json!({ "bytes": m.len() }),
            Err(e) => json!({ "error": e.to_string() }),
        };
        Ok(CallToolResult::success(vec![Content::text(answer.to_string())]))
    }
}
