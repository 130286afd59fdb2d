//@ dep: rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A tool that answers in markdown says it failed the way markdown does: a heading that is
// the failure (`# Error`), or the first line under its title (`**Error:** ..`). Those are
// failure reports sent as success (reported). A report whose first line is data is a
// result, whatever a later line or its title mentions.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub term: String,
}

fn glossary() -> Vec<(&'static str, &'static str)> {
    vec![("mcp", "Model Context Protocol")]
}

pub struct Glossary;

#[tool_router]
impl Glossary {
    #[tool(description = "Define a term")]
    async fn define(&self, Parameters(q): Parameters<Query>) -> String {
        match glossary().into_iter().find(|(t, _)| *t == q.term) {
            Some((t, meaning)) => format!("# {t}\n\n{meaning}"),
            None => format!("# {}\n\n**Error:** no entry for this term.", q.term),
        }
    }

    #[tool(description = "Check a term")]
    async fn check(&self, Parameters(q): Parameters<Query>) -> String {
        if q.term.trim().is_empty() {
            return "# Error\n\nThe term is empty.".to_string();
        }
        format!("# Errors to avoid with {}\n\nnone known", q.term)
    }
}

fn main() {}
