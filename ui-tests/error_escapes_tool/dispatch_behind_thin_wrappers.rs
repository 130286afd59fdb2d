//@ dep: serde_json = "1"
// A hand-rolled server whose `tools/call` arm reaches the `match` on the tool's name through
// several fns that only hand their parameters on: each is the fn it calls, however many there
// are, so the `match` still selects tools and a tool's failure answered with the request's
// error object is reported where it enters it.
use serde_json::{Value, json};

fn rpc_error(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn word_count(args: &Value) -> Result<Value, String> {
    let path = args["path"].as_str().ok_or("path must be a string")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(json!({ "content": [{ "type": "text", "text": text.split_whitespace().count().to_string() }] }))
}

fn select(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "word_count" => word_count(args),
        "now" => Ok(json!({ "content": [{ "type": "text", "text": "12:00" }] })),
        other => Err(format!("unknown tool {other}")),
    }
}

fn checked(name: &str, args: &Value) -> Result<Value, String> {
    select(name, args)
}

fn logged(name: &str, args: &Value) -> Result<Value, String> {
    eprintln!("calling {name}");
    checked(name, args)
}

fn timed(name: &str, args: &Value) -> Result<Value, String> {
    logged(name, args)
}

fn guarded(name: &str, args: &Value) -> Result<Value, String> {
    timed(name, args)
}

fn call_tool(id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match guarded(name, &params["arguments"]) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(message) => rpc_error(id, -32603, message),
    }
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let id = &request["id"];
        let response = match request["method"].as_str() {
            Some("tools/call") => call_tool(id, &request["params"]),
            _ => rpc_error(id, -32601, "method not found".to_string()),
        };
        println!("{response}");
    }
}
