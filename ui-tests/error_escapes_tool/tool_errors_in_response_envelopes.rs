//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
// Tools whose error type is the JSON-RPC error object itself: a dispatcher that puts a tool's
// `Err` into the `error` member of its response (`Response { id, error: Some(e), .. }`)
// answers that tool's failure with a JSON-RPC error. Reported once, where the tool's error
// enters the response, with the code the tools chose. The dispatcher's own rejection of the
// request before it picks a tool (no `params`) is a correct JSON-RPC error.
use std::collections::HashMap;
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Serialize)]
pub struct WireError {
    pub code: i32,
    pub message: String,
}

#[derive(Serialize)]
pub struct Reply {
    pub jsonrpc: &'static str,
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<WireError>,
}

#[derive(Deserialize)]
pub struct Incoming {
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

fn internal(message: String) -> WireError {
    WireError { code: -32603, message }
}

pub trait Handler {
    fn call(&self, args: &Value) -> Result<Value, WireError>;
}

pub struct ReadFile;

impl Handler for ReadFile {
    fn call(&self, args: &Value) -> Result<Value, WireError> {
        let path = args["path"].as_str().unwrap_or_default();
        let text = std::fs::read_to_string(path).map_err(|e| internal(e.to_string()))?;
        Ok(json!({ "content": [{ "type": "text", "text": text }] }))
    }
}

fn reply(id: Value, result: Result<Value, WireError>) -> Reply {
    match result {
        Ok(v) => Reply { jsonrpc: "2.0", id, result: Some(v), error: None },
        Err(e) => Reply { jsonrpc: "2.0", id, result: None, error: Some(e) },
    }
}

fn answer(handlers: &HashMap<String, Box<dyn Handler>>, req: Incoming) -> Option<Reply> {
    let id = req.id?;
    if req.method != "tools/call" {
        let error = WireError { code: -32601, message: format!("no method {}", req.method) };
        return Some(Reply { jsonrpc: "2.0", id, result: None, error: Some(error) });
    }
    let Some(params) = req.params else {
        let error = WireError { code: -32600, message: "no params".into() };
        return Some(Reply { jsonrpc: "2.0", id, result: None, error: Some(error) });
    };
    let name = params["name"].as_str().unwrap_or_default();
    let Some(handler) = handlers.get(name) else {
        let error = WireError { code: -32602, message: format!("unknown tool {name}") };
        return Some(Reply { jsonrpc: "2.0", id, result: None, error: Some(error) });
    };
    Some(reply(id, handler.call(&params["arguments"])))
}

fn main() {
    let mut handlers: HashMap<String, Box<dyn Handler>> = HashMap::new();
    handlers.insert("read_file".into(), Box::new(ReadFile));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(req) = serde_json::from_str::<Incoming>(&line) else { continue };
        if let Some(r) = answer(&handlers, req) {
            println!("{}", serde_json::to_string(&r).unwrap_or_default());
        }
    }
}
