//@ dep: rmcp = "1.6"
// Offsets that are char boundaries however the text is spelled: the number of leading chars
// a test passes that only ASCII chars pass (`take_while(|c| *c == '#')`) is that many bytes,
// and the length of a prefix of the string (`s.trim_end().len()`) ends on a boundary of it.
// A count of chars passing a test that non-ASCII chars pass too, or the length of a suffix
// (`trim_start`), can fall inside a character of the string.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub line: String,
}

#[tool_router]
impl Server {
    #[tool(description = "A markdown heading's level, title and trailing blanks")]
    async fn heading(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let line = a.line.as_str();
        let level = line.chars().take_while(|c| *c == '#').count();
        let digits = line.chars().take_while(|c| c.is_ascii_digit() || *c == '.').count();
        let title = &line[level..];
        let number = &line[..digits];
        let blanks = &line[line.trim_end().len()..];
        Ok(format!("{level} {title} {number} {blanks:?}"))
    }

    #[tool(description = "Counts that are not byte offsets")]
    async fn letters(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let line = a.line.as_str();
        let word = line.chars().take_while(|c| c.is_alphabetic()).count();
        let head = &line[..word];
        let tail = &line[line.trim_start().len()..];
        Ok(format!("{head} {tail}"))
    }
}
