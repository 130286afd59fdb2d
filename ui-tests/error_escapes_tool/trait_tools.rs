//@ dep: rmcp = "1.3"
// Trait-based tools: every Err of AsyncTool::invoke is a protocol error. Lock poisoning mapped
// to an internal error is not a tool failure and is not reported.
use std::sync::Mutex;

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::{AsyncTool, ToolBase};

pub struct Db {
    conn: Mutex<Vec<String>>,
}

pub struct ListTables;

impl ToolBase for ListTables {
    type Parameter = ();
    type Output = Vec<String>;
    type Error = ErrorData;
    fn name() -> std::borrow::Cow<'static, str> {
        "list_tables".into()
    }
}

impl AsyncTool<Db> for ListTables {
    async fn invoke(db: &Db, _params: ()) -> Result<Vec<String>, ErrorData> {
        let conn = db
            .conn
            .lock()
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let tables = std::fs::read_dir("/var/db")
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(tables.filter_map(Result::ok).map(|t| format!("{:?} {}", t.path(), conn.len())).collect())
    }
}
