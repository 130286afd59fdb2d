//@ dep: serde_json = "1"
// A hand-rolled stdio server whose tools are fn pointers in a map filled by `insert` (the
// metamorphic check builds the same map from an array, by `collect`, and with casts). The
// dispatcher answers every tool's `Err` with a JSON-RPC error object: reported once, where it
// builds it; an unknown tool is a protocol error.
use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde_json::{Value, json};

type ToolFn = fn(&Value) -> Result<String, String>;

fn read_file(args: &Value) -> Result<String, String> {
    let path = args["path"].as_str().ok_or("path is required")?;
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

fn word_count(args: &Value) -> Result<String, String> {
    let text = args["text"].as_str().ok_or("text is required")?;
    Ok(text.split_whitespace().count().to_string())
}

fn registry() -> HashMap<&'static str, ToolFn> {
    let mut tools: HashMap<&'static str, ToolFn> = HashMap::new();
    tools.insert("read_file", read_file);
    tools.insert("word_count", word_count);
    tools
}

fn call(tools: &HashMap<&'static str, ToolFn>, id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    let Some(tool) = tools.get(name) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("unknown tool {name}") } });
    };
    match tool(&params["arguments"]) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
    }
}

fn main() {
    let tools = registry();
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let answer = match request["method"].as_str() {
            Some("tools/call") => call(&tools, &request["id"], &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": request["id"], "error": { "code": -32601, "message": "method not found" } }),
        };
        let mut out = stdout.lock();
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}
