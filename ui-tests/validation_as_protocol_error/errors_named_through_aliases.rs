//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A type alias names the same type: `Failure::invalid_params(..)` with `type Failure =
// rmcp::ErrorData` is rmcp's constructor, and `impl From<StoreError> for Failure` is the
// conversion `?` applies to a `StoreError` in a tool returning `Outcome<_>`. An error known
// to be `BadInput` becomes -32602 (validation, at the `?`); one known to be `Io`, -32603. A
// `?` that can convert either answers execution failures too: it is `error_escapes_tool`.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

pub type Failure = rmcp::ErrorData;
pub type Outcome<T> = Result<T, Failure>;

pub enum StoreError {
    BadInput(String),
    Io(std::io::Error),
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::BadInput(m) => Failure::invalid_params(m, None),
            StoreError::Io(e) => Failure::internal_error(e.to_string(), None),
        }
    }
}

fn check(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(StoreError::BadInput("name is empty".into()));
    }
    Ok(())
}

fn save(name: &str) -> Result<(), StoreError> {
    std::fs::write(name, b"").map_err(StoreError::Io)
}

fn load(name: &str) -> Result<String, StoreError> {
    check(name)?;
    std::fs::read_to_string(name).map_err(StoreError::Io)
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
        check(&a.name)?;
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Shows a file")]
    async fn show(&self, Parameters(a): Parameters<Args>) -> Outcome<CallToolResult> {
        let text = load(&a.name)?;
        Ok(CallToolResult::success(vec![rmcp::model::Content::text(text)]))
    }

    #[tool(description = "Creates a file")]
    async fn touch(&self, Parameters(a): Parameters<Args>) -> Outcome<CallToolResult> {
        save(&a.name)?;
        Ok(CallToolResult::success(vec![]))
    }
}
