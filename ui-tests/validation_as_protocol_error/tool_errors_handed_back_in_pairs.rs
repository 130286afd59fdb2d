//@ dep: serde_json = "1"
// A dispatcher that hands back `(result, error)` pairs: a tool's own JSON-RPC error object
// (-32602 for a missing argument) travels in the pair's second element into the response's
// `error` member, beside the dispatcher's own answers to a malformed request. The place where
// the tool's error enters the dispatcher's answer is reported, once for all tools; the
// request errors are correct.
use std::collections::BTreeMap;
use std::io::BufRead;

use serde_json::{Value, json};

pub struct Fault {
    pub code: i64,
    pub message: String,
}

fn missing(what: &str) -> Fault {
    Fault { code: -32602, message: format!("{what} is required") }
}

type Runner = fn(&Value) -> Result<Value, Fault>;

fn upper(args: &Value) -> Result<Value, Fault> {
    let text = args["text"].as_str().ok_or_else(|| missing("text"))?;
    Ok(json!({ "content": [{ "type": "text", "text": text.to_uppercase() }] }))
}

fn length(args: &Value) -> Result<Value, Fault> {
    let Some(text) = args["text"].as_str() else {
        return Err(missing("text"));
    };
    Ok(json!({ "content": [{ "type": "text", "text": text.len().to_string() }] }))
}

struct Registry {
    runners: BTreeMap<&'static str, Runner>,
}

impl Registry {
    fn run(&self, params: &Value) -> (Option<Value>, Option<Fault>) {
        let Some(name) = params["name"].as_str() else {
            return (None, Some(Fault { code: -32600, message: "no tool name".into() }));
        };
        match self.runners.get(name) {
            Some(runner) => match runner(&params["arguments"]) {
                Ok(v) => (Some(v), None),
                Err(f) => (None, Some(f)),
            },
            None => (None, Some(Fault { code: -32602, message: format!("unknown tool {name}") })),
        }
    }
}

fn main() {
    let mut runners: BTreeMap<&'static str, Runner> = BTreeMap::new();
    runners.insert("upper", upper);
    runners.insert("length", length);
    let registry = Registry { runners };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        if request["method"] != "tools/call" {
            continue;
        }
        let (result, fault) = registry.run(&request["params"]);
        let reply = match fault {
            Some(f) => json!({ "jsonrpc": "2.0", "id": request["id"], "error": { "code": f.code, "message": f.message } }),
            None => json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }),
        };
        println!("{reply}");
    }
}
