//@ dep: serde_json = "1"
// A hand-rolled stdio server whose dispatcher answers a failed tool without looking at the
// error: `let Ok(..) = run(..) else { return error_object }`. The object is built in the
// branch that runs when a tool failed, so it is where the tools' failures become JSON-RPC
// errors: reported once, there. The tools' own `?` are not sites.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn rpc_error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn run(tool: &str, args: &Value) -> Result<String, std::io::Error> {
    match tool {
        "read" => {
            let path = args["path"].as_str().unwrap_or("notes.txt");
            std::fs::read_to_string(path)
        }
        "list" => {
            let names: Vec<String> = std::fs::read_dir(".")?
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            Ok(names.join("\n"))
        }
        other => Err(std::io::Error::other(format!("no tool {other}"))),
    }
}

fn call(id: &Value, params: &Value) -> Value {
    let tool = params["name"].as_str().unwrap_or_default();
    let Ok(text) = run(tool, &params["arguments"]) else {
        return rpc_error(id, -32603, "the tool failed");
    };
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let response = match request["method"].as_str() {
            Some("tools/call") => call(&request["id"], &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} }),
        };
        let _ = writeln!(stdout, "{response}");
    }
}
