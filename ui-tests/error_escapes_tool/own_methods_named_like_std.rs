//@ dep: rmcp = "2.1"
// The crate's own methods called like std ones (`map`, `context`, `write`): the receiver's type
// decides which method runs, so each one's protocol error is reported where it is made.
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, tool, tool_router};

pub struct Catalog {
    root: std::path::PathBuf,
}

impl Catalog {
    fn map(&self, name: &str) -> Result<String, ErrorData> {
        std::fs::read_to_string(self.root.join(name))
            .map_err(|e| ErrorData::internal_error(format!("cannot read {name}: {e}"), None))
    }

    fn context(&self) -> Result<usize, ErrorData> {
        match std::fs::read_dir(&self.root) {
            Ok(entries) => Ok(entries.count()),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }

    fn write(&self, name: &str, text: &str) -> Result<(), String> {
        std::fs::write(self.root.join(name), text).map_err(|e| e.to_string())
    }
}

#[tool_router]
impl Catalog {
    #[tool(description = "Read an entry")]
    async fn read(&self) -> Result<CallToolResult, ErrorData> {
        let text = self.map("index.txt")?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Count entries")]
    async fn count(&self) -> Result<CallToolResult, ErrorData> {
        let n = self.context()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())]))
    }

    #[tool(description = "Save an entry")]
    async fn save(&self) -> Result<String, String> {
        self.write("index.txt", "empty")?;
        Ok("saved".to_string())
    }
}

fn main() {}
