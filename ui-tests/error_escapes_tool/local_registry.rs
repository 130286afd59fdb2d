//@ dep: serde_json = "1"
// A hand-rolled server that builds its registry of fn pointers in the dispatcher on each call
// and looks the requested tool up in it: the arm that answers the found tool's `Err` with a
// JSON-RPC error object is reported, and the unknown name's -32602 is the spec's answer.
use std::collections::HashMap;
use std::io::BufRead;

use serde_json::{Value, json};

fn size(args: &Value) -> Result<String, String> {
    let path = args["path"].as_str().ok_or("path is required")?;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    Ok(meta.len().to_string())
}

fn ping(_args: &Value) -> Result<String, String> {
    Ok("pong".to_string())
}

fn answer(id: &Value, params: &Value) -> Value {
    let mut tools: HashMap<&'static str, fn(&Value) -> Result<String, String>> = HashMap::new();
    tools.insert("size", size);
    tools.insert("ping", ping);
    let requested = params["name"].as_str().unwrap_or_default();
    match tools.get(requested) {
        Some(tool) => match tool(&params["arguments"]) {
            Ok(text) => json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": { "content": [{ "type": "text", "text": text }] }
            }),
            Err(message) => json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": { "code": -32603, "message": message }
            }),
        },
        None => json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": -32602, "message": format!("unknown tool {requested}") }
        }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let reply = match request["method"].as_str() {
            Some("tools/call") => answer(&request["id"], &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": request["id"], "error": { "code": -32601, "message": "method not found" } }),
        };
        println!("{reply}");
    }
}
