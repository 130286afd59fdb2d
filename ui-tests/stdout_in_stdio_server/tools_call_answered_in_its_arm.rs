//@ dep: serde_json = "1"
// A hand-rolled server whose `tools/call` arm runs the tool right there, with no fn of its
// own: that arm is the dispatcher, its stdout writes corrupt the stream and its panics leave
// the request unanswered. A prompt that reads stdin after the branch that serves and returns
// is a CLI's, not the transport's: its output is not the server's.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn answer(message: &Value) -> Value {
    let id = message["id"].clone();
    if message["method"] == "tools/call" {
        let args = &message["params"]["arguments"];
        let word = args["word"].as_str().expect("word is a string");
        print!("echoing {word}");
        return json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": word }] } });
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "unknown method" } })
}

fn main() {
    let mode = std::env::args().nth(1);
    if mode.as_deref() == Some("stdio") {
        let mut out = std::io::stdout().lock();
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            let _ = writeln!(out, "{}", answer(&message));
        }
        return;
    }
    let mut name = String::new();
    println!("name of the new profile?");
    if std::io::stdin().read_line(&mut name).is_ok() {
        println!("profile {} saved", name.trim());
    }
}
