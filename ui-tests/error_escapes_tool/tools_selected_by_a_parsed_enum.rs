//@ dep: serde_json = "1"
// A hand-rolled server that turns the tool's name into an enum of its own through `FromStr`
// and `match`es on that: each variant's arm selects a tool, as a string arm would. The
// dispatcher forwards a tool's `Err` as its own, and the request loop answers every `Err`
// of it with one JSON-RPC error object, which is right for a name no tool has (the failed
// parse) and wrong for a tool that ran and failed: the arms that forward are the sites.
use std::io::BufRead;
use std::str::FromStr;

use serde_json::{Value, json};

enum Tool {
    Upper,
    Count,
}

impl FromStr for Tool {
    type Err = String;
    fn from_str(text: &str) -> Result<Tool, String> {
        match text {
            "upper" => Ok(Tool::Upper),
            "count" => Ok(Tool::Count),
            unknown => Err(format!("no tool named {unknown}")),
        }
    }
}

fn upper(args: &Value) -> Result<Value, String> {
    let text = args["text"].as_str().ok_or("text must be a string")?;
    Ok(json!(text.to_uppercase()))
}

fn count(args: &Value) -> Result<Value, String> {
    let path = args["file"].as_str().unwrap_or(".");
    let entries = std::fs::read_dir(path).map_err(|e| format!("cannot list {path}: {e}"))?;
    Ok(json!(entries.count()))
}

fn call(params: &Value) -> Result<Value, String> {
    let args = &params["arguments"];
    match params["name"].as_str().unwrap_or_default().parse::<Tool>() {
        Ok(Tool::Upper) => upper(args),
        Ok(Tool::Count) => count(args),
        Err(no_such_tool) => Err(no_such_tool),
    }
}

fn reply(request: &Value) -> Value {
    let id = &request["id"];
    if request["method"] != "tools/call" {
        return json!({ "jsonrpc": "2.0", "id": id, "result": {} });
    }
    match call(&request["params"]) {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
        Err(message) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": message } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", reply(&request));
        }
    }
}
