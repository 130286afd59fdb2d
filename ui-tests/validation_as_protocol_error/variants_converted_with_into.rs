//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `.into()` converts an error with the same `From` impl `?` uses: an error known to be the
// variant that impl turns into `invalid_params` is validation (-32602) where it is returned,
// one it turns into `internal_error` is an execution failure, whether `.into()` sits in a
// `return Err(..)` or in a tail `Err(..)`.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

pub enum LedgerError {
    Rejected { field: &'static str, why: String },
    Unavailable(std::io::Error),
}

impl From<LedgerError> for ErrorData {
    fn from(e: LedgerError) -> Self {
        match e {
            LedgerError::Rejected { field, why } => {
                ErrorData::invalid_params(format!("{field}: {why}"), None)
            }
            LedgerError::Unavailable(e) => ErrorData::internal_error(e.to_string(), None),
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Entry {
    pub amount: i64,
    pub account: String,
}

pub struct Ledger;

#[tool_router]
impl Ledger {
    #[tool(description = "Record an entry")]
    async fn record(&self, Parameters(entry): Parameters<Entry>) -> Result<CallToolResult, ErrorData> {
        if entry.amount == 0 {
            return Err(LedgerError::Rejected {
                field: "amount",
                why: "must not be zero".into(),
            }
            .into());
        }
        match std::fs::write(&entry.account, entry.amount.to_string()) {
            Ok(()) => Ok(CallToolResult::success(vec![])),
            Err(e) => Err(LedgerError::Unavailable(e).into()),
        }
    }
}

fn main() {}
