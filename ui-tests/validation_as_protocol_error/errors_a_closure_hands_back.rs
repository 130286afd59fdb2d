//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A closure's `?` leaves the closure, not the tool: the error it hands back is the closure's
// value, and what `collect::<Result<..>>()` gives. Where that error is a helper's protocol
// error, the tool's `?` only passes it on and the helper that makes it is the one place to
// change (one finding, naming both tools); an I/O error a closure hands back becomes a
// JSON-RPC error where the tool converts it.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

fn port(text: &str) -> Result<u16, ErrorData> {
    text.parse()
        .map_err(|_| ErrorData::invalid_params(format!("`{text}` is not a port number"), None))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Ports {
    pub ports: Vec<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Files {
    pub paths: Vec<String>,
}

pub struct Probe;

#[tool_router]
impl Probe {
    #[tool(description = "Probe ports")]
    async fn probe(&self, Parameters(p): Parameters<Ports>) -> Result<CallToolResult, ErrorData> {
        let ports = p
            .ports
            .iter()
            .map(|text| {
                let number = port(text)?;
                Ok(number.saturating_add(0))
            })
            .collect::<Result<Vec<u16>, ErrorData>>()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{ports:?}"))]))
    }

    #[tool(description = "Probe the first port")]
    async fn first(&self, Parameters(p): Parameters<Ports>) -> Result<CallToolResult, ErrorData> {
        let first = p.ports.first().map(|text| port(text)).transpose()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{first:?}"))]))
    }

    #[tool(description = "Sizes of files")]
    async fn sizes(&self, Parameters(f): Parameters<Files>) -> Result<CallToolResult, ErrorData> {
        let sizes = f
            .paths
            .iter()
            .map(|path| {
                let meta = std::fs::metadata(path)?;
                Ok(meta.len())
            })
            .collect::<Result<Vec<u64>, std::io::Error>>()
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("{sizes:?}"))]))
    }
}

fn main() {}
