//@ dep: serde_json = "1"
// -32002 is the code MCP defined for a resource that does not exist. A server that answers
// `resources/read` in the branch that matched the method, without a fn of its own, uses the
// code for its meaning there; the same code written for a failed tool call is not. The
// `tools/call` answer runs no tool and rejects no argument: a constant's name (`MISSING`) is
// not the message the client reads.
use serde_json::{Value, json};

const MISSING: i64 = -32002;

fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    let method = request["method"].as_str().unwrap_or_default();
    if method == "resources/read" {
        let uri = request["params"]["uri"].as_str().unwrap_or_default();
        return match std::fs::read_to_string(uri) {
            Ok(text) => json!({"jsonrpc": "2.0", "id": id, "result": {"contents": [{"uri": uri, "text": text}]}}),
            Err(_) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": MISSING, "message": "no such resource"}}),
        };
    }
    if method == "tools/call" {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": MISSING, "message": "tool unavailable"}});
    }
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "unknown method"}})
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", answer(&request));
        }
    }
}
