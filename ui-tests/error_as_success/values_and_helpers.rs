//@ dep: rmcp = "3.11"
// Failure text that reaches a success result through a `let` bound to a `match`, through a
// helper that wraps any JSON in a success result, and through a String helper that a
// String-returning tool returns in its error arm. A helper called with a success value and a
// match whose error arm answers with `isError` are clean.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub id: String,
}

fn fetch(id: &str) -> Result<String, std::io::Error> {
    std::fs::read_to_string(id)
}

fn reply(v: Value) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::success(vec![ContentBlock::text(v.to_string())]))
}

fn error_json(e: &std::io::Error) -> String {
    json!({ "error": e.to_string() }).to_string()
}

mod ops {
    pub fn list(dir: &str) -> Result<Vec<String>, std::io::Error> {
        Ok(std::fs::read_dir(dir)?.flatten().map(|e| e.path().display().to_string()).collect())
    }
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "A matched value bound with let")]
    async fn read(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = match fetch(&a.id) {
            Ok(v) => v,
            Err(e) => format!("failed: {e}"),
        };
        let content = vec![ContentBlock::text(text)];
        Ok(CallToolResult::success(content))
    }

    #[tool(description = "A JSON helper given a failure")]
    async fn check(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        if let Err(e) = fetch(&a.id) {
            let msg = e.to_string();
            return reply(json!({ "ok": false, "error": msg }));
        }
        reply(json!({ "ok": true }))
    }

    #[tool(description = "A String helper in the error arm")]
    async fn list(&self, Parameters(a): Parameters<Args>) -> String {
        let entries = match ops::list(&a.id) {
            Ok(entries) => entries,
            Err(e) => return error_json(&e),
        };
        entries.join("\n")
    }

    #[tool(description = "Right: the error arm answers with isError")]
    async fn right(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = match fetch(&a.id) {
            Ok(v) => v,
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "cannot read {}: {e}; pass an existing file",
                    a.id
                ))]));
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
