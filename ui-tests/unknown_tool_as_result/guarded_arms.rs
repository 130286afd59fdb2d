//@ dep: serde_json = "1"
// A hand-rolled dispatcher whose name `match` sends families of tools to helpers through
// guarded arms (`name if ..`): those arms run tools, they are not the fallback; only `_`
// answers a name no tool has (here correctly, with -32602).
use serde_json::{Value, json};

fn text_result(text: String) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

fn is_math(name: &str) -> bool {
    name.starts_with("math_")
}

fn math_tool(name: &str, args: &Value) -> Value {
    let a = args["a"].as_i64().unwrap_or(0);
    let b = args["b"].as_i64().unwrap_or(0);
    let total = match name {
        "math_add" => a.saturating_add(b),
        "math_sub" => a.saturating_sub(b),
        "math_mul" => a.saturating_mul(b),
        _ => a,
    };
    let shown = format!("{name}: {total}");
    let padded = format!("{shown:>12}");
    text_result(padded)
}

fn call_tool(id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match name {
        "echo" => json!({ "jsonrpc": "2.0", "id": id, "result": text_result(params["arguments"].to_string()) }),
        tool_name if is_math(tool_name) => {
            json!({ "jsonrpc": "2.0", "id": id, "result": math_tool(tool_name, &params["arguments"]) })
        }
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("unknown tool: {name}") } }),
    }
}

fn main() {
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let id = &request["id"];
        let response = match request["method"].as_str() {
            Some("tools/call") => call_tool(id, &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
        };
        println!("{response}");
        line.clear();
    }
}
