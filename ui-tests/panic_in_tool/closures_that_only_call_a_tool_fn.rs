//@ dep: serde_json = "1"
// A hand-rolled server that registers its tools as closures which do nothing but call a fn
// with their own parameters (`|args| area(args)`, `move |args| shapes.perimeter(args)`). By
// eta-equivalence each closure is the fn it calls: the tool is that fn, its panics are a
// tool's panics, and the verdicts are those of registering the fn itself.
use std::collections::HashMap;
use std::io::BufRead;

use serde_json::{Value, json};

type Handler = Box<dyn Fn(&Value) -> Result<String, String>>;

fn area(args: &Value) -> Result<String, String> {
    let sides: Vec<f64> = args["sides"].as_array().ok_or("sides is required")?.iter().filter_map(Value::as_f64).collect();
    Ok((sides[0] * sides[1]).to_string())
}

#[derive(Clone, Copy)]
struct Shapes;

impl Shapes {
    fn perimeter(&self, args: &Value) -> Result<String, String> {
        let sides = args["sides"].as_array().ok_or("sides is required")?;
        let first = sides.first().and_then(Value::as_f64).expect("a first side");
        Ok((first * sides.len() as f64).to_string())
    }
}

fn handlers() -> HashMap<&'static str, Handler> {
    let shapes = Shapes;
    let mut map: HashMap<&'static str, Handler> = HashMap::new();
    map.insert("area", Box::new(|args| area(args)));
    map.insert("perimeter", Box::new(move |args| shapes.perimeter(args)));
    map
}

fn main() {
    let handlers = handlers();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let response = match request["method"].as_str() {
            Some("tools/call") => {
                let name = request["params"]["name"].as_str().unwrap_or_default();
                match handlers.get(name) {
                    Some(handler) => match handler(&request["params"]["arguments"]) {
                        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
                        Err(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }], "isError": true } }),
                    },
                    None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } }),
                }
            }
            _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
        };
        println!("{response}");
    }
}
