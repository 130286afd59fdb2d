//@ dep: rmcp = "0.8"
// A converter whose data can hold an `{"error": ..}` entry: nested under another key of a
// result, it is the data the tool read, not the tool's verdict (no finding). A failure report
// at the top of the result, from the `Err` of the call, is one (reported).
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::{Value, json};

pub enum Cell {
    Num(i64),
    List(Vec<Cell>),
    Fault(String),
}

fn cell_to_json(c: &Cell) -> Value {
    match c {
        Cell::Num(n) => json!(n),
        Cell::List(items) => Value::Array(items.iter().map(cell_to_json).collect()),
        Cell::Fault(msg) => json!({ "error": msg }),
    }
}

pub struct Server;

impl Server {
    fn fetch(&self, key: &str) -> Result<Cell, String> {
        if key.is_empty() {
            Err("no key".to_string())
        } else {
            Ok(Cell::List(vec![Cell::Num(1)]))
        }
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Read a cell")]
    async fn read_cell(&self) -> Result<CallToolResult, McpError> {
        let cell = self.fetch("k").unwrap_or(Cell::Num(0));
        let body = json!({ "key": "k", "value": cell_to_json(&cell) });
        Ok(CallToolResult::success(vec![Content::text(body.to_string())]))
    }

    #[tool(description = "Read a cell, reporting a failed read as a success")]
    async fn read_cell_or_say(&self) -> Result<CallToolResult, McpError> {
        let body = match self.fetch("k") {
            Ok(cell) => json!({ "value": cell_to_json(&cell) }),
            Err(e) => json!({ "error": e }),
        };
        Ok(CallToolResult::success(vec![Content::text(body.to_string())]))
    }
}
