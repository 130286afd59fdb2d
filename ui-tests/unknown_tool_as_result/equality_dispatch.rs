//@ dep: serde_json = "1"
// A hand-rolled stdio server that compares strings without a `match`: the method through
// `PartialEq::eq` against a constant, the tool's name in an `if`/`else if` chain with `==`
// (a literal on either side, a constant). The last `else` answers a name no tool has, with a
// tool result (reported); a tool's failure goes back as a JSON-RPC error (reported).
use std::io::{BufRead, Write};

use serde_json::{Value, json};

const TOOLS_CALL: &str = "tools/call";
const READ: &str = "read";

fn error(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn text(id: &Value, body: String, is_error: bool) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": body }], "isError": is_error }
    })
}

fn call(id: &Value, params: &Value) -> Value {
    let tool_name = params["name"].as_str().unwrap_or_default();
    if tool_name == READ {
        match std::fs::read_to_string("notes.txt") {
            Ok(body) => text(id, body, false),
            Err(e) => error(id, -32603, e.to_string()),
        }
    } else if "size" == tool_name {
        text(id, "42".to_string(), false)
    } else {
        text(id, format!("unknown tool {tool_name}"), true)
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let method = request["method"].as_str().unwrap_or_default();
        let response = if method.eq(TOOLS_CALL) {
            call(&request["id"], &request["params"])
        } else {
            json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} })
        };
        let _ = writeln!(stdout, "{response}");
    }
}
