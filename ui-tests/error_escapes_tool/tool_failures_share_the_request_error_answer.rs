//@ dep: serde_json = "1"
// One fn selects the tool, runs it and answers: the tool's `Result` and the fn's own failures
// (no name, a name no tool has) meet in one `Err`, which one JSON-RPC error object answers.
// That object is right for the request's own failures and must stay; the place to change is
// where a tool's failure joins them: each call that runs a tool. A handler whose only `Err`
// is a tool's is reported where its error object is built (see `method_guard_dispatch`).
use std::io::BufRead;

use serde_json::{Value, json};

fn word_count(args: &Value) -> Result<Value, String> {
    let text = args.get("text").and_then(Value::as_str).ok_or("`text` is required")?;
    Ok(json!(text.split_whitespace().count()))
}

fn env_var(args: &Value) -> Result<Value, String> {
    let key = args.get("key").and_then(Value::as_str).unwrap_or("HOME");
    std::env::var(key).map(Value::from).map_err(|e| format!("{key}: {e}"))
}

fn respond(request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let params = &request["params"];
    let outcome = match params.get("name").and_then(Value::as_str) {
        None => Err("tools/call needs a tool name".to_string()),
        Some("word_count") => word_count(&params["arguments"]),
        Some("env_var") => env_var(&params["arguments"]),
        Some(other) => Err(format!("no tool called {other}")),
    };
    match outcome {
        Ok(value) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": value.to_string() }] } }),
        Err(reason) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": reason } }),
    }
}

fn main() {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        if request["method"] == "tools/call" {
            println!("{}", respond(&request));
        }
    }
}
