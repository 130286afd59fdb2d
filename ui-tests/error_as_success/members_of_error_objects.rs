//@ dep: rmcp = "0.8"
// A tool that keeps a status per item of a batch: an item whose lookup failed carries an
// `"error"` member beside its other members. Reading the other members (`item["title"]`)
// reads data, not the failure, so the report built from them is no failure (no finding). A
// result whose own `"error"` member says the whole call failed is one (reported).
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::{Value, json};

pub struct Catalog;

impl Catalog {
    fn title_of(&self, id: &str) -> Option<String> {
        (!id.is_empty()).then(|| format!("item {id}"))
    }
}

#[tool_router]
impl Catalog {
    #[tool(description = "Describe several items")]
    async fn describe(&self) -> Result<CallToolResult, McpError> {
        let ids = ["a", "", "c"];
        let mut items: Vec<Value> = Vec::new();
        for id in ids {
            match self.title_of(id) {
                Some(title) => items.push(json!({ "id": id, "title": title })),
                None => items.push(json!({ "id": id, "title": null, "error": "unknown id" })),
            }
        }
        let mut report = String::new();
        for item in &items {
            report.push_str(&format!("- {}: {}\n", item["id"], item["title"]));
        }
        Ok(CallToolResult::success(vec![Content::text(report)]))
    }

    #[tool(description = "Describe the first item")]
    async fn first(&self) -> Result<CallToolResult, McpError> {
        if self.title_of("").is_none() {
            let body = json!({ "error": "the catalog is empty" });
            return Ok(CallToolResult::success(vec![Content::text(body.to_string())]));
        }
        Ok(CallToolResult::success(vec![Content::text("a")]))
    }
}
