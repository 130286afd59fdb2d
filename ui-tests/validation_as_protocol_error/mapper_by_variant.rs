//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A crate error whose mapper picks the JSON-RPC error by variant: `Problem::BadInput(..)`
// becomes `invalid_params` (-32602), the other variants `internal_error` (-32603). A value
// built as one variant and mapped takes that variant's arm only: `check_port` sends -32602
// (validation), `fetch_page` -32603 (an execution failure), each reported where it is made.
use rmcp::model::{CallToolResult, Content};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Port {
    port: u32,
}

pub enum Problem {
    BadInput(String),
    Upstream { status: u16 },
    Offline,
}

impl Problem {
    fn into_rpc(self) -> ErrorData {
        match self {
            Self::BadInput(why) => ErrorData::invalid_params(why, None),
            Self::Upstream { status } => {
                ErrorData::internal_error(format!("upstream answered {status}"), None)
            }
            Self::Offline => ErrorData::internal_error("offline", None),
        }
    }
}

fn check_port(port: u32) -> Result<u16, ErrorData> {
    if port > 65_535 {
        return Err(Problem::BadInput(format!("port {port} is out of range")).into_rpc());
    }
    Ok(port as u16)
}

fn fetch_page(port: u16) -> Result<String, ErrorData> {
    if port == 0 {
        return Err(Problem::Offline.into_rpc());
    }
    Ok(format!("page from {port}"))
}

pub struct Pages;

#[tool_router]
impl Pages {
    #[tool(description = "Fetch a page")]
    async fn page(&self, Parameters(args): Parameters<Port>) -> Result<CallToolResult, ErrorData> {
        let port = check_port(args.port)?;
        let text = fetch_page(port)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

fn main() {}
