//@ dep: serde_json = "1"
// A hand-rolled server whose tools sit in a registry type, found by a method of the registry
// (`lookup(name)`, whose body is the map's `get`), and run by the dispatcher that asked for
// them. Its `Err` also answers an unknown tool, so the place to change is where the found
// tool's result becomes the dispatcher's: the call of what the lookup found. The tools' own
// `?` are ordinary Rust and are not reported.
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::BufRead;

type Handler = Box<dyn Fn(&Value) -> Result<Value, String>>;

struct Registry {
    handlers: HashMap<String, Handler>,
}

impl Registry {
    fn add(&mut self, name: &str, handler: fn(&Value) -> Result<Value, String>) {
        self.handlers.insert(name.to_string(), Box::new(handler));
    }

    fn lookup(&self, wanted: &str) -> Option<&Handler> {
        self.handlers.get(wanted)
    }
}

fn celsius(args: &Value) -> Result<Value, String> {
    let f = args["fahrenheit"].as_f64().ok_or("fahrenheit must be a number")?;
    Ok(json!((f - 32.0) / 1.8))
}

fn head(args: &Value) -> Result<Value, String> {
    let path = args["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    Ok(json!(text.lines().next().unwrap_or_default()))
}

fn run_tool(registry: &Registry, params: &Value) -> Result<Value, String> {
    let wanted = params["name"].as_str().unwrap_or_default();
    let found = registry.lookup(wanted);
    match found {
        Some(run) => run(&params["arguments"]),
        None => Err(format!("no tool called {wanted}")),
    }
}

fn reply(registry: &Registry, request: &Value) -> Value {
    let id = request["id"].clone();
    let outcome = match request["method"].as_str() {
        Some("tools/call") => run_tool(registry, &request["params"]),
        _ => Err("method not found".to_string()),
    };
    match outcome {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
    }
}

fn main() {
    let mut registry = Registry { handlers: HashMap::new() };
    registry.add("celsius", celsius);
    registry.add("head", head);
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Ok(request) = serde_json::from_str::<Value>(&line) {
            println!("{}", reply(&registry, &request));
        }
    }
}
