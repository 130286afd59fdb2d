//@ dep: serde_json = "1"
// A hand-rolled stdio server that reads the tool's name once and hands it on: `run` gets it
// in a parameter called `requested`, `describe` in one called `key`, found by a search of a
// table (`find(|t| t.id == key)`). A parameter is the tool's name because a caller passes the
// name to it, whatever it is called: `run`'s catch-all answers an unknown tool with a tool
// result (reported), and its arm's failure goes back as a JSON-RPC error (reported).
use std::io::BufRead;

use serde_json::{Value, json};

struct Entry {
    id: &'static str,
    summary: &'static str,
}

const TABLE: [Entry; 2] = [
    Entry { id: "read", summary: "reads notes.txt" },
    Entry { id: "size", summary: "counts bytes" },
];

fn reply(id: &Value, text: String, is_error: bool) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": text }], "isError": is_error }
    })
}

fn failure(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn describe(key: &str) -> Option<&'static str> {
    TABLE.iter().find(|t| t.id == key).map(|t| t.summary)
}

fn run(id: &Value, requested: &str) -> Value {
    match requested {
        "read" => match std::fs::read_to_string("notes.txt") {
            Ok(body) => reply(id, body, false),
            Err(e) => failure(id, -32603, e.to_string()),
        },
        "size" => reply(id, "42".to_string(), false),
        other => reply(id, format!("no tool called {other}"), true),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = &request["id"];
        let response = match request["method"].as_str() {
            Some("tools/call") => {
                let Some(wanted) = request["params"]["name"].as_str() else {
                    println!("{}", failure(id, -32602, "params.name is required".into()));
                    continue;
                };
                if describe(wanted).is_none() {
                    eprintln!("unlisted tool {wanted}");
                }
                run(id, wanted)
            }
            _ => failure(id, -32601, "method not found".into()),
        };
        println!("{response}");
    }
}
