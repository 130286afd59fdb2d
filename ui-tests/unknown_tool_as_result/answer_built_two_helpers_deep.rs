//@ dep: serde_json = "1"
// The answer to a name no tool has is built two helpers deep (`reply` hands the text to
// `envelope`, which writes `isError`): it enters the dispatcher at the call its catch-all
// arm ends with, which is where it is reported, as when one helper builds it.
use serde_json::{Value, json};

fn envelope(id: &Value, text: String, failed: bool) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": {
        "content": [{ "type": "text", "text": text }],
        "isError": failed
    }})
}

fn reply(id: &Value, text: String, failed: bool) -> Value {
    envelope(id, text, failed)
}

fn dispatch(id: &Value, params: &Value) -> Value {
    match params["name"].as_str().unwrap_or_default() {
        "now" => reply(id, "12:00".to_string(), false),
        other => {
            let text = format!("no tool called {other}");
            reply(id, text, true)
        }
    }
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        if request["method"] == "tools/call" {
            println!("{}", dispatch(&request["id"], &request["params"]));
        }
    }
}
