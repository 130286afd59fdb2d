//@ dep: mcp-attr = "0.0.7"
// mcp-attr's `bail_public!(code, "..", ..)` returns early with `Err(Error::new(code)
// .with_message(..))`, an error the SDK sends as a JSON-RPC error (`_` is -32603): each use in
// a tool is a `return Err(..)`. A message about the arguments is validation
// (validation_as_protocol_error); a failure of the work itself is error_escapes_tool. The
// `Err` branch of serializing the tool's own data to JSON never runs (not reported).
use mcp_attr::server::{McpServer, mcp_server, serve_stdio};
use mcp_attr::{Result, bail_public};

struct Notes {
    dir: std::path::PathBuf,
}

#[mcp_server]
impl McpServer for Notes {
    #[tool]
    async fn append(&self, name: String, line: String) -> Result<String> {
        if name.is_empty() {
            bail_public!(_, "the name argument must not be empty");
        }
        let path = self.dir.join(&name);
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        text.push_str(&line);
        if std::fs::write(&path, &text).is_err() {
            bail_public!(_, "could not save {name}");
        }
        Ok(format!("{} bytes", text.len()))
    }

    #[tool]
    async fn listing(&self) -> Result<String> {
        let names = vec![self.dir.display().to_string()];
        match serde_json::to_string(&names) {
            Ok(json) => Ok(json),
            Err(e) => bail_public!(_, "could not encode the listing: {e}"),
        }
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    serve_stdio(Notes { dir: ".".into() }).await?;
    Ok(())
}
