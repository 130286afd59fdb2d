//@ dep: serde_json = "1"
// A hand-rolled server answering an unknown tool name with a tool result: in the `None` arm of
// a registry lookup (reported), in the `else` of an `if let` through a helper that builds the
// result (reported).
use std::collections::HashMap;

use serde_json::{Value, json};

type Tool = fn(&Value) -> Result<String, String>;

fn tool_result(text: &str, is_error: bool) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": is_error })
}

fn respond(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn echo(args: &Value) -> Result<String, String> {
    Ok(args.to_string())
}

fn call_tool(tools: &HashMap<&str, Tool>, id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    let result = match tools.get(name) {
        Some(tool) => match tool(&params["arguments"]) {
            Ok(text) => tool_result(&text, false),
            Err(e) => tool_result(&e, true),
        },
        None => tool_result(&format!("unknown tool: {name}"), true),
    };
    respond(id, result)
}

fn call_tool_v2(tools: &HashMap<&str, Tool>, id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    if let Some(tool) = tools.get(name) {
        let result = match tool(&params["arguments"]) {
            Ok(text) => tool_result(&text, false),
            Err(e) => tool_result(&e, true),
        };
        respond(id, result)
    } else {
        let result = tool_result(&format!("no tool named {name}"), true);
        respond(id, result)
    }
}

fn main() {
    let mut tools: HashMap<&str, Tool> = HashMap::new();
    tools.insert("echo", echo);
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let id = &request["id"];
        let response = match request["method"].as_str() {
            Some("tools/call") if request["params"]["v"] == 2 => call_tool_v2(&tools, id, &request["params"]),
            Some("tools/call") => call_tool(&tools, id, &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
        };
        println!("{response}");
        line.clear();
    }
}
