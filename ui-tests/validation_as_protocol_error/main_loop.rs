//@ dep: serde_json = "1"
// A hand-rolled stdio server whose request loop and tools/call dispatch are written inside
// `main`. A missing argument and a failed read are answered with JSON-RPC errors (reported);
// the banner printed before the loop lands on stdout, the JSON-RPC channel (reported); the
// responses themselves and a bare `println!()` are not output of that kind.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn main() {
    println!("notes server v1 ready");
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let request: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(_) => {
                let e = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": "parse error" } });
                let _ = writeln!(out, "{e}");
                continue;
            }
        };
        let id = request["id"].clone();
        let response = if request["method"] == "tools/call" {
            let args = &request["params"]["arguments"];
            match request["params"]["name"].as_str() {
                Some("read_note") => match args["path"].as_str() {
                    None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "path is required" } }),
                    Some(path) => match std::fs::read_to_string(path) {
                        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
                        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e.to_string() } }),
                    },
                },
                _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } }),
            }
        } else {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } })
        };
        let _ = writeln!(out, "{response}");
        println!();
    }
}
