//@ dep: serde_json = "1"
// A hand-rolled server whose tools are structs in a vector, found by a search that compares
// each one's name with the requested name and run through the found struct's fn-pointer
// field: the search is the dispatch, and the arm that answers the tool's `Err` with a
// JSON-RPC error object is reported. A search by name whose result is only read (a
// description for a log line) runs nothing and dispatches nothing.
use std::io::BufRead;
use serde_json::{json, Value};

struct Tool {
    name: &'static str,
    handler: fn(&Value) -> Result<String, String>,
}

fn read(args: &Value) -> Result<String, String> {
    let path = args["path"].as_str().unwrap();
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

fn echo(args: &Value) -> Result<String, String> {
    Ok(args.to_string())
}

fn tools() -> Vec<Tool> {
    vec![Tool { name: "read", handler: read }, Tool { name: "echo", handler: echo }]
}

fn describe(tools: &[Tool], wanted: &str) -> &'static str {
    tools.iter().find(|t| t.name == wanted).map_or("unknown", |t| t.name)
}

fn call(tools: &[Tool], id: &Value, params: &Value) -> Value {
    let wanted = params["name"].as_str().unwrap_or_default();
    eprintln!("calling {}", describe(tools, wanted));
    let Some(tool) = tools.iter().find(|t| t.name == wanted) else {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "unknown tool"}});
    };
    match (tool.handler)(&params["arguments"]) {
        Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": e}}),
    }
}

fn main() {
    let tools = tools();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(req) = serde_json::from_str::<Value>(&line) else { continue };
        let resp = match req["method"].as_str() {
            Some("tools/call") => call(&tools, &req["id"], &req["params"]),
            _ => json!({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": "no"}}),
        };
        println!("{resp}");
    }
}
