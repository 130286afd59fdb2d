//@ dep: rmcp = "3.11"
// Failure text that reaches a tool's success value through fns that hand their callee's value
// back unchanged. Each finding sits where the text enters a success, as if the helpers' bodies
// were written in the tool: `word_count` returns `count`'s value, which builds the text in its
// error arm; `text` returns `load`'s `Ok(..)` of a wrapper's text (reported at that `Ok`). A helper that turns
// the error it is handed into text is reported at the call that hands it the error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

pub struct Files;

fn count(path: &str) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => text.split_whitespace().count().to_string(),
        Err(e) => format!("could not read {path}: {e}"),
    }
}

fn missing(path: &str) -> String {
    format!("Error: {path} does not exist")
}

fn explain(path: &str) -> String {
    missing(path)
}

fn load(path: &str) -> Result<String, String> {
    if !std::path::Path::new(path).exists() {
        return Ok(explain(path));
    }
    Ok(std::fs::read_to_string(path).unwrap_or_default())
}

fn describe(e: &std::io::Error) -> String {
    format!("failed: {e}")
}

#[tool_router]
impl Files {
    #[tool(description = "Count the words of a file")]
    async fn word_count(&self, Parameters(args): Parameters<Args>) -> String {
        count(&args.path)
    }

    #[tool(description = "The text of a file")]
    async fn text(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        load(&args.path)
    }

    #[tool(description = "The size of a file")]
    async fn size(&self, Parameters(args): Parameters<Args>) -> String {
        match std::fs::metadata(&args.path) {
            Ok(m) => m.len().to_string(),
            Err(e) => describe(&e),
        }
    }
}
