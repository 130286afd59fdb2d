//@ dep: rmcp = "3.11"
// A byte offset is a char boundary when std's char-boundary APIs gave or checked it, that
// offset only: the cut found with `char_indices` and the one moved back until
// `is_char_boundary` holds are safe, while the same fn's fixed cut of another string,
// behind a byte-length `min`, can still split a character.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Shell;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Run {
    program: String,
}

fn summary(out: &str, err: &str, keep: usize) -> String {
    let cut = out.char_indices().nth(keep).map(|(i, _)| i).unwrap_or(out.len());
    let mut end = keep.min(err.len());
    while !err.is_char_boundary(end) {
        end -= 1;
    }
    let head = &err[..end];
    let tail = &err[..err.len().min(400)];
    format!("{}\n{head}\n{tail}", &out[..cut])
}

#[tool_router]
impl Shell {
    #[tool(description = "Run a program")]
    async fn run(&self, Parameters(r): Parameters<Run>) -> Result<CallToolResult, McpError> {
        let output = match std::process::Command::new(&r.program).output() {
            Ok(o) => o,
            Err(e) => return Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        };
        let out = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);
        let text = summary(&out, &err, 200);
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

fn main() {}
