//@ dep: rmcp = "3.11"
// `v.iter().position(..)` gives the index of an element of `v`, below `v.len()`: slicing `v`
// there, or one past it, stays in bounds (not reported). A position counted over a string's
// `chars()` is a number of characters, not a byte offset: slicing the string there can split a
// character or pass its end (reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::tool;
use rmcp::tool_router;

pub struct Args;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Line {
    pub words: Vec<String>,
    pub text: String,
}

#[tool_router]
impl Args {
    #[tool(description = "The words before and after --")]
    async fn split(&self, Parameters(line): Parameters<Line>) -> Result<String, String> {
        let at = line.words.iter().position(|w| w == "--").ok_or("no --")?;
        let (before, after) = (&line.words[..at], &line.words[at + 1..]);
        Ok(format!("{} | {}", before.join(" "), after.join(" ")))
    }

    #[tool(description = "The text before the first colon")]
    async fn key(&self, Parameters(line): Parameters<Line>) -> Result<String, String> {
        let at = line.text.chars().position(|c| c == ':').ok_or("no colon")?;
        Ok(line.text[..at].to_string())
    }
}
