//! The command line behaves like cargo's and clippy's: one test per convention.

mod common;

use common::{cargo_mcp_lint, mcp_lint, scratch_crate, text};

const STDIO_SERVER: &str = "use rmcp::{ServiceExt, transport::stdio};\npub struct S;\nimpl rmcp::ServerHandler for S {}\n#[tokio::main]\nasync fn main() {\n    println!(\"hello\");\n    S.serve(stdio()).await.unwrap().waiting().await.unwrap();\n}\n";

/// A tool with one `unwrap` (panic_in_tool, warn by default).
const PANICKY_TOOL: &str = "use rmcp::{tool, tool_router};\npub struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"x\")]\n    async fn x(&self, p: String) -> String {\n        std::fs::read_to_string(p).unwrap()\n    }\n}\n";

fn rmcp() -> Vec<String> {
    vec!["rmcp = \"3.11\"".to_string()]
}

/// A crate whose manifest has these lines after `rmcp = "3.11"`.
fn configured(name: &str, lines: &[&str]) -> std::path::PathBuf {
    let mut deps = rmcp();
    deps.extend(lines.iter().map(|l| l.to_string()));
    scratch_crate(name, &deps, &[("src/lib.rs", PANICKY_TOOL)])
}

#[test]
fn cargo_subcommand_help_says_cargo_mcp_lint() {
    let dir = common::repo();
    let out = cargo_mcp_lint(&dir, &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(help.contains("Usage: cargo mcp-lint [OPTIONS]"), "{help}");
    assert!(!help.contains("cargo-mcp-lint"), "{help}");
    // The plain binary keeps its own name.
    let help = text(&mcp_lint(&dir, &["--help"]).stdout);
    assert!(help.contains("Usage: mcp-lint [OPTIONS]"), "{help}");
}

#[test]
fn explain_flag_works_like_clippys() {
    let dir = common::repo();
    let out = cargo_mcp_lint(&dir, &["--explain", "panic-in-tool"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("# `panic_in_tool`"));
    let out = mcp_lint(&dir, &["--explain", "panic_in_tols"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `panic_in_tool`?"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn quiet_prints_only_findings() {
    let dir = scratch_crate("quiet", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    let loud = mcp_lint(&dir, &[".", "--message-format", "short"]);
    assert!(text(&loud.stderr).contains("mcp-lint: 1 error"));
    for flag in ["-q", "--quiet"] {
        let out = mcp_lint(&dir, &[".", "--message-format", "short", flag]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(text(&out.stderr), "", "{flag}");
        assert_eq!(out.stdout, loud.stdout, "{flag}");
    }
    let out = mcp_lint(&dir, &[".", "--fix", "-q"]);
    assert_eq!(text(&out.stderr), "", "no fix report either");
    assert!(
        std::fs::read_to_string(dir.join("src/main.rs"))
            .expect("read")
            .contains("eprintln!")
    );
}

#[test]
fn hidden_cargo_flags_are_never_suggested() {
    let dir = common::repo();
    let out = mcp_lint(&dir, &["--exampel"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unexpected argument '--exampel'"),
        "{stderr}"
    );
    assert!(!stderr.contains("--example"), "{stderr}");
    assert!(!stderr.contains("similar argument"), "{stderr}");
    let out = cargo_mcp_lint(&dir, &["--keep-gong"]);
    assert!(!text(&out.stderr).contains("--keep-going"));
    // Visible flags are still suggested.
    let out = mcp_lint(&dir, &["--statistic"]);
    assert!(
        text(&out.stderr).contains("a similar argument exists: '--statistics'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn lint_names_accept_hyphens_as_rustc_does() {
    let dir = configured("hyphens", &[]);
    assert_eq!(mcp_lint(&dir, &["."]).status.code(), Some(0));
    assert_eq!(
        mcp_lint(&dir, &[".", "-D", "panic-in-tool"]).status.code(),
        Some(1)
    );
    assert_eq!(
        mcp_lint(&dir, &[".", "-D", "mcp_lint::panic-in-tool"])
            .status
            .code(),
        Some(1)
    );
    let dir = configured(
        "hyphens_config",
        &[
            "[package.metadata.mcp-lint.lints]",
            "panic-in-tool = \"deny\"",
        ],
    );
    assert_eq!(mcp_lint(&dir, &["."]).status.code(), Some(1));
}

#[test]
fn unknown_names_get_did_you_mean_and_their_place_in_cargo_toml() {
    let dir = configured("unknown_flag", &[]);
    let out = mcp_lint(&dir, &[".", "-W", "panic_in_tol"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown lint `panic_in_tol`; did you mean `panic_in_tool`?"),
        "{}",
        text(&out.stderr)
    );
    // The manifest is `[package]` (4 lines), a blank line, `[dependencies]`, `rmcp = ..`,
    // then these lines: the table header is line 8.
    let cases: [(&str, &[&str], &str); 3] = [
        (
            "unknown_lint",
            &[
                "[package.metadata.mcp-lint.lints]",
                "panic_in_tol = \"deny\"",
            ],
            "Cargo.toml:9:1: [package.metadata.mcp-lint]: unknown lint `panic_in_tol`; did you mean `panic_in_tool`?",
        ),
        (
            "unknown_key",
            &["[package.metadata.mcp-lint]", "panic_guards = [\"g\"]"],
            "Cargo.toml:9:1: [package.metadata.mcp-lint]: unknown key `panic_guards`; did you mean `panic-guards`?",
        ),
        (
            "unknown_level",
            &[
                "[package.metadata.mcp-lint]",
                "lints = { panic_in_tool = \"warning\" }",
            ],
            "Cargo.toml:9:11: [package.metadata.mcp-lint]: the level of `panic_in_tool` must be \"allow\", \"warn\" or \"deny\"; did you mean `warn`?",
        ),
    ];
    for (name, lines, expected) in cases {
        let dir = configured(name, lines);
        let out = mcp_lint(&dir, &["."]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            text(&out.stderr).contains(expected),
            "{name}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn near_miss_table_names_are_warned_with_the_right_spelling() {
    let dir = configured(
        "near_miss",
        &[
            "[package.metadata.mcp_lint.lints]",
            "panic_in_tool = \"deny\"",
        ],
    );
    let out = mcp_lint(&dir, &["."]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Cargo.toml:8:19: [package.metadata.mcp_lint] is not read by mcp-lint; did you mean [package.metadata.mcp-lint]?"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(0), "the table is not applied");
    // A table of another tool is left alone.
    let dir = configured(
        "other_tool",
        &["[package.metadata.docs-rs]", "all-features = true"],
    );
    assert!(!text(&mcp_lint(&dir, &["."]).stderr).contains("not read"));
}

#[test]
fn parse_and_io_errors_are_lints_like_the_others() {
    let dir = common::repo();
    let listing = text(&mcp_lint(&dir, &["lints"]).stdout);
    assert!(
        listing.contains("parse_error                    warn  input"),
        "{listing}"
    );
    assert!(
        listing.contains("io_error                       warn  input"),
        "{listing}"
    );
    for name in ["parse_error", "io-error"] {
        let out = mcp_lint(&dir, &["explain", name]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(text(&out.stdout).contains("## What it does"), "{name}");
    }

    let dir = scratch_crate(
        "input_levels",
        &rmcp(),
        &[("src/lib.rs", PANICKY_TOOL), ("src/broken.rs", "fn f( {")],
    );
    std::fs::write(dir.join("src/latin1.rs"), b"// caf\xe9\n").expect("write");
    let short = |extra: &[&str]| {
        let mut args = vec![".", "--message-format", "short"];
        args.extend_from_slice(extra);
        mcp_lint(&dir, &args)
    };
    let out = short(&[]);
    assert!(text(&out.stdout).contains("warning[mcp_lint::parse_error]"));
    assert!(text(&out.stdout).contains("warning[mcp_lint::io_error]"));
    let out = short(&["-A", "parse_error", "-D", "io-error"]);
    assert!(!text(&out.stdout).contains("parse_error"));
    assert!(text(&out.stdout).contains("error[mcp_lint::io_error]"));
    assert_eq!(out.status.code(), Some(1));
    let manifest = dir.join("Cargo.toml");
    let mut text_of = std::fs::read_to_string(&manifest).expect("read");
    text_of.push_str("\n[package.metadata.mcp-lint.lints]\nio_error = \"allow\"\n");
    std::fs::write(&manifest, text_of).expect("write");
    let out = short(&[]);
    assert!(
        !text(&out.stdout).contains("io_error"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("parse_error"));
}

#[test]
fn parse_errors_point_at_the_token_at_fault_and_say_what_was_expected() {
    let dir = scratch_crate(
        "parse_messages",
        &rmcp(),
        &[
            (
                "src/unclosed.rs",
                "fn main() {\n    println!(\"hi\"\n}\n\nfn other() {}\n",
            ),
            (
                "src/semicolon.rs",
                "fn f() {\n    let x = 1\n    let y = 2;\n}\n",
            ),
            ("src/stray.rs", "fn f() {\n    g())\n}\n"),
        ],
    );
    let stdout = text(&mcp_lint(&dir, &[".", "--message-format", "short"]).stdout);
    for expected in [
        "src/unclosed.rs:2:5: warning[mcp_lint::parse_error]: this file could not be parsed, so it was not linted: the `(` of `println!` is never closed",
        "src/semicolon.rs:3:5: warning[mcp_lint::parse_error]: this file could not be parsed, so it was not linted: expected `;`, found `let`",
        "src/stray.rs:2:8: warning[mcp_lint::parse_error]: this file could not be parsed, so it was not linted: `)` does not match the `{` still open before it",
    ] {
        assert!(stdout.contains(expected), "{expected}\n{stdout}");
    }
}

#[test]
fn a_test_module_the_parser_cannot_read_does_not_hide_the_code_around_it() {
    // Test-only top-level items are left out of the parse: syntax newer than the parser's in
    // a test module no longer costs the file its lints.
    let broken_tests = format!(
        "{PANICKY_TOOL}#[cfg(test)]\nmod tests {{\n    fn newer() {{ let x = 1 +; }}\n}}\n"
    );
    let dir = scratch_crate(
        "test_module_syntax",
        &rmcp(),
        &[("src/lib.rs", broken_tests.as_str())],
    );
    let stdout = text(&mcp_lint(&dir, &[".", "--message-format", "short"]).stdout);
    assert!(!stdout.contains("parse_error"), "{stdout}");
    assert!(
        stdout.contains("src/lib.rs:7:36: warning[mcp_lint::panic_in_tool]"),
        "{stdout}"
    );
}

#[test]
fn a_package_no_analysis_reads_is_not_parsed() {
    // No MCP SDK, no server, no member linking it: nothing of it could be reported.
    let dir = scratch_crate(
        "unread_package",
        &["serde = \"1\"".to_string()],
        &[("src/lib.rs", "pub fn broken( {\n")],
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !text(&out.stdout).contains("parse_error"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn paths_that_are_not_rust_are_usage_errors_and_empty_trees_are_warned() {
    let dir = scratch_crate("paths", &rmcp(), &[("src/lib.rs", PANICKY_TOOL)]);
    let out = mcp_lint(&dir, &["Cargo.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Cargo.toml: not a directory or a `.rs` file"),
        "{}",
        text(&out.stderr)
    );
    std::fs::create_dir_all(dir.join("docs")).expect("dir");
    std::fs::write(dir.join("docs/notes.md"), "# notes\n").expect("write");
    let out = mcp_lint(&dir, &["docs"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("warning: no Rust files under docs"),
        "{}",
        text(&out.stderr)
    );
    let out = mcp_lint(&dir, &["src", "docs"]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no Rust files under docs"), "{stderr}");
    assert!(!stderr.contains("under src"), "{stderr}");
}
