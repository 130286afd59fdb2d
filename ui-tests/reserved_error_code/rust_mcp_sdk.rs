//@ dep: rust-mcp-sdk = "1.1"
//@ lib
// rust-mcp-sdk: RpcError's `code` field is written on the wire as is.
use rust_mcp_sdk::schema::RpcError;

pub fn rate_limited() -> RpcError {
    RpcError {
        code: -32029,
        message: "rate limited".into(),
        data: None,
    }
}

pub fn invalid() -> RpcError {
    RpcError {
        code: -32602,
        message: "invalid params".into(),
        data: None,
    }
}
