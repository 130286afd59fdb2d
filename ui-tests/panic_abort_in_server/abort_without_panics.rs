//@ dep: rmcp = "3.11"
//@ manifest: [profile.release]
//@ manifest: panic = "abort"
// panic = "abort" in a server whose handlers cannot panic (startup unwraps do not count).
use rmcp::{tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    pub fn new() -> Self {
        let _ = std::env::var("HOME").unwrap();
        Server
    }

    #[tool(description = "Echo")]
    async fn echo(&self) -> Result<String, String> {
        std::env::var("GREETING").map_err(|e| e.to_string())
    }
}
