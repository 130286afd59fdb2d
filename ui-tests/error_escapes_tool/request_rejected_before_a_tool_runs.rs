//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// A dispatcher whose `Err` the server answers with a JSON-RPC error: before it selects a tool
// it rejects the request itself (the server is not ready, no tool name): no tool ran, so a
// JSON-RPC error is the right answer. A tool's failure handed on from the arm that runs it
// is reported, once, where it enters the dispatcher's answer.
use std::io::BufRead;

use serde::Serialize;
use serde_json::{Value, json};

#[derive(Serialize)]
pub struct Problem {
    pub code: i32,
    pub message: String,
}

#[derive(Serialize)]
pub struct Envelope {
    pub jsonrpc: &'static str,
    pub id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
}

fn divide(args: &Value) -> Result<Value, Problem> {
    let a = args["a"].as_f64().unwrap_or(0.0);
    let b = args["b"].as_f64().unwrap_or(0.0);
    if b == 0.0 {
        return Err(Problem { code: -31000, message: "division by zero".into() });
    }
    Ok(json!({ "content": [{ "type": "text", "text": (a / b).to_string() }] }))
}

struct Server {
    ready: bool,
}

impl Server {
    fn call_tool(&self, params: &Value) -> Result<Value, Problem> {
        if !self.ready {
            return Err(Problem { code: -31002, message: "server not ready".into() });
        }
        let name = params["name"]
            .as_str()
            .ok_or_else(|| Problem { code: -32600, message: "no tool name".into() })?;
        match name {
            "divide" => divide(&params["arguments"]),
            other => Err(Problem { code: -32602, message: format!("unknown tool {other}") }),
        }
    }

    fn respond(&self, request: &Value) -> Envelope {
        let id = request["id"].clone();
        let outcome = if request["method"] == "tools/call" {
            self.call_tool(&request["params"])
        } else {
            Err(Problem { code: -32601, message: "method not found".into() })
        };
        match outcome {
            Ok(result) => Envelope { jsonrpc: "2.0", id, result: Some(result), error: None },
            Err(problem) => Envelope { jsonrpc: "2.0", id, result: None, error: Some(problem) },
        }
    }
}

fn main() {
    let server = Server { ready: true };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let reply = server.respond(&request);
        println!("{}", serde_json::to_string(&reply).unwrap_or_default());
    }
}
