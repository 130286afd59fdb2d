//@ dep: rmcp = "1.2"
// Failure text that helpers return as their `Err` is still on the error side while it is
// passed up (`pick` forwards `load`'s errors from two arms): it becomes a success only where
// a caller binds it (`Err(e)`) and puts it into a success result. That arm is the one
// finding, not each arm that forwarded it. A report that quotes failure lines among other
// content (`render` appends a job's `Error:` output to its log) is content, not a failure.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

fn load(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("Failed to read {path}: {e}"))
}

fn pick(kind: u8) -> Result<String, String> {
    match kind {
        0 => load("daily.log"),
        1 => load("weekly.log"),
        _ => Err("Error: no such report".to_string()),
    }
}

fn render(lines: &[(bool, String)]) -> String {
    let mut out = String::new();
    for (failed, line) in lines {
        if *failed {
            out.push_str(&format!("Error: {line}\n"));
        } else {
            out.push_str(&format!("ok: {line}\n"));
        }
    }
    out
}

pub struct Reports;

#[tool_router]
impl Reports {
    #[tool(description = "Show a report")]
    async fn show(&self) -> Result<CallToolResult, ErrorData> {
        match pick(0) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(e)])),
        }
    }

    #[tool(description = "Show the last job's log")]
    async fn job_log(&self) -> Result<CallToolResult, ErrorData> {
        let lines = vec![(true, "disk full".to_string()), (false, "retried".to_string())];
        Ok(CallToolResult::success(vec![Content::text(render(&lines))]))
    }
}

fn main() {}
