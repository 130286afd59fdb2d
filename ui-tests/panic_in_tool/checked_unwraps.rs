//@ dep: rmcp = "1.6"
// Unwraps the same fn has already made safe are not reported; unchecked ones are.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub uri: String,
    pub scores: Vec<f32>,
}

#[tool_router]
impl Server {
    #[tool(description = "Pick the best score")]
    async fn best(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let mut best: Option<f32> = None;
        for s in &args.scores {
            if best.is_none() || *s > best.unwrap() {
                best = Some(*s);
            }
        }
        let only = if args.scores.len() == 1 {
            args.scores.iter().next().copied().unwrap_or(0.0)
        } else {
            0.0
        };
        let id = if args.uri.starts_with("note://") {
            args.uri.strip_prefix("note://").unwrap().to_string()
        } else {
            String::new()
        };
        let schema: serde_json::Value =
            serde_json::from_value(serde_json::json!({"type": "object", "required": ["uri"]}))
                .unwrap();
        let first = args.uri.chars().next().unwrap();
        let mut doc = serde_json::json!({});
        let root = doc
            .as_object_mut()
            .expect("json!({}) is always an object");
        root.insert("uri".into(), first.to_string().into());
        let _ = doc.as_object().expect("an object");
        let mut scores = args.scores.iter().peekable();
        let top = if scores.peek().is_some() { *scores.next().unwrap() } else { 0.0 };
        let _ = top;
        Ok(format!("{best:?} {only} {id} {schema} {first}"))
    }

    #[tool(description = "Guarded by catch_unwind")]
    async fn guarded(&self) -> Result<CallToolResult, McpError> {
        let out = std::panic::catch_unwind(|| {
            let v: Option<u8> = None;
            v.unwrap()
        });
        Ok(CallToolResult::success(vec![Content::text(format!("{out:?}"))]))
    }
}
