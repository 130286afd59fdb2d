//@ dep: rmcp = "3.11"
// A tool whose whole body hands its arguments to a fn elsewhere: the parameter pattern took
// `Parameters<T>` apart and the call puts it back together, so the fn still gets the request
// and nothing computed from it. That fn is the tool's body: what it answers is the tool's.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Notes;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub file: String,
}

mod store {
    use super::{Notes, Query};
    use rmcp::handler::server::wrapper::Parameters;

    pub async fn open(_notes: &Notes, Parameters(q): Parameters<Query>) -> Result<String, String> {
        std::fs::read_to_string(&q.file).map_err(|err| format!("open failed: {err:?}"))
    }

    pub async fn size(_notes: &Notes, Parameters(q): Parameters<Query>) -> Result<String, String> {
        let meta = std::fs::metadata(&q.file).map_err(|err| format!("{}: {err}", q.file))?;
        Ok(meta.len().to_string())
    }
}

#[tool_router]
impl Notes {
    #[tool(description = "Open a note")]
    async fn open(&self, Parameters(q): Parameters<Query>) -> Result<String, String> {
        store::open(self, Parameters(q)).await
    }

    #[tool(description = "Size of a note (Display of the error: fine)")]
    async fn size(&self, Parameters(q): Parameters<Query>) -> Result<String, String> {
        store::size(self, Parameters(q)).await
    }
}
