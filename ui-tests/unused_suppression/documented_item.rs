//@ dep: rmcp = "3.11"
// A directive above a documented item covers the whole item: doc comments, like blank
// lines, sit between the directive and the code it covers. Without the directive, the same
// index is reported.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub items: Vec<String>,
    pub index: usize,
}

pub struct Server;

#[tool_router]
impl Server {
    // mcp-lint: allow(panic_in_tool, reason = "the client sends an index it was given")
    /// Picks an item.
    ///
    /// The index comes from an earlier listing.
    #[tool(description = "Picks an item")]
    async fn pick(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(a.items[a.index].clone())
    }

    /** Picks an item of a listing. */
    // mcp-lint: allow(panic_in_tool, reason = "the client sends an index it was given")
    #[tool(description = "Picks an item of a listing")]
    async fn pick_listed(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(a.items[a.index].clone())
    }

    /// Picks an item, unchecked and not suppressed.
    #[tool(description = "Picks an item, unchecked")]
    async fn pick_unchecked(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(a.items[a.index].clone())
    }
}

fn main() {}
