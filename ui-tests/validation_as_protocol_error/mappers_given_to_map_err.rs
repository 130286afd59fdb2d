//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A mapper method picks the JSON-RPC error by its receiver's variant. Given to `map_err` as a
// closure (`|e| e.to_rpc()`: `e` is the `Result`'s error type, so `to_rpc` is the crate's
// method) or as a path (`StoreError::to_rpc`, whose first argument is the receiver), it is
// given a value of known variants: `BadInput` makes -32602 (validation, at the `?`), `Io`
// -32603 (an execution failure), and the other arm is no path of that tool. A variant a
// helper makes (`Err(bad(name))`) is known as well as one written in place.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

pub type Failure = rmcp::ErrorData;
pub type Outcome<T> = Result<T, Failure>;

pub enum StoreError {
    BadInput(String),
    Io(std::io::Error),
}

impl StoreError {
    fn to_rpc(self) -> Failure {
        match self {
            StoreError::BadInput(m) => Failure::invalid_params(m, None),
            StoreError::Io(e) => Failure::internal_error(e.to_string(), None),
        }
    }
}

fn bad(what: &str) -> StoreError {
    StoreError::BadInput(format!("{what} is empty"))
}

fn check(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(bad(name));
    }
    Ok(())
}

fn save(name: &str) -> Result<(), StoreError> {
    std::fs::write(name, b"").map_err(StoreError::Io)
}

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub name: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Checks a name")]
    async fn greet(&self, Parameters(a): Parameters<Args>) -> Outcome<CallToolResult> {
        check(&a.name).map_err(|e| e.to_rpc())?;
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Creates a file")]
    async fn touch(&self, Parameters(a): Parameters<Args>) -> Outcome<CallToolResult> {
        save(&a.name).map_err(StoreError::to_rpc)?;
        Ok(CallToolResult::success(vec![]))
    }
}
