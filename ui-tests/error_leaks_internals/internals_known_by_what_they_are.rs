//@ dep: rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Internals are known by what a value is, not by what a local is called: a backtrace
// captured with `Backtrace::force_capture()` and the text of an SQL statement are reported
// where an error result shows them, whatever holds them; a local called `sql` holding prose,
// and prose that starts like a query, are not internals.
use std::backtrace::Backtrace;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Note {
    pub id: i64,
}

fn run(statement: &str, id: i64) -> Result<String, std::io::Error> {
    std::fs::read_to_string(format!("/notes/{id}/{}", statement.len()))
}

pub struct Notes;

#[tool_router]
impl Notes {
    #[tool(description = "Open a note")]
    async fn open(&self, Parameters(n): Parameters<Note>) -> Result<String, String> {
        if n.id < 0 {
            let trace = Backtrace::force_capture();
            return Err(format!("negative id at {trace}"));
        }
        let query = "SELECT body FROM notes WHERE id = ?1";
        run(query, n.id).map_err(|e| format!("{query} failed: {e}"))
    }

    #[tool(description = "Describe the store")]
    async fn describe(&self, Parameters(n): Parameters<Note>) -> Result<String, String> {
        let sql = "the notes database";
        if n.id == 0 {
            return Err(format!("cannot open {sql}"));
        }
        Err("Select a note from the list first".to_string())
    }
}

fn main() {}
