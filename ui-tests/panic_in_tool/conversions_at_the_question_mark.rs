//@ dep: rmcp = "3.11"
// `?` calls `From::from` of the fn's error type when the operand's error type differs: the
// crate's impl runs on the tool's error path, and a panic in it leaves the call unanswered.
// Only the impl from the operand's error type runs there; one from another type does not.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, tool, tool_router};

#[derive(Debug)]
pub struct Upstream(String);

#[derive(Debug)]
pub struct Storage(Vec<String>);

impl From<Upstream> for McpError {
    fn from(failure: Upstream) -> Self {
        // A byte offset can fall inside a multi-byte character of the upstream's text.
        let shown = if failure.0.len() > 120 { &failure.0[..100] } else { &failure.0[..] };
        McpError::internal_error(shown.to_string(), None)
    }
}

impl From<Storage> for McpError {
    fn from(failure: Storage) -> Self {
        McpError::internal_error(failure.0[0].clone(), None)
    }
}

fn lookup(word: &str) -> Result<String, Upstream> {
    if word.is_empty() {
        Err(Upstream("nothing to look up".into()))
    } else {
        Ok(word.to_uppercase())
    }
}

pub struct Dictionary;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Word {
    word: String,
}

#[tool_router]
impl Dictionary {
    #[tool(description = "Define a word")]
    async fn define(&self, Parameters(w): Parameters<Word>) -> Result<String, McpError> {
        let found = lookup(&w.word)?;
        Ok(found)
    }
}

fn main() {}
