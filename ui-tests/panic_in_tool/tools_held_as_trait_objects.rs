//@ dep: serde_json = "1"
// A hand-rolled server whose tools are values of types implementing a trait of the crate,
// kept as trait objects in a list and found by the name each one reports. The method called
// on the value found by the requested name runs the implementation of the type stored there,
// so every implementation is a tool: a panic in one is reported in that tool, and the
// dispatcher's JSON-RPC error object for a tool's failure is reported once, where it is built.
use serde_json::{Value, json};
use std::io::BufRead;

trait Action {
    fn id(&self) -> &'static str;
    fn perform(&self, input: &Value) -> Result<String, String>;
}

struct Shout;
struct Halve;

impl Action for Shout {
    fn id(&self) -> &'static str {
        "shout"
    }
    fn perform(&self, input: &Value) -> Result<String, String> {
        let text = input["text"].as_str().ok_or("text must be a string")?;
        Ok(text.to_uppercase())
    }
}

impl Action for Halve {
    fn id(&self) -> &'static str {
        "halve"
    }
    fn perform(&self, input: &Value) -> Result<String, String> {
        // Panics when the client sends no number.
        let n = input["n"].as_i64().unwrap();
        Ok((n / 2).to_string())
    }
}

fn catalogue() -> Vec<Box<dyn Action>> {
    vec![Box::new(Shout), Box::new(Halve)]
}

fn run(actions: &[Box<dyn Action>], id: Value, params: &Value) -> Value {
    let wanted = params["name"].as_str().unwrap_or_default();
    let Some(action) = actions.iter().find(|a| a.id() == wanted) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } });
    };
    match action.perform(&params["arguments"]) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e } }),
    }
}

fn main() {
    let actions = catalogue();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("tools/call") => run(&actions, id, &request["params"]),
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "no such method" } }),
        };
        println!("{reply}");
    }
}
