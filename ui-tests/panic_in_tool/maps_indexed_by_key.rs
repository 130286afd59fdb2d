//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: serde_json = "1"
// `Index` on a map panics when the key is absent: serde_json's `Map` and std's maps do, where
// indexing a JSON `Value` gives `Null`. A map the client sends may lack any key, so
// `options["depth"]` on it is reported, in the tool and in a helper it is handed to (there,
// through the tool that passes it); also after `as_object()`. Asking first
// (`contains_key`, `get`) and a map the tool fills itself are not.
use std::collections::HashMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};
use serde_json::{Map, Value};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Render {
    pub options: Map<String, Value>,
    pub extra: Value,
}

fn style(options: &Map<String, Value>) -> String {
    options["style"].as_str().unwrap_or("plain").to_string()
}

pub struct Renderer;

#[tool_router]
impl Renderer {
    #[tool(description = "Render with options")]
    async fn render(&self, Parameters(r): Parameters<Render>) -> Result<CallToolResult, ErrorData> {
        let depth = r.options["depth"].as_u64().unwrap_or(1);
        let mode = if r.options.contains_key("mode") {
            r.options["mode"].to_string()
        } else {
            "auto".to_string()
        };
        let width = r.extra.as_object().map(|o| o["width"].clone());
        let mut defaults: HashMap<&str, u64> = HashMap::new();
        defaults.insert("margin", 2);
        let margin = defaults["margin"];
        let text = format!("{depth} {mode} {} {width:?} {margin}", style(&r.options));
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

fn main() {}
