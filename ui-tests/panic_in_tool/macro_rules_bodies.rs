//@ dep: rmcp = "3.11"
// The crate's own `macro_rules!` are expanded where they are called: an `unwrap()` in a
// transcriber panics in the tool that expands it, and an early `return` of failure JSON in one
// is a failure sent as a success. A macro with repetitions is left as a call.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub items: Vec<String>,
    pub account: Option<String>,
}

macro_rules! number {
    ($s:expr) => {
        $s.parse::<u64>().unwrap()
    };
}

macro_rules! account {
    ($a:expr) => {{
        match $a.account.as_deref() {
            Some(name) => name.to_string(),
            None => return serde_json::json!({ "error": "no account configured" }).to_string(),
        }
    }};
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Adds numbers")]
    async fn sum(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut total = 0;
        for item in &a.items {
            total += number!(item);
        }
        Ok(total.to_string())
    }

    #[tool(description = "Names the account")]
    async fn who(&self, Parameters(a): Parameters<Args>) -> String {
        let name = account!(a);
        name
    }
}

macro_rules! total {
    ($($e:expr),*) => { 0 $(+ $e.len())* };
}

pub fn lengths(a: &Args) -> usize {
    total!(a.items, a.items)
}
