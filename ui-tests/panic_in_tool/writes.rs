//@ dep: rmcp = "3.11"
// `writeln!` into a String cannot fail; into a file it can.
use rmcp::{tool, tool_router};
use std::io::Write;
use std::fmt::Write as _;
pub struct Server;
#[tool_router]
impl Server {
    #[tool(description = "a")]
    async fn a(&self, text: String) -> Result<String, String> {
        let mut f = std::fs::File::create("/tmp/out").map_err(|e| e.to_string())?;
        writeln!(f, "{text}").unwrap();
        let mut s = String::new();
        writeln!(s, "{text}").unwrap();
        Ok(s)
    }
}
