//@ dep: mcp = { package = "rmcp", version = "0.8" }
//@ lib
// A renamed dependency and a glob import; -32042 is retired.
use mcp::model::*;

pub fn elicitation() -> ErrorData {
    ErrorData::new(ErrorCode(-32042), "url elicitation required", None)
}

pub fn other_crate_code() -> i32 {
    // Not rmcp's ErrorCode: a plain tuple of our own would not be reported.
    let code: (i32,) = (-32050,);
    code.0
}
