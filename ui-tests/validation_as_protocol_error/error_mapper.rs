//@ dep: serde_json = "1"
// A hand-rolled stdio server whose tool errors become JSON-RPC errors. The store's errors go
// through a mapper that picks a code per variant (`.map_err(map_store_err)?`): the -32602 it
// picks for invalid input is reported in the mapper, where that choice is made. A helper that
// only ever makes -32602 (`bad_args`) is reported where the tool calls it.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

pub struct RpcError {
    code: i64,
    message: String,
}

pub enum StoreError {
    Missing(String),
    InvalidInput(String),
    Io(std::io::Error),
}

fn load(id: &str) -> Result<String, StoreError> {
    if id.is_empty() || id.contains('/') {
        return Err(StoreError::InvalidInput(format!("bad id {id:?}")));
    }
    match std::fs::read_to_string(format!("notes/{id}")) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StoreError::Missing(id.into())),
        Err(e) => Err(StoreError::Io(e)),
    }
}

fn map_store_err(err: StoreError) -> RpcError {
    match err {
        StoreError::Missing(id) => RpcError {
            code: -31001,
            message: format!("no note {id}"),
        },
        StoreError::InvalidInput(msg) => RpcError {
            code: -32602,
            message: format!("invalid input: {msg}"),
        },
        StoreError::Io(e) => RpcError {
            code: -31000,
            message: e.to_string(),
        },
    }
}

fn bad_args(message: &str) -> RpcError {
    RpcError {
        code: -32602,
        message: message.to_string(),
    }
}

fn call_tool(name: &str, args: &Value) -> Result<Value, RpcError> {
    match name {
        "read_note" => {
            let id = args["id"].as_str().ok_or_else(|| bad_args("id is required"))?;
            let text = load(id).map_err(map_store_err)?;
            Ok(json!({ "content": [{ "type": "text", "text": text }] }))
        }
        _ => Err(RpcError {
            code: -32602,
            message: format!("unknown tool {name}"),
        }),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = request["id"].clone();
        let response = if request["method"] == "tools/call" {
            let name = request["params"]["name"].as_str().unwrap_or_default();
            match call_tool(name, &request["params"]["arguments"]) {
                Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": e.code, "message": e.message } }),
            }
        } else {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } })
        };
        let _ = writeln!(out, "{response}");
    }
}
