//@ dep: serde_json = "1"
// The answer to a name no tool has is whatever leaves the catch-all arm of the selection by
// name: a value it returns early (`_ => return Ok(reply(..))`) as much as its tail, and an
// `Err` it makes, followed to the code that answers it. Here `pick` answers an unknown name
// with an `isError` result built by a helper (reported), and `route`'s catch-all `Err` becomes
// an `isError` result where `call` answers every `Err` of `route` (reported there), whatever
// the error's message says.
use serde_json::{Value, json};
use std::io::BufRead;

fn refused(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": true })
}

fn shown(text: String) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

fn pick(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "size" => Ok(shown(args.to_string().len().to_string())),
        _ => return Ok(refused("nothing by that name")),
    }
}

fn route(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "echo" => Ok(shown(args.to_string())),
        other => Err(format!("{other}: not here")),
    }
}

fn call(params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    let args = &params["arguments"];
    if name.starts_with("v2.") {
        return pick(&name[3..], args).unwrap_or_else(|e| refused(&e));
    }
    match route(name, args) {
        Ok(v) => v,
        Err(e) => refused(&e),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("tools/call") => json!({ "jsonrpc": "2.0", "id": id, "result": call(&request["params"]) }),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no such method" } }),
        };
        println!("{reply}");
    }
}
