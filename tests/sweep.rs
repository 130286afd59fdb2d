//! The sweep: mcp-lint over every crate in the local cargo registry (real Rust code nobody
//! here wrote, thousands of files) must finish in time without an internal error. It reads
//! the cargo home (filled by building this project) and takes a while, so it is `#[ignore]`d;
//! `.ci/run` runs it with `--include-ignored`.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
#[ignore = "needs the local cargo registry (~/.cargo/registry/src) and is slow; .ci/run runs it"]
fn the_whole_local_registry_lints_without_internal_errors() {
    if common::skip_slow("the registry sweep") {
        return;
    }
    let Some(home) = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")))
    else {
        panic!("neither CARGO_HOME nor HOME is set");
    };
    let registry = home.join("registry/src");
    assert!(
        registry.is_dir(),
        "{} is missing: build the project first",
        registry.display()
    );

    let report = std::env::temp_dir().join(format!("mcp-lint-sweep-{}.txt", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg(&registry)
        .args(["--message-format", "short"])
        .stdout(std::fs::File::create(&report).expect("report file"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("mcp-lint starts");
    let deadline = Instant::now() + Duration::from_secs(900);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcp-lint did not finish the registry sweep within 900 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("stderr");
    let output = std::fs::read_to_string(&report).expect("report");
    let _ = std::fs::remove_file(&report);
    assert_ne!(status.code(), Some(2), "usage or internal error:\n{stderr}");
    let internal: Vec<&str> = output
        .lines()
        .filter(|l| l.contains("mcp_lint::internal_error"))
        .collect();
    assert!(
        internal.is_empty(),
        "internal errors:\n{}",
        internal.join("\n")
    );
    // The summary line: `mcp-lint: .. (N Rust files read, ..)`.
    let files: usize = stderr
        .lines()
        .find(|l| l.starts_with("mcp-lint: "))
        .and_then(|l| l.split(" (").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(files >= 500, "too few files swept ({files}): {stderr}");
    println!("swept {files} files: {}", stderr.trim());
}
