//@ dep: serde_json = "1"
// The catch-all arm of the selection by name makes an `Err` like the tools' own, and the code
// that answers `tools/call` turns every `Err` into an `isError` result. That answer must stay
// a result for the tools' failures, so the place to change is the catch-all arm: it is
// reported there (once), with the shared answer as the secondary place, whatever its
// message says.
use std::io::BufRead;

use serde_json::{Value, json};

#[derive(Debug)]
enum Problem {
    Input(String),
    Io(std::io::Error),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Input(why) => write!(f, "{why}"),
            Problem::Io(e) => write!(f, "{e}"),
        }
    }
}

fn line_count(args: &Value) -> Result<Value, Problem> {
    let path = args["path"].as_str().ok_or_else(|| Problem::Input("path is required".into()))?;
    let text = std::fs::read_to_string(path).map_err(Problem::Io)?;
    Ok(json!({ "content": [{ "type": "text", "text": text.lines().count().to_string() }] }))
}

fn select(name: &str, args: &Value) -> Result<Value, Problem> {
    match name {
        "line_count" => line_count(args),
        "version" => Ok(json!({ "content": [{ "type": "text", "text": "1.0" }] })),
        other => Err(Problem::Input(format!("{other}?"))),
    }
}

fn answer_call(params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match select(name, &params["arguments"]) {
        Ok(result) => result,
        Err(problem) => {
            let text = problem.to_string();
            json!({ "content": [{ "type": "text", "text": text }], "isError": true })
        }
    }
}

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("tools/call") => json!({ "jsonrpc": "2.0", "id": id, "result": answer_call(&request["params"]) }),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no such method" } }),
        };
        println!("{reply}");
    }
}
