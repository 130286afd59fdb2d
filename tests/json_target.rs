//! The JSON `target` of each message is the target whose module tree holds the file, with
//! `kind`, `crate_types`, `name`, `src_path` and the package's `edition` exactly as
//! `cargo metadata` reports them: on a workspace member with a library, two binaries and an
//! example, in cargo mode and in path mode.

mod common;

use std::path::Path;

use cargo_metadata::{Message, MetadataCommand, Target};

/// A tool whose `unwrap` is a `panic_in_tool` finding in whatever file holds it.
fn tool(name: &str) -> String {
    format!(
        "use rmcp::{{tool, tool_router}};\npub struct {name};\n#[tool_router]\nimpl {name} {{\n    #[tool(description = \"x\")]\n    async fn x(&self, p: String) -> String {{\n        std::fs::read_to_string(p).unwrap()\n    }}\n}}\n"
    )
}

fn workspace() -> std::path::PathBuf {
    let dir = common::scratch_dir("json_target");
    let write = |path: &str, text: &str| common::write_file(&dir, path, text);
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"notes-server\"]\nresolver = \"2\"\n",
    );
    // Edition 2018, so that a hard-coded edition shows.
    write(
        "notes-server/Cargo.toml",
        "[package]\nname = \"notes-server\"\nversion = \"0.1.0\"\nedition = \"2018\"\n\n[dependencies]\nrmcp = \"3.11\"\n",
    );
    write("notes-server/src/lib.rs", "pub mod store;\n");
    write("notes-server/src/store.rs", &tool("Store"));
    write("notes-server/src/main.rs", "mod cli;\nfn main() {}\n");
    write("notes-server/src/cli.rs", &tool("Cli"));
    write(
        "notes-server/src/bin/admin.rs",
        &format!("{}\nfn main() {{}}\n", tool("Admin")),
    );
    write(
        "notes-server/examples/demo.rs",
        &format!("{}\nfn main() {{}}\n", tool("Demo")),
    );
    dir
}

/// The target each linted file should be reported under, by name.
const EXPECTED: &[(&str, &str)] = &[
    ("notes-server/src/store.rs", "notes_server"),
    ("notes-server/src/cli.rs", "notes-server"),
    ("notes-server/src/bin/admin.rs", "admin"),
];

fn check(dir: &Path, stdout: &[u8], metadata: &cargo_metadata::Metadata) {
    let package = metadata
        .packages
        .iter()
        .find(|p| p.name.as_str() == "notes-server")
        .expect("the member");
    let by_name = |name: &str| -> &Target {
        package
            .targets
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("cargo has a target {name}"))
    };
    assert_eq!(package.targets.len(), 4, "lib, two bins, an example");
    let mut seen = Vec::new();
    for message in Message::parse_stream(stdout) {
        let Ok(Message::CompilerMessage(m)) = message else {
            continue;
        };
        let file = m
            .message
            .spans
            .iter()
            .find(|s| s.is_primary)
            .map(|s| s.file_name.clone())
            .expect("a primary span");
        let Some((_, name)) = EXPECTED.iter().find(|(path, _)| file.ends_with(path)) else {
            panic!("a finding in an unexpected file {file} ({})", dir.display());
        };
        let expected = by_name(name);
        let got = &m.target;
        assert_eq!(got.name, expected.name, "{file}");
        assert_eq!(got.kind, expected.kind, "{file}");
        assert_eq!(got.crate_types, expected.crate_types, "{file}");
        assert_eq!(got.src_path, expected.src_path, "{file}");
        assert_eq!(got.edition, package.edition, "{file}");
        assert_eq!(got.edition.as_str(), "2018");
        seen.push(file);
    }
    seen.sort();
    assert_eq!(seen.len(), EXPECTED.len(), "one finding per file: {seen:?}");
}

#[test]
fn targets_and_editions_match_cargo_metadata() {
    let dir = workspace();
    let metadata = MetadataCommand::new()
        .manifest_path(dir.join("Cargo.toml"))
        .no_deps()
        .exec()
        .expect("cargo metadata");

    let out = common::cargo_mcp_lint(&dir, &["--workspace", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    check(&dir, &out.stdout, &metadata);

    let out = common::mcp_lint(&dir, &[".", "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    check(&dir, &out.stdout, &metadata);
}
