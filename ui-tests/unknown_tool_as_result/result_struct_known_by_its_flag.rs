//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// A hand-rolled server's own tool result is known by the flag it sends as `isError`, not by
// its name: `Reply { lines, is_error }` built for a name no tool has is a tool result, so the
// unknown tool is answered as one (reported). The error object the server builds for an
// unknown method (`Fault { code, message }`) is a protocol error, known by its fields.
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Serialize)]
pub struct Reply {
    pub lines: Vec<String>,
    pub is_error: bool,
}

#[derive(Serialize)]
pub struct Fault {
    pub code: i64,
    pub message: String,
}

fn run_tool(name: &str, args: &Value) -> Reply {
    match name {
        "count" => Reply {
            lines: vec![args.to_string().len().to_string()],
            is_error: false,
        },
        other => Reply {
            lines: vec![format!("there is no tool {other}")],
            is_error: true,
        },
    }
}

fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    if request["method"] != "tools/call" {
        let fault = Fault {
            code: -32601,
            message: "method not found".into(),
        };
        return json!({ "jsonrpc": "2.0", "id": id, "error": fault });
    }
    let params = &request["params"];
    let reply = run_tool(params["name"].as_str().unwrap_or_default(), &params["arguments"]);
    let text = reply.lines.join("\n");
    json!({ "jsonrpc": "2.0", "id": id, "result": {
        "content": [{ "type": "text", "text": text }],
        "isError": reply.is_error
    }})
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", answer(&request));
        }
    }
}
