//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// A hand-rolled server's error codes reach the response through a builder's parameter, a
// named constant and the project's own error struct: each code in the reserved range is
// reported where it is written, with the builder named. -32002 answering an unknown resource
// in a resource read is its defined meaning; the same code for a rate limit is not.
use serde::Serialize;
use serde_json::{Value, json};

const RATE_LIMITED: i64 = -32010;
const NOT_FOUND: i64 = -32002;
const APP_BUSY: i64 = 1503;

#[derive(Serialize)]
struct ToolError {
    code: i64,
    message: String,
}

fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn struct_response(id: &Value, error: ToolError) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

fn read_resource(id: &Value, uri: &str) -> Value {
    match std::fs::read_to_string(uri) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "contents": [{ "uri": uri, "text": text }] } }),
        Err(_) => error_response(id, NOT_FOUND, "resource not found"),
    }
}

fn handle(request: &Value, calls: &mut u32) -> Value {
    let id = &request["id"];
    *calls += 1;
    match request["method"].as_str() {
        Some("resources/read") => read_resource(id, request["params"]["uri"].as_str().unwrap_or("")),
        Some("tools/call") if *calls > 100 => error_response(id, RATE_LIMITED, "slow down"),
        Some("tools/call") if *calls > 50 => error_response(id, NOT_FOUND, "rate limited"),
        Some("tools/call") if *calls > 20 => error_response(id, APP_BUSY, "busy"),
        Some("tools/call") => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [] } }),
        _ => struct_response(id, ToolError { code: -32099, message: "no such method".into() }),
    }
}

fn main() {
    let mut calls = 0;
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        println!("{}", handle(&request, &mut calls));
        line.clear();
    }
}
