//@ dep: rmcp = "1.6"
// After `s.ends_with(".json")` the last five bytes of `s` are that ASCII suffix, so cutting
// `s` up to `s.len() - k` for `k` up to five is in bounds and on a char boundary (directly
// or through a local holding the length). Cutting more than the suffix has, after a
// non-ASCII suffix, or another string, can still panic.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub file: String,
    pub word: String,
}

#[tool_router]
impl Server {
    #[tool(description = "The stem of a file name and of a word")]
    async fn stem(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let name = a.file.trim();
        let base = if name.ends_with(".json") {
            &name[..name.len() - 5]
        } else {
            name
        };
        let size = a.word.len();
        let word = if a.word.ends_with("ing") {
            &a.word[..size - 3]
        } else {
            a.word.as_str()
        };
        Ok(format!("{base} {word}"))
    }

    #[tool(description = "Cuts that can fall inside a character")]
    async fn cut(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let name = a.file.trim();
        let more = if name.ends_with(".md") { &name[..name.len() - 4] } else { name };
        let accented = if a.word.ends_with("é") { &a.word[..a.word.len() - 2] } else { "" };
        let other = if a.word.ends_with("ing") { &a.file[..a.file.len() - 3] } else { "" };
        Ok(format!("{more} {accented} {other}"))
    }
}
