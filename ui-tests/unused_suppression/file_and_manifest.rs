//! mcp-lint: allow(panic_in_tool, reason = "prototype server; panics are acceptable for now")
//@ dep: rmcp = "3.11"
//@ manifest: [profile.release]
//@ manifest: # mcp-lint: allow(panic_abort_in_server, reason = "size matters more on this device")
//@ manifest: panic = "abort"
// A file-level allow and one in Cargo.toml.
use rmcp::{tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Read")]
    async fn read(&self, path: String) -> String {
        std::fs::read_to_string(path).unwrap()
    }
}
