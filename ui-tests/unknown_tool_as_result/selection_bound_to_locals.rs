//@ dep: serde_json = "1"
// A hand-rolled dispatcher that first takes its parameters apart into annotated locals
// (`let (tool, args): (&str, &Value) = ..`) and keeps the `match` on the name in a local it
// then returns (`let answer = match ..; answer`). Neither changes what the code does: the
// `match` still selects tools by the requested name, a tool's failure is answered with an
// `isError` result (not reported), and the catch-all answers an unknown tool with a
// successful tool result (reported).
use serde_json::{Value, json};

fn text(body: String) -> Value {
    json!({ "content": [{ "type": "text", "text": body }] })
}

fn failure(body: String) -> Value {
    json!({ "content": [{ "type": "text", "text": body }], "isError": true })
}

fn line_count(args: &Value) -> Result<usize, String> {
    let path = args["path"].as_str().ok_or("path must be a string")?;
    let body = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    Ok(body.lines().count())
}

fn dispatch(params: &Value) -> Value {
    let (tool, args): (&str, &Value) = (params["name"].as_str().unwrap_or(""), &params["arguments"]);
    let answer = match tool {
        "line_count" => match line_count(args) {
            Ok(n) => text(n.to_string()),
            Err(e) => failure(e),
        },
        "echo" => text(args.to_string()),
        _ => text(format!("no such tool: {tool}")),
    };
    answer
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("tools/call") => json!({ "jsonrpc": "2.0", "id": id, "result": dispatch(&request["params"]) }),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no method" } }),
        };
        println!("{reply}");
    }
}
