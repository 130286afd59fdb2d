//@ dep: serde_json = "1"
// A hand-rolled stdio server that tests strings with `if let` patterns: the method with
// `if let Some("tools/call") = ..`, the tool's name with `if let "lookup" = ..`. A tool's
// failure answered with a JSON-RPC error object is reported.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn lookup(args: &Value) -> Result<String, String> {
    let key = args["key"].as_str().ok_or("key is missing")?;
    std::env::var(key).map_err(|e| format!("{key}: {e}"))
}

fn run(id: &Value, params: &Value) -> Value {
    let wanted = params["name"].as_str().unwrap_or_default();
    if let "lookup" = wanted {
        match lookup(&params["arguments"]) {
            Ok(value) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": value }] } }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
        }
    } else {
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } })
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let response = if let Some("tools/call") = request["method"].as_str() {
            run(&request["id"], &request["params"])
        } else {
            json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} })
        };
        let _ = writeln!(stdout, "{response}");
    }
}
