//! Running mcp-lint on a hostile tree under watch: wall time, peak memory, how it ended, and
//! what it printed. The peak is the one the child reports with `MCP_LINT_TIMINGS` (its own
//! `VmHWM`); `ru_maxrss` from `wait4` would count this test process's memory, which the child
//! shares until it execs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bounds every hostile run must stay within.
pub const MAX_SECONDS: f64 = 10.0;
pub const MAX_RSS_KIB: i64 = 1024 * 1024;

/// A finished run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Both streams, for assertions that no format may break.
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// The mcp-lint binary of this build.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_mcp-lint")
}

/// Runs `mcp-lint ARGS` in `dir` and checks the bounds: a clean exit (0, 1 or 2, no signal),
/// under [`MAX_SECONDS`] (killed at twice that) and [`MAX_RSS_KIB`]. `label` names the case
/// in failures and in the `hostile:` timing line it prints.
pub fn bounded(label: &str, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out_path = dir.join(".hostile-stdout");
    let err_path = dir.join(".hostile-stderr");
    let mut cmd = Command::new(binary());
    cmd.args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .env("MCP_LINT_TIMINGS", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("run mcp-lint");
    let status = wait_bounded(&mut child, label);
    let seconds = started.elapsed().as_secs_f64();
    let stdout =
        String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned();
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    let peak_kib: i64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("timing: peak RSS "))
        .and_then(|l| l.trim_end_matches(" KiB").parse().ok())
        .unwrap_or(i64::MAX);
    println!(
        "hostile: {label:<40} {seconds:>6.2} s {:>8} KiB peak",
        peak_kib
    );
    let Some(code) = status.code() else {
        use std::os::unix::process::ExitStatusExt;
        panic!(
            "{label}: killed by signal {:?} after {seconds:.1} s\n{stderr}",
            status.signal()
        );
    };
    assert!(matches!(code, 0..=2), "{label}: exit code {code}\n{stderr}");
    assert!(seconds < MAX_SECONDS, "{label}: took {seconds:.1} s");
    assert!(peak_kib < MAX_RSS_KIB, "{label}: peaked at {peak_kib} KiB");
    Run {
        code,
        stdout,
        stderr,
    }
}

/// Waits for `child`, killing it at twice the time bound; returns how it ended.
fn wait_bounded(child: &mut std::process::Child, label: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs_f64(MAX_SECONDS * 2.0);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status,
            Ok(None) => {}
            Err(e) => panic!("{label}: cannot wait: {e}"),
        }
        if Instant::now() > deadline {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every format mcp-lint has, as `--message-format` values.
pub const FORMATS: &[&str] = &["human", "short", "json", "sarif", "github"];
