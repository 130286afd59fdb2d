//@ dep: serde_json = "1"
// Tools written by a `macro_rules!` of the crate: `scaled_tool!(double, 2);` where an item
// goes is the fn it expands to, so both tools exist and the `unwrap` in the macro's body is
// a panic in each of them (one finding, at the macro's code).
use serde_json::{Value, json};
use std::io::BufRead;

macro_rules! scaled_tool {
    ($name:ident, $factor:expr) => {
        fn $name(args: &Value) -> Value {
            let n = args["n"].as_i64().unwrap();
            json!({ "content": [{ "type": "text", "text": (n * $factor).to_string() }] })
        }
    };
}

scaled_tool!(double, 2);
scaled_tool!(triple, 3);

fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => {
            let args = &request["params"]["arguments"];
            let result = match request["params"]["name"].as_str() {
                Some("double") => double(args),
                Some("triple") => triple(args),
                _ => return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } }),
            };
            json!({ "jsonrpc": "2.0", "id": id, "result": result })
        }
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no such method" } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", answer(&request));
        }
    }
}
