//@ dep: rmcp = "2.1"
// A tool passes its arguments on inside a tuple struct (the SDK's `Parameters`, a crate
// newtype): the helper that unwraps them indexes with a bound the client chose, so the panic
// is the tool's. A bound the helper computes itself is not the client's.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub rows: Vec<String>,
    pub row: usize,
}

pub struct Row(usize);

pub struct Table;

impl Table {
    fn nth(&self, Parameters(args): Parameters<Args>) -> String {
        args.rows[args.row].clone()
    }

    fn at(&self, rows: &[String], Row(i): Row) -> String {
        rows[i].clone()
    }

    fn last(&self, rows: &[String]) -> String {
        let i = rows.len().saturating_sub(1);
        rows.get(i).cloned().unwrap_or_default()
    }
}

#[tool_router]
impl Table {
    #[tool(description = "A row by number")]
    async fn row(&self, Parameters(args): Parameters<Args>) -> String {
        self.nth(Parameters(args))
    }

    #[tool(description = "A row by number, through a newtype")]
    async fn cell(&self, Parameters(args): Parameters<Args>) -> String {
        self.at(&args.rows, Row(args.row))
    }

    #[tool(description = "The last row")]
    async fn tail(&self, Parameters(args): Parameters<Args>) -> String {
        self.last(&args.rows)
    }
}

fn main() {}
