//@ dep: serde_json = "1"
// A hand-rolled server whose tool result type (`ToolResult`) builds itself with `Self { .. }` in its own
// constructors: the fallback arm's `ToolResult::failed(..)` is a tool result all the same, so
// an unknown name answered with it is reported.
use serde_json::{Value, json};

pub struct ToolResult {
    pub text: String,
    pub is_error: bool,
}

impl ToolResult {
    pub fn ok(text: String) -> Self {
        Self {
            text,
            is_error: false,
        }
    }

    pub fn failed(text: String) -> Self {
        Self {
            text,
            is_error: true,
        }
    }
}

fn call_tool(name: &str, args: &Value) -> ToolResult {
    match name {
        "echo" => ToolResult::ok(args.to_string()),
        _ => ToolResult::failed(format!("no tool named {name}")),
    }
}

fn main() {
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        if request["method"] == "tools/call" {
            let params = &request["params"];
            let out = call_tool(params["name"].as_str().unwrap_or_default(), &params["arguments"]);
            let result = json!({ "content": [{ "type": "text", "text": out.text }], "isError": out.is_error });
            println!("{}", json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }));
        }
        line.clear();
    }
}
