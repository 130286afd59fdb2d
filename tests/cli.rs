//! The command line: exit codes, formats, paths, cargo mode, bad input.

mod common;

use common::{cargo_mcp_lint, mcp_lint, scratch_crate, text};

const STDIO_SERVER: &str = r#"
use rmcp::{ServiceExt, transport::stdio};
pub struct S;
impl rmcp::ServerHandler for S {}
#[tokio::main]
async fn main() {
    println!("hello");
    S.serve(stdio()).await.unwrap().waiting().await.unwrap();
}
"#;

const WARN_ONLY: &str = r#"
use rmcp::{ErrorData as McpError, model::CallToolResult, tool, tool_router};
pub struct S;
#[tool_router]
impl S {
    #[tool(description = "x")]
    async fn x(&self) -> Result<CallToolResult, McpError> {
        let v: Option<u8> = None;
        v.unwrap();
        Err(McpError::internal_error("boom", None))
    }
}
"#;

fn rmcp() -> Vec<String> {
    vec!["rmcp = \"3.11\"".to_string()]
}

#[test]
fn exit_codes_follow_levels() {
    let dir = scratch_crate("deny_case", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    assert_eq!(mcp_lint(&dir, &["."]).status.code(), Some(1));
    assert_eq!(
        mcp_lint(&dir, &[".", "-A", "stdout_in_stdio_server"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(mcp_lint(&dir, &[".", "--exit-zero"]).status.code(), Some(0));

    let dir = scratch_crate("warn_case", &rmcp(), &[("src/lib.rs", WARN_ONLY)]);
    let out = mcp_lint(&dir, &["."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("0 errors, 2 warnings"));
    assert_eq!(
        mcp_lint(&dir, &[".", "-D", "warnings"]).status.code(),
        Some(1)
    );
    assert_eq!(
        mcp_lint(&dir, &[".", "-D", "mcp_lint::panic_in_tool"])
            .status
            .code(),
        Some(1)
    );
    // Later flags win.
    assert_eq!(
        mcp_lint(
            &dir,
            &[
                ".",
                "-D",
                "panic_in_tool",
                "-A",
                "panic_in_tool",
                "-A",
                "error_escapes_tool"
            ]
        )
        .stdout
        .len(),
        0
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch_crate("usage", &rmcp(), &[("src/lib.rs", "")]);
    let out = mcp_lint(&dir, &["--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let out = mcp_lint(&dir, &[".", "-W", "no_such_lint"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown lint `no_such_lint`"));
    let out = mcp_lint(&dir, &["does/not/exist"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such file or directory"));
}

#[test]
fn json_is_cargo_compatible() {
    let dir = scratch_crate("json_case", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    let out = mcp_lint(&dir, &[".", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let mut diagnostics = Vec::new();
    let mut finished = None;
    for message in cargo_metadata::Message::parse_stream(stdout.as_bytes()) {
        match message.expect("every line is a cargo message") {
            cargo_metadata::Message::CompilerMessage(m) => diagnostics.push(m),
            cargo_metadata::Message::BuildFinished(f) => finished = Some(f.success),
            other => panic!("unexpected message {other:?}"),
        }
    }
    assert_eq!(finished, Some(false));
    assert_eq!(diagnostics.len(), 1);
    let m = &diagnostics[0];
    assert!(m.package_id.repr.contains("json-case"));
    let d = &m.message;
    assert_eq!(
        d.code.as_ref().map(|c| c.code.as_str()),
        Some("mcp_lint::stdout_in_stdio_server")
    );
    assert_eq!(d.level, cargo_metadata::diagnostic::DiagnosticLevel::Error);
    let primary = d
        .spans
        .iter()
        .find(|s| s.is_primary)
        .expect("a primary span");
    assert_eq!(primary.file_name, "src/main.rs");
    assert_eq!((primary.line_start, primary.column_start), (7, 5));
    assert_eq!(
        &STDIO_SERVER[primary.byte_start as usize..primary.byte_end as usize],
        "println!(\"hello\")"
    );
    let help = d
        .children
        .iter()
        .find(|c| c.level == cargo_metadata::diagnostic::DiagnosticLevel::Help)
        .expect("a help child");
    let fix = &help.spans[0];
    assert_eq!(fix.suggested_replacement.as_deref(), Some("eprintln"));
    assert_eq!(
        fix.suggestion_applicability,
        Some(cargo_metadata::diagnostic::Applicability::MachineApplicable)
    );
    assert!(
        d.rendered
            .as_deref()
            .is_some_and(|r| r.contains("stdout_in_stdio_server"))
    );
    assert!(out.stderr.is_empty(), "json mode keeps stderr quiet");
}

#[test]
fn cargo_subcommand_reads_cargo_metadata() {
    let dir = scratch_crate("cargo_case", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    let manifest = dir.join("Cargo.toml");
    let manifest = manifest.to_str().expect("utf-8 path");
    let out = cargo_mcp_lint(
        &dir,
        &["--manifest-path", manifest, "--message-format", "short"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("src/main.rs:7:5: error[mcp_lint::stdout_in_stdio_server]")
    );
    // rust-analyzer's flags are accepted.
    let out = cargo_mcp_lint(
        &dir,
        &[
            "--workspace",
            "--message-format=json-diagnostic-rendered-ansi",
            "--keep-going",
            "--all-targets",
            "--manifest-path",
            manifest,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = cargo_mcp_lint(&dir, &["-p", "no-such-package"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unparsable_and_non_utf8_files_are_reported_and_skipped() {
    let dir = scratch_crate(
        "bad_input",
        &rmcp(),
        &[
            ("src/main.rs", STDIO_SERVER),
            ("src/broken.rs", "fn main( {"),
        ],
    );
    std::fs::write(dir.join("src/latin1.rs"), b"// caf\xe9\n").expect("write");
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("src/broken.rs:1:10: warning[mcp_lint::parse_error]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("src/latin1.rs:1:1: warning[mcp_lint::io_error]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("src/main.rs:7:5: error[mcp_lint::stdout_in_stdio_server]"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn pathological_nesting_is_reported_not_a_crash() {
    let deep = format!(
        "fn main() {{ let x = {}1{}; }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let dir = scratch_crate(
        "deep_nesting",
        &rmcp(),
        &[("src/main.rs", STDIO_SERVER), ("src/deep.rs", &deep)],
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "src/deep.rs:1:1: warning[mcp_lint::analysis_incomplete]: this item was not analysed"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("src/main.rs:7:5: error[mcp_lint::stdout_in_stdio_server]"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn helpers_in_other_workspace_members_are_followed() {
    let dir = common::scratch_dir("workspace");
    let write = |path: &str, text: &str| common::write_file(&dir, path, text);
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"server\", \"notes-core\"]\n",
    );
    write(
        "notes-core/Cargo.toml",
        "[package]\nname = \"notes-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        "notes-core/src/lib.rs",
        "pub mod store {\n    pub fn load(path: &str) -> String {\n        std::fs::read_to_string(path).unwrap()\n    }\n}\n",
    );
    write(
        "server/Cargo.toml",
        "[package]\nname = \"server\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = \"3.11\"\nnotes-core = { path = \"../notes-core\" }\n",
    );
    write(
        "server/src/lib.rs",
        "use rmcp::{tool, tool_router};\npub struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"read\")]\n    async fn read(&self) -> String {\n        notes_core::store::load(\"/notes\")\n    }\n}\n",
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("notes-core/src/lib.rs:3:39: warning[mcp_lint::panic_in_tool]: `.unwrap()` can panic in `load`, reached from tool `read`"),
        "{stdout}"
    );
}

#[test]
fn linting_a_server_directory_follows_its_path_dependencies_inside_the_tree() {
    // `mcp-lint server` loads the workspace members `server` depends on by path, as code its
    // tools call (not linted on their own), and never a path dependency outside the tree.
    let dir = common::scratch_dir("path_dependencies");
    let write = |path: &str, text: &str| common::write_file(&dir, path, text);
    write(
        "repo/Cargo.toml",
        "[workspace]\nmembers = [\"server\", \"store\"]\n\n[workspace.dependencies]\nstore = { path = \"store\" }\n",
    );
    write(
        "repo/store/Cargo.toml",
        "[package]\nname = \"store\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        "repo/store/src/lib.rs",
        "pub fn head(text: &str) -> &str {\n    &text[..text.len().min(40)]\n}\npub fn unused() {\n    None::<u8>.unwrap();\n}\n",
    );
    write(
        "outside/Cargo.toml",
        "[package]\nname = \"outside\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        "outside/src/lib.rs",
        "pub fn shout(text: &str) -> String {\n    text.parse::<u8>().unwrap().to_string()\n}\n",
    );
    write(
        "repo/server/Cargo.toml",
        "[package]\nname = \"server\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = \"3.11\"\nstore.workspace = true\noutside = { path = \"../../outside\" }\n",
    );
    write(
        "repo/server/src/lib.rs",
        "use rmcp::{tool, tool_router};\npub struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"head\")]\n    async fn head(&self, text: String) -> String {\n        format!(\"{}{}\", store::head(&text), outside::shout(&text))\n    }\n}\n",
    );
    // A link inside the tree to a package outside it is not followed either.
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink(dir.join("outside"), dir.join("repo/linked"));
        let manifest = dir.join("repo/server/Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap_or_default();
        let _ = std::fs::write(
            &manifest,
            format!("{text}linked = {{ path = \"../linked\" }}\n"),
        );
    }
    let out = mcp_lint(&dir.join("repo"), &["server", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("store/src/lib.rs:2:6: warning[mcp_lint::panic_in_tool]: slicing text at a byte offset can panic in `head`, reached from tool `head`"),
        "{stdout}"
    );
    assert!(!stdout.contains("outside"), "{stdout}");
    assert!(
        !stdout.contains("shout") && !stdout.contains("linked/"),
        "{stdout}"
    );
    assert!(!stdout.contains("store/src/lib.rs:5"), "{stdout}");
}

#[test]
fn files_of_test_only_modules_are_not_analysed() {
    // `#[cfg(test)] mod testutil;` compiles src/testutil.rs into tests only: its `#[ctor]`
    // never runs in the server. The one in src/live.rs does, before `main`.
    let main = "#[cfg(test)]\nmod testutil;\nmod live;\nuse rmcp::{ServerHandler, ServiceExt, transport::stdio};\n\
                #[derive(Clone)]\npub struct S;\nimpl ServerHandler for S {}\n\
                #[tokio::main]\nasync fn main() {\n    let _ = S.serve(stdio()).await;\n}\n";
    let ctor = |what: &str| format!("#[ctor::ctor]\nfn init() {{\n    println!(\"{what}\");\n}}\n");
    let dir = common::scratch_crate(
        "test_only_modules",
        &rmcp(),
        &[
            ("src/main.rs", main),
            ("src/testutil.rs", &ctor("test set-up")),
            ("src/testutil/fixtures.rs", &ctor("fixtures")),
            ("src/live.rs", &ctor("boot")),
        ],
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("src/live.rs:3:5: error[mcp_lint::stdout_in_stdio_server]"),
        "{stdout}"
    );
    assert!(!stdout.contains("testutil"), "{stdout}");
}

#[test]
fn helpers_in_transitive_workspace_members_are_followed() {
    // server → notes-core → notes-util: the server does not depend on notes-util itself.
    let dir = common::scratch_dir("transitive");
    let write = |path: &str, text: &str| common::write_file(&dir, path, text);
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"server\", \"notes-core\", \"notes-util\"]\n",
    );
    write(
        "notes-util/Cargo.toml",
        "[package]\nname = \"notes-util\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        "notes-util/src/lib.rs",
        "pub fn first_line(text: &str) -> &str {\n    text.lines().next().expect(\"a line\")\n}\n",
    );
    write(
        "notes-core/Cargo.toml",
        "[package]\nname = \"notes-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nnotes-util = { path = \"../notes-util\" }\n",
    );
    write(
        "notes-core/src/lib.rs",
        "pub fn title(text: &str) -> String {\n    notes_util::first_line(text).to_string()\n}\n",
    );
    write(
        "server/Cargo.toml",
        "[package]\nname = \"server\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = \"3.11\"\nnotes-core = { path = \"../notes-core\" }\n",
    );
    write(
        "server/src/lib.rs",
        "use rmcp::{tool, tool_router};\npub struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"title\")]\n    async fn title(&self, text: String) -> String {\n        notes_core::title(&text)\n    }\n}\n",
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("notes-util/src/lib.rs:2:25: warning[mcp_lint::panic_in_tool]"),
        "{stdout}"
    );
    assert!(stdout.contains("reached from tool `title`"), "{stdout}");
}

#[test]
fn config_in_cargo_metadata_sets_levels_and_excludes() {
    let deps = vec![
        "rmcp = \"3.11\"".to_string(),
        String::new(),
        "[package.metadata.mcp-lint]".to_string(),
        "exclude = [\"src/generated/**\"]".to_string(),
        "[package.metadata.mcp-lint.lints]".to_string(),
        "panic_in_tool = \"deny\"".to_string(),
        "error_escapes_tool = \"allow\"".to_string(),
    ];
    let dir = scratch_crate(
        "configured",
        &deps,
        &[
            ("src/lib.rs", WARN_ONLY),
            ("src/generated/more.rs", WARN_ONLY),
        ],
    );
    let out = mcp_lint(&dir, &[".", "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("src/lib.rs:9:11: error[mcp_lint::panic_in_tool]"),
        "{stdout}"
    );
    assert!(!stdout.contains("error_escapes_tool"), "{stdout}");
    assert!(!stdout.contains("generated"), "{stdout}");
    // The command line still wins.
    let out = mcp_lint(&dir, &[".", "-A", "panic_in_tool"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn config_errors_are_usage_errors() {
    let deps = vec![
        "rmcp = \"3.11\"".to_string(),
        "[package.metadata.mcp-lint]".to_string(),
        "lint = { panic_in_tool = \"deny\" }".to_string(),
    ];
    let dir = scratch_crate("bad_config", &deps, &[("src/lib.rs", WARN_ONLY)]);
    let out = mcp_lint(&dir, &["."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown key `lint`"),
        "{}",
        text(&out.stderr)
    );
}

const FIXABLE: &str = r#"use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, ServiceExt, tool, tool_router, transport::stdio};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "read")]
    async fn read(&self, path: String) -> Result<CallToolResult, McpError> {
        if path.is_empty() {
            return Err(McpError::invalid_params("path must not be empty", None));
        }
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Ok(CallToolResult::success(vec![Content::text(format!("Error: {e}"))])),
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().init();
    println!("starting");
    S.serve(stdio()).await?.waiting().await?;
    Ok(())
}
"#;

#[test]
fn fix_diff_and_unsafe_fixes() {
    let deps = vec![
        "rmcp = \"0.8\"".to_string(),
        "tracing-subscriber = \"0.3\"".to_string(),
    ];
    let dir = scratch_crate("fixable", &deps, &[("src/main.rs", FIXABLE)]);
    let main = dir.join("src/main.rs");

    let out = mcp_lint(&dir, &[".", "--diff"]);
    assert_eq!(out.status.code(), Some(1));
    let diff = text(&out.stdout);
    assert!(diff.contains("+    eprintln!(\"starting\");"), "{diff}");
    assert!(
        diff.contains("+    tracing_subscriber::fmt().with_writer(std::io::stderr).init();"),
        "{diff}"
    );
    assert!(
        diff.contains("Ok(CallToolResult::error(vec![Content::text(format!(\"Error: {e}\"))]))"),
        "{diff}"
    );
    assert!(
        !diff.contains("invalid_params"),
        "unsafe fixes stay out: {diff}"
    );
    assert_eq!(
        std::fs::read_to_string(&main).expect("read"),
        FIXABLE,
        "--diff writes nothing"
    );

    let out = mcp_lint(&dir, &[".", "--fix", "--message-format", "short"]);
    assert!(
        text(&out.stderr).contains("applied 3 fixes in 1 file"),
        "{}",
        text(&out.stderr)
    );
    let fixed = std::fs::read_to_string(&main).expect("read");
    assert!(fixed.contains("eprintln!(\"starting\")"));
    let remaining = text(&out.stdout);
    assert!(
        remaining.contains("validation_as_protocol_error"),
        "{remaining}"
    );
    assert!(!remaining.contains("stdout_in_stdio_server"), "{remaining}");
    assert_eq!(out.status.code(), Some(0), "nothing at deny level is left");

    let out = mcp_lint(
        &dir,
        &[".", "--fix", "--unsafe-fixes", "--message-format", "short"],
    );
    assert!(
        text(&out.stderr).contains("applied 1 fix in 1 file"),
        "{}",
        text(&out.stderr)
    );
    let fixed = std::fs::read_to_string(&main).expect("read");
    assert!(
        fixed.contains(
            "return Ok(CallToolResult::error(vec![Content::text(\"path must not be empty\")]));"
        ),
        "{fixed}"
    );
    assert!(syn::parse_file(&fixed).is_ok());
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_panic_in_analysis_is_one_diagnostic_and_the_run_goes_on() {
    let dir = scratch_crate(
        "isolation",
        &rmcp(),
        &[
            ("src/lib.rs", WARN_ONLY),
            ("src/victim.rs", "pub fn f() {}\n"),
        ],
    );
    let run = |extra: &[&str]| {
        let mut args = vec![".", "--message-format", "short"];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .args(&args)
            .current_dir(&dir)
            .env("MCP_LINT_INJECT_PANIC", "victim")
            .output()
            .expect("run")
    };
    let out = run(&[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("src/victim.rs:1:1: warning[mcp_lint::internal_error]: mcp-lint failed while analysing this file (injected for tests"),
        "{stdout}"
    );
    assert!(
        stdout.contains("src/lib.rs:9:11: warning[mcp_lint::panic_in_tool]"),
        "{stdout}"
    );
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(run(&["--strict"]).status.code(), Some(2));
}

#[test]
fn malformed_manifests_and_locks_are_clear_errors() {
    let dir = scratch_crate("bad_manifest", &rmcp(), &[("src/lib.rs", WARN_ONLY)]);
    std::fs::write(dir.join("Cargo.lock"), "this is [not toml").expect("write");
    let out = mcp_lint(&dir, &["."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Cargo.lock: invalid TOML"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_file(dir.join("Cargo.lock")).expect("remove");
    std::fs::write(dir.join("Cargo.toml"), "[package\nname = ").expect("write");
    let out = mcp_lint(&dir, &["src/lib.rs"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("Cargo.toml"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn symlinks_and_broken_manifests_in_a_tree_are_reported_and_skipped() {
    let dir = scratch_crate("links", &rmcp(), &[("src/lib.rs", WARN_ONLY)]);
    std::os::unix::fs::symlink("loop.rs", dir.join("src/loop.rs")).expect("loop link");
    std::os::unix::fs::symlink("/etc/hostname", dir.join("src/outside.rs")).expect("outside link");
    let fixture = dir.join("fixtures/broken");
    std::fs::create_dir_all(&fixture).expect("dir");
    std::fs::write(fixture.join("Cargo.toml"), "[package\n").expect("write");
    let parent = dir.parent().expect("parent");
    let name = dir.file_name().expect("name").to_str().expect("utf-8");
    let out = mcp_lint(parent, &[name, "--message-format", "short"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("src/loop.rs:1:1: warning[mcp_lint::io_error]: skipped: a symbolic link"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("src/outside.rs:1:1: warning[mcp_lint::io_error]: skipped: a symbolic link"),
        "{stdout}"
    );
    assert!(
        stdout.contains("fixtures/broken/Cargo.toml:1:1: warning[mcp_lint::io_error]: skipped:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("src/lib.rs:9:11: warning[mcp_lint::panic_in_tool]"),
        "the rest is linted: {stdout}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn explain_and_lints() {
    let dir = common::repo();
    let out = mcp_lint(&dir, &["explain", "panic_in_tool"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("## What it does"));
    let out = mcp_lint(&dir, &["explain", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let out = mcp_lint(&dir, &["lints"]);
    let listing = text(&out.stdout);
    for lint in mcp_lint::lints::ALL {
        assert!(listing.contains(lint.name()));
    }
    assert!(listing.contains("stdout_in_stdio_server         deny"));
}

#[test]
fn human_output_is_plain_off_a_terminal_and_ordered() {
    let dir = common::repo();
    let a = mcp_lint(&dir, &["example/notes-server", "-j", "1"]);
    let b = mcp_lint(&dir, &["example/notes-server", "-j", "4"]);
    assert_eq!(a.stdout, b.stdout, "output does not depend on threads");
    let stdout = text(&a.stdout);
    assert!(!stdout.contains('\u{1b}'), "no colour when piped");
    let first = stdout
        .find("example/notes-server/src/main.rs")
        .expect("main.rs findings");
    let second = stdout
        .find("example/notes-server/src/notes.rs")
        .expect("notes.rs findings");
    assert!(first < second);
}
