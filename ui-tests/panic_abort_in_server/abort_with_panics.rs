//@ dep: rmcp = "3.11"
//@ manifest: [profile.release]
//@ manifest: lto = true
//@ manifest: panic = "abort"
// panic = "abort" with panics reachable from tools: reported on the manifest line.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

fn first_line(text: &str) -> String {
    text.lines().next().expect("a line").to_string()
}

#[tool_router]
impl Server {
    #[tool(description = "Read")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let text = std::fs::read_to_string(&args.path).unwrap();
        Ok(first_line(&text))
    }

    #[tool(description = "Later")]
    async fn later(&self) -> String {
        todo!()
    }

    #[tool(description = "Fine")]
    async fn fine(&self) -> String {
        let v: Option<u8> = None;
        let _ = std::panic::catch_unwind(|| v.unwrap());
        "ok".into()
    }
}
