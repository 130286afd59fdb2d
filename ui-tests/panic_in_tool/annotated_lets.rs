//@ dep: rmcp = "1.6"
// A `let` with a type annotation binds as one without: an offset found in a string and
// bound by `let at: usize = ..?` is a char boundary of that string, and slicing there cannot
// panic. Slicing another string at it can.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Pair {
    pub entry: String,
    pub other: String,
}

#[tool_router]
impl Server {
    #[tool(description = "The key of a key=value entry")]
    async fn key(&self, Parameters(p): Parameters<Pair>) -> Result<String, String> {
        let at: usize = p.entry.find('=').ok_or("no `=` in the entry")?;
        Ok(p.entry[..at].trim().to_string())
    }

    #[tool(description = "The other string, cut where the entry's key ends")]
    async fn cut_other(&self, Parameters(p): Parameters<Pair>) -> Result<String, String> {
        let at: usize = p.entry.find('=').ok_or("no `=` in the entry")?;
        Ok(p.other[..at].to_string())
    }
}
