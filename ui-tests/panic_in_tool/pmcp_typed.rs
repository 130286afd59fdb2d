//@ dep: pmcp = "2.23"
// pmcp: closures given to tool_typed are tool handlers.
use pmcp::{Server, ServerBuilder};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    a: i64,
    b: i64,
}

pub fn server() -> pmcp::Result<Server> {
    ServerBuilder::new()
        .name("calc")
        .tool_typed("div", |args: Args, _extra| {
            Box::pin(async move {
                let q = args.a.checked_div(args.b).expect("b is not zero");
                Ok(json!({ "q": q }))
            })
        })
        .build()
}
