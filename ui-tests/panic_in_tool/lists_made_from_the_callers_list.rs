//@ dep: rmcp = "3.11"
//@ dep: serde_json = "1"
// A list made from the caller's list (the JSON array `as_array` finds in the arguments, or
// the items an iterator adapter keeps: `copied`, `filter_map`, `map`, `take`) is as long as
// the caller makes it, possibly empty: its first item is not always there. Checked first,
// it is.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, tool, tool_router};
use serde_json::Value;

pub struct Stats;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Input {
    pub data: Value,
    pub weights: Vec<f64>,
}

#[tool_router]
impl Stats {
    #[tool(description = "The first value of a JSON list (reported)")]
    async fn head(&self, Parameters(input): Parameters<Input>) -> Result<CallToolResult, ErrorData> {
        let Some(values) = input.data["values"].as_array() else {
            return Ok(CallToolResult::error(vec![ContentBlock::text("values must be a list")]));
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(values[0].to_string())]))
    }

    #[tool(description = "The spread of the numbers in a JSON list (reported)")]
    async fn spread(&self, Parameters(input): Parameters<Input>) -> Result<CallToolResult, ErrorData> {
        let numbers: Vec<f64> = input.data["values"]
            .as_array()
            .map(|v| v.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        let sorted: Vec<f64> = numbers.iter().copied().take(100).collect();
        Ok(CallToolResult::success(vec![ContentBlock::text((sorted[sorted.len() - 1] - sorted[0]).to_string())]))
    }

    #[tool(description = "The first weight, doubled (reported)")]
    async fn double_first(&self, Parameters(input): Parameters<Input>) -> Result<CallToolResult, ErrorData> {
        let doubled: Vec<f64> = input.weights.iter().map(|w| w * 2.0).collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(doubled[0].to_string())]))
    }

    #[tool(description = "The first weight, checked")]
    async fn first_checked(&self, Parameters(input): Parameters<Input>) -> Result<CallToolResult, ErrorData> {
        let positive: Vec<f64> = input.weights.iter().copied().filter(|w| *w > 0.0).collect();
        if positive.is_empty() {
            return Ok(CallToolResult::error(vec![ContentBlock::text("no positive weight")]));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(positive[0].to_string())]))
    }
}
