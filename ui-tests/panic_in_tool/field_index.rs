//@ dep: rmcp = "3.11"
// An index the caller chooses into a field of the arguments: reported; the same after a
// length check: not.
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
    #[tool(description = "Picks an item")]
    async fn pick(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(a.items[a.index].clone())
    }

    #[tool(description = "Picks an item, checked")]
    async fn pick_checked(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        if a.index >= a.items.len() {
            return Err(format!("index {} is past the {} items", a.index, a.items.len()));
        }
        Ok(a.items[a.index].clone())
    }
}
