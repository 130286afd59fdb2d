//@ dep: serde_json = "1"
// A hand-rolled server whose tools are fn pointers in a map built from an array of
// (name, handler) pairs, each handler cast to the registry's pointer type. The dispatcher
// answers a tool's `Err` with a JSON-RPC error object: each stored fn is a tool, and the
// answer is reported where the dispatcher builds it.
use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde_json::{Value, json};

type Handler = fn(&Value) -> Result<String, String>;

fn env_var(args: &Value) -> Result<String, String> {
    let key = args["key"].as_str().ok_or("key is missing")?;
    std::env::var(key).map_err(|e| format!("{key}: {e}"))
}

fn cwd(_args: &Value) -> Result<String, String> {
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    Ok(dir.display().to_string())
}

fn answer(tools: &HashMap<&str, Handler>, id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    let Some(tool) = tools.get(name) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } });
    };
    match tool(&params["arguments"]) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(message) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": message } }),
    }
}

fn main() {
    let tools: HashMap<&str, Handler> = HashMap::from([
        ("env_var", env_var as Handler),
        ("cwd", cwd as Handler),
    ]);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let response = match request["method"].as_str() {
            Some("tools/call") => answer(&tools, &request["id"], &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} }),
        };
        let _ = writeln!(stdout, "{response}");
    }
}
