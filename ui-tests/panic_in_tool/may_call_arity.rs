//@ dep: rmcp = "1.6"
// A method call on a value of unknown type is followed to the crate's methods of that name
// (a may-call), but only to those it can call: taking `self` and as many arguments as the call
// gives. `parts.query()` is not `Index::query(&self, text)` (no finding there); `hits.query(t)`
// may be (reported, with its chain).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Index {
    words: Vec<String>,
}

impl Index {
    pub fn query(&self, text: &str) -> String {
        let at = self.words.iter().position(|w| w == text);
        self.words[at.unwrap()].clone()
    }
}

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub uri: String,
    pub text: String,
}

#[tool_router]
impl Server {
    #[tool(description = "The query part of a URI")]
    async fn query_of(&self, Parameters(args): Parameters<Args>) -> String {
        let parts = uri_parts::split(&args.uri);
        parts.query().unwrap_or_default().to_string()
    }

    #[tool(description = "Look a word up")]
    async fn look_up(&self, Parameters(args): Parameters<Args>) -> String {
        let hits = search_backend::open(&args.uri);
        hits.query(&args.text)
    }
}
