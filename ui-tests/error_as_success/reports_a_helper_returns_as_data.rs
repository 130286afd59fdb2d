//@ dep: rmcp = "3.11"
//@ dep: serde_json = "1"
// A helper that cannot fail (it returns a plain report, not a `Result`) describes its own
// failures in the report it returns, built by a helper of its own. The report is data: the
// tool that sends it as a success is where the answer must change, once, not where the
// helper fills the report in.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Ledger;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub account: String,
}

#[derive(serde::Serialize)]
pub struct Problem {
    pub message: String,
    pub step: usize,
}

#[derive(serde::Serialize)]
pub struct Report {
    pub success: bool,
    pub error: Option<Problem>,
    pub lines: Vec<String>,
}

fn problem(message: impl Into<String>, step: usize) -> Report {
    Report { success: false, error: Some(Problem { message: message.into(), step }), lines: Vec::new() }
}

fn balance(account: &str) -> Report {
    if account.is_empty() {
        return problem("the account is empty", 0);
    }
    std::fs::read_to_string(account)
        .map(|text| Report { success: true, error: None, lines: text.lines().map(String::from).collect() })
        .unwrap_or_else(|_| problem("the account cannot be read", 1))
}

#[tool_router]
impl Ledger {
    #[tool(description = "The balance of an account")]
    async fn balance(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, McpError> {
        let report = balance(&q.account);
        let text = serde_json::to_string(&report).unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
