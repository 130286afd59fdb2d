//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// A hand-rolled server whose tool result is its own struct, called nothing like the spec's
// `CallToolResult`: what makes it a tool result is what it serialises to, `content` beside
// `isError`. Its catch-all answers a name no tool has with such a result, flagged or not
// (reported), where the spec asks for a JSON-RPC error.
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Serialize)]
struct Block {
    r#type: &'static str,
    text: String,
}

#[derive(Serialize)]
struct Reply {
    content: Vec<Block>,
    #[serde(rename = "isError")]
    is_error: bool,
}

fn said(text: String, is_error: bool) -> Reply {
    Reply {
        content: vec![Block { r#type: "text", text }],
        is_error,
    }
}

fn run(name: &str, args: &Value) -> Reply {
    match name {
        "shout" => said(args["text"].as_str().unwrap_or_default().to_uppercase(), false),
        "whisper" => said(args["text"].as_str().unwrap_or_default().to_lowercase(), false),
        _ => Reply {
            content: vec![Block { r#type: "text", text: format!("unknown tool {name}") }],
            is_error: true,
        },
    }
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("tools/call") => {
                let params = &request["params"];
                let result = run(params["name"].as_str().unwrap_or_default(), &params["arguments"]);
                json!({ "jsonrpc": "2.0", "id": id, "result": result })
            }
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no method" } }),
        };
        println!("{reply}");
    }
}
