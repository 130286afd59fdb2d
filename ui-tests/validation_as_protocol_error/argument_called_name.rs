//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// A hand-rolled stdio server with a tool whose argument is called `name`. The tool's failures
// (its missing 'name' argument included) reach the caller's JSON-RPC error object, which
// answers every failure alike: reported once there, as error_escapes_tool. Before the
// dispatch, a request without a tool name is a malformed request, and a JSON-RPC error is the
// right answer (not reported).
use std::io::{BufRead, Write};

use anyhow::anyhow;
use serde_json::{Value, json};

fn execute_tool(tool: &str, args: &Value) -> anyhow::Result<String> {
    match tool {
        "create_note" => {
            let name = args
                .get("name")
                .and_then(|v| v.as_str())
                .ok_or_else(|| anyhow!("Missing 'name' parameter"))?;
            std::fs::write(name, "")?;
            Ok(format!("created {name}"))
        }
        other => Err(anyhow!("unknown tool {other}")),
    }
}

fn handle_tools_call(id: Value, params: &Value) -> Value {
    let Some(tool) = params.get("name").and_then(|n| n.as_str()) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "Missing 'name' in params" } });
    };
    match execute_tool(tool, &params["arguments"]) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e.to_string() } }),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = request["id"].clone();
        let response = if request["method"] == "tools/call" {
            handle_tools_call(id, &request["params"])
        } else {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } })
        };
        let _ = writeln!(out, "{response}");
    }
}
