//@ dep: rmcp = "3.11"
// Each branch that answers with failure text is its own site: an `if let` whose `else` and a
// fallback closure both put failure text into the one success result are two findings. Error
// text inside a JSON error object is one finding with the object. An empty search, "could not
// find any ..", is an answer, not a failure: clean.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub query: String,
}

fn load(query: &str) -> Result<String, std::io::Error> {
    std::fs::read_to_string(query)
}

pub struct Server {
    docs: Vec<String>,
}

#[tool_router]
impl Server {
    #[tool(description = "Two branches, two failure texts")]
    async fn answer(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = match self.docs.iter().find(|d| d.contains(&a.query)) {
            Some(best) => {
                if let Some(doc) = self.docs.iter().find(|d| *d == best) {
                    load(doc)
                        .ok()
                        .unwrap_or_else(|| "Error: the document could not be read".to_string())
                } else {
                    "Error: no content for the best match".to_string()
                }
            }
            None => "Could not find any document about that".to_string(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "From the docs: {text}"
        ))]))
    }

    #[tool(description = "Error text inside a JSON error object")]
    async fn status(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let state = load(&a.query)
            .map(|s| json!({ "state": s }))
            .unwrap_or_else(|e| json!({ "state": "offline", "error": e.to_string() }));
        Ok(CallToolResult::success(vec![ContentBlock::text(state.to_string())]))
    }

    #[tool(description = "An empty search")]
    async fn search(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let hits: Vec<&String> = self.docs.iter().filter(|d| d.contains(&a.query)).collect();
        let text = if hits.is_empty() {
            "Could not find any match".to_string()
        } else {
            format!("{hits:?}")
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {}
