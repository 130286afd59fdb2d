//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A request checks each of its items with the items' own check. The loop variable is an
// item whatever the loop walks: the list itself, `iter().enumerate()` (index and item),
// `iter().rev()`, or a map's entries (key and value) and `values()`. Every item check
// rejects an argument, so each tool's `check()?` is validation (-32602), not an execution
// failure.
use std::collections::BTreeMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

pub enum Rejection {
    Argument(String),
    Storage(std::io::Error),
}

impl From<Rejection> for ErrorData {
    fn from(r: Rejection) -> Self {
        match r {
            Rejection::Argument(why) => ErrorData::invalid_params(why, None),
            Rejection::Storage(e) => ErrorData::internal_error(e.to_string(), None),
        }
    }
}

trait Check {
    fn check(&self) -> Result<(), Rejection>;
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Step {
    pub command: String,
}

impl Check for Step {
    fn check(&self) -> Result<(), Rejection> {
        if self.command.trim().is_empty() {
            return Err(Rejection::Argument("a step needs a command".into()));
        }
        Ok(())
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub named: BTreeMap<String, Step>,
}

impl Plan {
    fn check_numbered(&self) -> Result<(), Rejection> {
        for (n, step) in self.steps.iter().enumerate() {
            step.check().map_err(|r| match r {
                Rejection::Argument(why) => Rejection::Argument(format!("step {n}: {why}")),
                other => other,
            })?;
        }
        Ok(())
    }

    fn check_backwards(&self) -> Result<(), Rejection> {
        for step in self.steps.iter().rev() {
            step.check()?;
        }
        Ok(())
    }

    fn check_entries(&self) -> Result<(), Rejection> {
        for (_name, step) in &self.named {
            step.check()?;
        }
        Ok(())
    }

    fn check_values(&self) -> Result<(), Rejection> {
        for step in self.named.values() {
            step.check()?;
        }
        Ok(())
    }
}

pub struct Runner;

#[tool_router]
impl Runner {
    #[tool(description = "Run a plan's steps in order")]
    async fn run(&self, Parameters(plan): Parameters<Plan>) -> Result<CallToolResult, ErrorData> {
        plan.check_numbered()?;
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Undo a plan's steps")]
    async fn undo(&self, Parameters(plan): Parameters<Plan>) -> Result<CallToolResult, ErrorData> {
        plan.check_backwards()?;
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Run the named steps")]
    async fn run_named(&self, Parameters(plan): Parameters<Plan>) -> Result<CallToolResult, ErrorData> {
        plan.check_entries()?;
        plan.check_values()?;
        Ok(CallToolResult::success(vec![]))
    }
}

fn main() {}
