//@ dep: serde_json = "1"
// A hand-rolled tool that rejects a missing argument in the catch-all arm of a `match` on an
// `Option` (`Some(path) => path, _ => return error(..)`) rejects it as `let .. else` would:
// that `_` is the option's `None`, not a name no tool has, so the -32602 it answers with is
// argument validation (reported). The catch-all of the match on the tool's name answers an
// unknown tool, which -32602 is right for.
use serde_json::{Value, json};

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn call(id: &Value, params: &Value) -> Value {
    let args = &params["arguments"];
    match params["name"].as_str() {
        Some("head") => {
            let path = match args["path"].as_str() {
                Some(path) => path,
                _ => return error(id, -32602, "path is required"),
            };
            let text = std::fs::read_to_string(path).unwrap_or_default();
            let first = text.lines().next().unwrap_or_default();
            json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": first }] } })
        }
        _ => error(id, -32602, "unknown tool"),
    }
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let response = if request["method"] == "tools/call" {
            call(&id, &request["params"])
        } else {
            error(&id, -32601, "method not found")
        };
        println!("{response}");
    }
}
