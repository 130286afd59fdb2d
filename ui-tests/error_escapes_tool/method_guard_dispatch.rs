//@ dep: serde_json = "1"
// A request handler that leaves early when the method is not `tools/call`
// (`if method != "tools/call" { return .. }`): everything after the guard answers
// `tools/call` alone, as a `"tools/call" =>` arm would. Its tool failures answered with a
// JSON-RPC error object are reported where the object is built; the early answer to another
// method is no tool's.
use serde_json::{Value, json};
use std::io::BufRead;

fn upper(args: &Value) -> Result<String, String> {
    let text = args["text"].as_str().ok_or("text must be a string")?;
    Ok(text.to_uppercase())
}

fn size(args: &Value) -> Result<String, String> {
    let path = args["path"].as_str().ok_or("path must be a string")?;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    Ok(meta.len().to_string())
}

fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    if request["method"] != "tools/call" {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "only tools/call" } });
    }
    let args = &request["params"]["arguments"];
    let outcome = match request["params"]["name"].as_str() {
        Some("upper") => upper(args),
        Some("size") => size(args),
        _ => return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } }),
    };
    match outcome {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", handle(&request));
        }
    }
}
