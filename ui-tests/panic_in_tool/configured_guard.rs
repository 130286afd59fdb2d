//@ dep: rmcp = "3.11"
//@ dep: guards = { path = "../guards" }
//@ manifest: [package.metadata.mcp-lint]
//@ manifest: panic-guards = ["run_guarded"]
// A panic guard from another crate, named in the configuration: code in its closure is guarded.
use rmcp::{tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Parse")]
    async fn parse(&self, text: String) -> Result<String, String> {
        let n = guards::run_guarded(|| text.parse::<u32>().unwrap())?;
        let m: u32 = text.trim().parse().unwrap();
        Ok((n + m).to_string())
    }
}
