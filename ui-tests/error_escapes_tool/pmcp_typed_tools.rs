//@ dep: pmcp = "2.23"
// pmcp makes a tool of the handler given to one of its typed-tool constructors:
// `TypedTool::new(name, handler)` deserializes the arguments and calls the handler, and the
// server answers the handler's `Err` with JSON-RPC -32603, however the tool is registered
// afterwards (`.tool(name, tool)`). A fn handler declared to return a boxed future fails
// through the future's output, and the `async` block a closure returns is the closure's body.
use pmcp::{Error, RequestHandlerExtra, ServerBuilder, TypedTool, TypedToolWithOutput};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Target {
    pub path: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Size {
    pub bytes: u64,
}

type Answer<T> = Pin<Box<dyn Future<Output = pmcp::Result<T>> + Send>>;

fn size_of(input: Target, _extra: RequestHandlerExtra) -> Answer<Size> {
    Box::pin(async move {
        let meta = std::fs::metadata(&input.path).map_err(|e| Error::internal(e.to_string()))?;
        Ok(Size { bytes: meta.len() })
    })
}

pub fn build() -> pmcp::Result<pmcp::Server> {
    let size = TypedToolWithOutput::new("size", size_of);
    let head = TypedTool::new("head", |input: Target, _extra: RequestHandlerExtra| {
        Box::pin(async move {
            let text = std::fs::read_to_string(&input.path)
                .map_err(|e| Error::internal(e.to_string()))?;
            let first = text.lines().next().unwrap();
            Ok(serde_json::json!({ "line": first }))
        })
    });
    ServerBuilder::new()
        .name("files")
        .version("1.0.0")
        .tool("size", size)
        .tool("head", head)
        .build()
}
