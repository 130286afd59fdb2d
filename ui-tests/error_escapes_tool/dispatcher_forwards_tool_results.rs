//@ dep: serde_json = "1"
// A hand-rolled server whose dispatcher hands each tool's result on as its own `Result`, and
// whose request loop answers every `Err` of the dispatcher with one JSON-RPC error object.
// That object is the right answer for the dispatcher's own failures (no tool name, an
// unknown tool), so the place to change is where a tool's failure becomes the dispatcher's:
// the arm that is the dispatcher's value (`"area" => area(args)`) and the `?` on a tool's
// call. The tools' own `?` and `Err(..)` are ordinary Rust and are not reported.
use serde_json::{Value, json};
use std::io::BufRead;

fn area(args: &Value) -> Result<Value, String> {
    let w = args["w"].as_f64().ok_or("w must be a number")?;
    let h = args["h"].as_f64().ok_or("h must be a number")?;
    Ok(json!(w * h))
}

fn load(args: &Value) -> Result<String, String> {
    let path = args["path"].as_str().unwrap_or_default();
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

fn call_tool(params: &Value) -> Result<Value, String> {
    let tool = params["name"].as_str().ok_or("tools/call without a name")?;
    let args = &params["arguments"];
    match tool {
        "area" => area(args),
        "load" => Ok(json!(load(args)?)),
        other => Err(format!("unknown tool {other}")),
    }
}

fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => match call_tool(&request["params"]) {
            Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
        },
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            let reply = answer(&request);
            println!("{reply}");
        }
    }
}
