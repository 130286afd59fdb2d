//@ dep: rmcp = "3.11"
// A start the code fixes is a byte offset: after `starts_with("v=")` the first two bytes are
// ASCII, so `&s[2..]` is safe, but `&s[3..]` may split the character after them (or pass the
// end of a two-byte string), and so may `&s[1..]` where nothing was checked.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Versions;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Tag {
    tag: String,
}

fn strip(tag: &str) -> Option<(&str, &str)> {
    if !tag.starts_with("v=") {
        return None;
    }
    Some((&tag[2..], &tag[3..]))
}

#[tool_router]
impl Versions {
    #[tool(description = "Split a version tag")]
    async fn split(&self, Parameters(t): Parameters<Tag>) -> Result<String, McpError> {
        let Some((whole, minor)) = strip(&t.tag) else {
            return Ok(format!("not a version tag: {}", &t.tag[1..]));
        };
        Ok(format!("{whole} {minor}"))
    }
}

fn main() {}
