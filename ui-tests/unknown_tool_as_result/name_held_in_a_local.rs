//@ dep: serde_json = "1"
// A hand-rolled stdio server that reads the requested tool's name into locals whose names say
// nothing about it (`requested`, then `which`): the catch-all arm of the match on it still
// answers a name no tool has, and it does so with a tool result (reported).
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn reply(id: &Value, text: String, is_error: bool) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": text }], "isError": is_error }
    })
}

fn answer(request: &Value) -> Value {
    let id = &request["id"];
    let requested = request["params"]["name"].as_str().unwrap_or_default();
    let which = requested.trim();
    match which {
        "clock" => reply(id, "12:00".to_string(), false),
        "uptime" => reply(id, "3 days".to_string(), false),
        other => reply(id, format!("no tool {other}"), true),
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
        let response = if request["method"] == "tools/call" {
            answer(&request)
        } else {
            json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} })
        };
        let _ = writeln!(stdout, "{response}");
    }
}
