//@ dep: serde_json = "1"
// A server that reads its requests itself answers the request handler's result in its own
// loop: what that code calls runs for the request, as the handler does. A panic there (an
// error message cut at a byte offset, in the conversion of the handler's `Err`) leaves the
// `tools/call` unanswered; code the loop runs before it calls the handler is no answer.
use std::io::BufRead;

use serde_json::{Value, json};

#[derive(Debug)]
enum Failure {
    NoSuchTool(String),
    Tool(String),
}

struct ErrorBody {
    code: i64,
    message: String,
}

impl From<Failure> for ErrorBody {
    fn from(failure: Failure) -> Self {
        let (code, message) = match failure {
            Failure::NoSuchTool(name) => (-32601, format!("no tool {name}")),
            Failure::Tool(text) => (-32603, text),
        };
        let message = if message.len() > 300 { message[..280].to_string() } else { message };
        ErrorBody { code, message }
    }
}

fn trace(line: &str) {
    eprintln!("request: {}", &line[..line.len().min(64)]);
}

fn shout(args: &Value) -> Result<Value, Failure> {
    let text = args["text"].as_str().ok_or_else(|| Failure::Tool("text missing".into()))?;
    Ok(json!({ "content": [{ "type": "text", "text": text.to_uppercase() }] }))
}

fn call(params: &Value) -> Result<Value, Failure> {
    match params["name"].as_str().unwrap_or_default() {
        "shout" => shout(&params["arguments"]),
        other => Err(Failure::NoSuchTool(other.to_string())),
    }
}

fn handle(request: &Value) -> Result<Value, Failure> {
    match request["method"].as_str() {
        Some("tools/call") => call(&request["params"]),
        Some("tools/list") => Ok(json!({ "tools": [] })),
        _ => Ok(json!({})),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        trace(&line);
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let answer = match handle(&request) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }),
            Err(failure) => {
                let body = ErrorBody::from(failure);
                let error = json!({ "code": body.code, "message": body.message });
                json!({ "jsonrpc": "2.0", "id": request["id"], "error": error })
            }
        };
        println!("{answer}");
    }
}
