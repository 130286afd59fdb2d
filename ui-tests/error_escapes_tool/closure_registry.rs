//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// A hand-rolled server whose tools are closures in a registry, looked up by the request's
// `params.name`. Every tool failure goes back as a JSON-RPC error object through one helper:
// that construction, which only tool failures reach, is the one place to fix and is reported
// once (the closures' `?` are ordinary Rust). The unknown-tool and malformed-request answers
// are protocol errors.
use std::collections::HashMap;
use std::io::BufRead;

use anyhow::anyhow;
use serde_json::{Value, json};

type Tool = Box<dyn Fn(&Value) -> anyhow::Result<String>>;

struct Registry {
    tools: HashMap<&'static str, Tool>,
}

impl Registry {
    fn new() -> Self {
        let mut tools: HashMap<&'static str, Tool> = HashMap::new();
        tools.insert(
            "render",
            Box::new(|args| {
                let file = args["file"].as_str().ok_or_else(|| anyhow!("file is required"))?;
                let out = std::fs::read_to_string(file)?;
                Ok(out)
            }),
        );
        tools.insert("echo", Box::new(|args| Ok(args.to_string())));
        Registry { tools }
    }
}

fn rpc_error(id: &Value, code: i64, msg: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": msg } })
}

fn call_tool(registry: &Registry, id: &Value, params: &Value) -> Value {
    let Some(name) = params["name"].as_str() else {
        return rpc_error(id, -32602, "params.name is required");
    };
    let Some(tool) = registry.tools.get(name) else {
        return rpc_error(id, -32602, &format!("unknown tool {name}"));
    };
    match tool(&params["arguments"]) {
        Ok(text) => json!({
            "jsonrpc": "2.0",
            "id": id,
            "result": { "content": [{ "type": "text", "text": text }] }
        }),
        Err(e) => rpc_error(id, -32603, &e.to_string()),
    }
}

fn main() {
    let registry = Registry::new();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = &request["id"];
        let response = match request["method"].as_str() {
            Some("tools/call") => call_tool(&registry, id, &request["params"]),
            _ => rpc_error(id, -32601, "method not found"),
        };
        println!("{response}");
    }
}
