//! Confirming a contract on the wire: a session with a real stdio server, and what each
//! channel of `mcp-lint contract` must look like in the server's answer.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// What a server did with a session's requests.
pub struct Session {
    /// Every line it wrote to stdout.
    pub lines: Vec<String>,
    /// It ended by itself before the session did.
    pub exited: bool,
}

impl Session {
    /// The response to request `id`.
    pub fn response(&self, id: u64) -> Option<Value> {
        self.lines
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["id"] == id)
    }
}

/// Runs `binary` in `cwd`, initializes, sends each `(tool, arguments)` as `tools/call` with
/// ids 2, 3, .., and collects stdout for `wait`.
pub fn session(binary: &Path, cwd: &Path, calls: &[(&str, Value)], wait: Duration) -> Session {
    let mut child = Command::new(binary)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut send = |v: Value| {
        // A server that died no longer reads: that is for the caller to see, not a failure.
        let _ = writeln!(stdin, "{v}");
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "contract-oracle", "version": "0"}}}),
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for (i, (name, args)) in calls.iter().enumerate() {
        send(
            json!({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
            "params": {"name": name, "arguments": args}}),
        );
    }
    let mut lines = Vec::new();
    let mut closed = false;
    let deadline = Instant::now() + wait;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(mpsc::RecvTimeoutError::Timeout) => break,
            // stdout closed: the server is gone.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                closed = true;
                break;
            }
        }
    }
    let exited = if closed {
        ends_within(&mut child, wait)
    } else {
        matches!(child.try_wait(), Ok(Some(_)))
    };
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    Session { lines, exited }
}

/// Whether `child` ends within `wait`: a process closes its stdout a moment before the kernel
/// reports it ended, and on a busy machine that moment is long enough to be seen.
fn ends_within(child: &mut std::process::Child, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    loop {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether the answer to the request (`None`: no answer) is what a contract path of this
/// channel promises; `Err` says what was seen instead. `exited`: the server ended.
pub fn confirms(path: &Value, answer: Option<&Value>, exited: bool) -> Result<(), String> {
    let channel = path["channel"].as_str().unwrap_or_default();
    let seen =
        || format!("{channel} path {path}, but the server sent {answer:?} (exited: {exited})");
    let is_error = answer.map(|a| a["result"]["isError"].as_bool().unwrap_or(false));
    let ok = match channel {
        "is_error" => is_error == Some(true),
        "success" => answer.is_some_and(|a| a.get("result").is_some()) && is_error == Some(false),
        "jsonrpc_error" => answer.is_some_and(|a| {
            a["error"].is_object() && (path["code"].is_null() || a["error"]["code"] == path["code"])
        }),
        "no_answer" => answer.is_none() && !exited,
        "server_exit" => answer.is_none() && exited,
        _ => false,
    };
    if ok { Ok(()) } else { Err(seen()) }
}
