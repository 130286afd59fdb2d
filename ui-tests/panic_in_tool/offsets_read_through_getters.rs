//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: derive-getters = "0.5"
// A getter hands out a field as it is, whether the crate writes it (`fn skip(&self) ->
// &usize { &self.skip }`) or a derive macro does (`#[derive(Getters)]`, a method the crate
// never spells out): an offset the client chose, read through either, cuts the text where
// the client says, and can land inside a multi-byte character.
use derive_getters::Getters;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema, Getters)]
pub struct Window {
    from: usize,
    width: usize,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Tail {
    skip: usize,
}

impl Tail {
    pub fn skip(&self) -> &usize {
        &self.skip
    }
}

fn document() -> Result<String, ErrorData> {
    std::fs::read_to_string("notes.md").map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

pub struct Reader;

#[tool_router]
impl Reader {
    #[tool(description = "A window of the document")]
    async fn window(&self, Parameters(w): Parameters<Window>) -> Result<CallToolResult, ErrorData> {
        let text = document()?;
        if *w.from() >= text.len() {
            return Ok(CallToolResult::success(vec![]));
        }
        let end = (*w.from() + *w.width()).min(text.len());
        Ok(CallToolResult::success(vec![Content::text(&text[*w.from()..end])]))
    }

    #[tool(description = "The document after its first bytes")]
    async fn tail(&self, Parameters(t): Parameters<Tail>) -> Result<CallToolResult, ErrorData> {
        let text = document()?;
        let start = (*t.skip()).min(text.len());
        Ok(CallToolResult::success(vec![Content::text(&text[start..])]))
    }
}

fn main() {}
