//@ dep: serde_json = "1"
// A hand-rolled server writing JSON-RPC error objects itself; a code inside a tool result's
// own data is not a JSON-RPC code.
use serde_json::{Value, json};

fn handle_request(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("tools/call") => json!({
            "jsonrpc": "2.0",
            "id": request["id"],
            "result": { "content": [], "structuredContent": { "error_code": -32001 } }
        }),
        Some("ping") => json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} }),
        _ => json!({
            "jsonrpc": "2.0",
            "id": request["id"],
            "error": { "code": -32050, "message": "no such method" }
        }),
    }
}

fn main() {
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        println!("{}", handle_request(&request));
        line.clear();
    }
}
