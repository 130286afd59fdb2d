//@ dep: rmcp = "0.8"
// A test guards an `unwrap` after it only when a branch it decides leaves or changes the
// value: `if x.is_none() { return .. }` and `if x.is_none() { x = Some(..) }` do, a test with
// empty branches (`if x.is_none() {}`, left over from debugging) does not.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    key: Option<String>,
    fallback: Option<String>,
    depth: Option<u32>,
}

pub struct Store;

#[tool_router]
impl Store {
    #[tool(description = "Read a key")]
    async fn read_key(&self, Parameters(args): Parameters<Lookup>) -> String {
        if args.key.is_none() {}
        let key = args.key.unwrap();
        format!("value of {key}")
    }

    #[tool(description = "Read a key, or say which one is missing")]
    async fn read_or_explain(&self, Parameters(args): Parameters<Lookup>) -> String {
        if args.fallback.is_none() {
            return "give a fallback".to_string();
        }
        let fallback = args.fallback.unwrap();
        format!("fallback {fallback}")
    }

    #[tool(description = "Walk the tree")]
    async fn walk(&self, Parameters(mut args): Parameters<Lookup>) -> String {
        if args.depth.is_none() {
            args.depth = Some(1);
        }
        let depth = args.depth.unwrap();
        format!("walked {depth} levels")
    }
}
