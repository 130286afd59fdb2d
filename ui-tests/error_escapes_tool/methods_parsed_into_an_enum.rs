//@ dep: serde_json = "1"
// A hand-rolled server that parses the JSON-RPC method into an enum of its own and matches on
// that: the arm of the variant its parse gives `"tools/call"` answers `tools/call`, as a
// string arm would, and a tool's failure it answers with a JSON-RPC error object is reported.
// The catch-all variant of a parse of another string is that string's `_`: an
// `unreachable!` there after the string was checked is no panic a request can reach.
use std::io::BufRead;

use serde_json::{Value, json};

#[derive(Clone, Copy)]
enum Method {
    Initialize,
    ListTools,
    CallTool,
    Unsupported,
}

impl Method {
    fn parse(text: &str) -> Method {
        match text {
            "initialize" => Method::Initialize,
            "tools/list" => Method::ListTools,
            "tools/call" => Method::CallTool,
            _ => Method::Unsupported,
        }
    }
}

enum Unit {
    Bytes,
    Lines,
    Unknown,
}

fn unit(text: &str) -> Unit {
    match text {
        "bytes" => Unit::Bytes,
        "lines" => Unit::Lines,
        _ => Unit::Unknown,
    }
}

fn measure(args: &Value) -> Result<Value, String> {
    let path = args["path"].as_str().ok_or("`path` must be a string")?;
    let requested = args["unit"].as_str().unwrap_or("bytes");
    if !matches!(requested, "bytes" | "lines") {
        return Err(format!("unknown unit {requested}"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let size = match unit(requested) {
        Unit::Bytes => text.len(),
        Unit::Lines => text.lines().count(),
        Unit::Unknown => unreachable!("the unit was checked above"),
    };
    Ok(json!(size))
}

fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    let method = request["method"].as_str().unwrap_or_default();
    match Method::parse(method) {
        Method::Initialize => json!({ "jsonrpc": "2.0", "id": id, "result": { "capabilities": { "tools": {} } } }),
        Method::ListTools => json!({ "jsonrpc": "2.0", "id": id, "result": { "tools": [{ "name": "measure" }] } }),
        Method::CallTool => match measure(&request["params"]["arguments"]) {
            Ok(size) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": size.to_string() }] } }),
            Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
        },
        Method::Unsupported => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "unsupported" } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", answer(&request));
        }
    }
}
