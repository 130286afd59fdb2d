//@ dep: serde_json = "1"
// A hand-rolled JSON-RPC server: the response writer on stdout is the transport; prose on
// stdout is not. A CLI command that reads stdin does not make its output part of serving, and
// code after `return serve()` never runs while serving.
use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn handle_tools_call(params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    println!("calling {name}");
    let n: u32 = params["arguments"]["n"].as_str().unwrap().parse().unwrap_or(0);
    json!({ "content": [{ "type": "text", "text": format!("{name}: {n}") }] })
}

fn handle_request(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("tools/call") => handle_tools_call(&request["params"]),
        _ => json!({ "error": { "code": -32601, "message": "method not found" } }),
    }
}

fn serve() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let request: Value = serde_json::from_str(&line?).unwrap_or_default();
        let response = handle_request(&request);
        writeln!(stdout, "{}", response)?;
        stdout.flush()?;
    }
    Ok(())
}

fn confirm() -> bool {
    println!("Overwrite the configuration? [y/N]");
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer).is_ok() && answer.trim() == "y"
}

fn main() -> std::io::Result<()> {
    let command = std::env::args().nth(1).unwrap_or_default();
    if command == "serve" {
        return serve();
    }
    if confirm() {
        println!("configuration written");
    }
    Ok(())
}
