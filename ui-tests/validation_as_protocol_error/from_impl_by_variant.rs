//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `?` converts a crate error into the SDK's through the crate's `From` impl, which picks the
// JSON-RPC error by variant. An error known to be `Rejected` becomes `invalid_params`
// (-32602: validation, at the `?` that converts it); one known to be `Disk` becomes
// `internal_error` (-32603: an execution failure). The `From` impl hands the match to a
// method of the error; it picks by the same variant.
use rmcp::model::{CallToolResult, Content};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Head {
    name: String,
    limit: String,
}

pub enum StoreError {
    Rejected(String),
    Disk(std::io::Error),
}

impl StoreError {
    fn to_rpc(&self) -> ErrorData {
        match self {
            StoreError::Rejected(why) => ErrorData::invalid_params(why.clone(), None),
            StoreError::Disk(e) => ErrorData::internal_error(e.to_string(), None),
        }
    }
}

impl From<StoreError> for ErrorData {
    fn from(e: StoreError) -> Self {
        e.to_rpc()
    }
}

fn parse_limit(limit: &str) -> Result<usize, StoreError> {
    limit
        .parse()
        .map_err(|_| StoreError::Rejected(format!("limit `{limit}` is not a number")))
}

fn load(name: &str) -> Result<String, StoreError> {
    std::fs::read_to_string(name).map_err(StoreError::Disk)
}

pub struct Store;

#[tool_router]
impl Store {
    #[tool(description = "The first lines of a stored file")]
    async fn head(&self, Parameters(args): Parameters<Head>) -> Result<CallToolResult, ErrorData> {
        let limit = parse_limit(&args.limit)?;
        let text = load(&args.name)?;
        let head: Vec<&str> = text.lines().take(limit).collect();
        Ok(CallToolResult::success(vec![Content::text(head.join("\n"))]))
    }
}

fn main() {}
