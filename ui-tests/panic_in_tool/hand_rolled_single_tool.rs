//@ dep: serde_json = "1"
// A hand-rolled server of one tool whose fns have names of their own: the fn the `tools/call`
// arm hands the request to answers it, though it selects no tool by name, and its panic is
// reported; the fn with the method `match` answers requests. A builder of error objects that
// an arm returns answers no tool.
use std::io::BufRead;

use serde_json::{Value, json};

fn refusal(id: &Value, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": message } })
}

fn uppercase(id: &Value, params: &Value) -> Value {
    let text = params["arguments"]["text"].as_str().expect("text is required");
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": text.to_uppercase() }] }
    })
}

fn on_line(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => uppercase(id, &request["params"]),
        Some("ping") => json!({ "jsonrpc": "2.0", "id": id, "result": {} }),
        Some(other) => refusal(id, other),
        None => refusal(id, "no method"),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", on_line(&request));
        }
    }
}
