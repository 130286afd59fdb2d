//@ dep: serde_json = "1"
// A hand-rolled server's tools/call dispatcher: an execution failure answered with a JSON-RPC
// error object (reported), invalid arguments answered the same way (validation), and the
// malformed-request and unknown-tool answers (spec-mandated, not reported).
use serde_json::{Value, json};

struct McpResponse;

impl McpResponse {
    fn error(id: Value, code: i64, message: String) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
    }
    fn success(id: Value, result: Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "result": result })
    }
}

fn handle_tools_call(id: Value, params: &Value) -> Value {
    // The request's `params` fail the CallToolRequest schema: a protocol error by spec.
    if !params.is_object() {
        return McpResponse::error(id, -32602, "Invalid parameters".into());
    }
    let Some(path) = params["arguments"]["path"].as_str() else {
        return McpResponse::error(id, -32602, "missing argument: path".into());
    };
    match params["name"].as_str() {
        Some("read") => match std::fs::read_to_string(path) {
            Ok(text) => McpResponse::success(id, json!({ "content": [{ "type": "text", "text": text }] })),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e.to_string() } }),
        },
        _ => McpResponse::error(id, -32602, "unknown tool".into()),
    }
}

fn main() {
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        if request["method"] == "tools/call" {
            println!("{}", handle_tools_call(request["id"].clone(), &request["params"]));
        }
        line.clear();
    }
}
