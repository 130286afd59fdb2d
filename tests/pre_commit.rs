//! The real `pre-commit try-repo` against a scratch git repository holding a bad server: the
//! hook fails with the diagnostic, and passes once the server is fixed. Slow (pre-commit
//! builds the hook with `cargo install`) and needs pre-commit, so it is `#[ignore]`d;
//! `.ci/run` installs pre-commit and runs it with `--include-ignored`.

mod common;

use std::process::Command;

const BAD: &str = "use rmcp::{ServiceExt, transport::stdio};\npub struct S;\nimpl rmcp::ServerHandler for S {}\n#[tokio::main]\nasync fn main() {\n    println!(\"starting\");\n    S.serve(stdio()).await.unwrap().waiting().await.unwrap();\n}\n";

fn git(dir: &std::path::Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

#[test]
#[ignore = "needs pre-commit (pip install pre-commit) and builds the hook (slow); .ci/run runs it"]
fn hook_fails_on_a_bad_server_and_passes_after_the_fix() {
    if common::skip_slow("the pre-commit test") {
        return;
    }
    assert!(
        Command::new("pre-commit")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "this test needs pre-commit: pip install pre-commit"
    );
    let dir = common::scratch_crate(
        "precommit_target",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", BAD)],
    );
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "bad server"]);

    let repo = common::repo();
    let run = || {
        Command::new("pre-commit")
            .args([
                "try-repo",
                repo.to_str().expect("utf-8 path"),
                "mcp-lint",
                "--all-files",
            ])
            .current_dir(&dir)
            .output()
            .expect("pre-commit runs")
    };
    let out = run();
    let log = format!("{}{}", common::text(&out.stdout), common::text(&out.stderr));
    assert!(!out.status.success(), "the hook must fail:\n{log}");
    assert!(log.contains("stdout_in_stdio_server"), "{log}");

    let fixed = BAD.replace("println!", "eprintln!");
    std::fs::write(dir.join("src/main.rs"), fixed).expect("write");
    git(&dir, &["commit", "-q", "-am", "fix"]);
    let out = run();
    let log = format!("{}{}", common::text(&out.stdout), common::text(&out.stderr));
    assert!(out.status.success(), "the hook must pass:\n{log}");
}
