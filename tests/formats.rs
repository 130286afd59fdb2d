//! Output formats other than human and cargo JSON: SARIF (the members code scanning reads and,
//! in an ignored test, the official 2.1.0 schema), GitHub annotations, --statistics.

mod common;

use common::{mcp_lint, scratch_crate, text};

const SERVER: &str = r#"
use rmcp::{ServiceExt, transport::stdio, tool, tool_router};
pub struct S;
#[tool_router]
impl S {
    #[tool(description = "x")]
    async fn x(&self, p: String) -> String {
        std::fs::read_to_string(p).unwrap()
    }
}
#[tokio::main]
async fn main() {
    println!("hello, world");
    S.serve(stdio()).await.unwrap().waiting().await.unwrap();
}
"#;

/// The official SARIF 2.1.0 schema, as the `serde-sarif` package ships it (`src/schema.json`):
/// `cargo metadata` on a scratch crate that depends on it fetches the package (from crates.io
/// unless cached) without building it. mcp-lint itself does not depend on it.
fn sarif_schema() -> std::path::PathBuf {
    let dir = common::scratch_dir("sarif_schema");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"sarif-schema\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [workspace]\n\n[dependencies]\nserde-sarif = \"=0.8.0\"\n",
    )
    .expect("write manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("write lib.rs");
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(dir.join("Cargo.toml"))
        .exec()
        .expect("cargo metadata runs");
    let package = metadata
        .packages
        .iter()
        .find(|p| p.name.as_str() == "serde-sarif")
        .expect("serde-sarif is resolved");
    package
        .manifest_path
        .parent()
        .expect("a manifest has a directory")
        .join("src/schema.json")
        .into()
}

fn sarif_of_server() -> serde_json::Value {
    let dir = server();
    let out = mcp_lint(&dir, &[".", "--message-format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).expect("SARIF is JSON")
}

fn server() -> std::path::PathBuf {
    scratch_crate(
        "formats",
        &["rmcp = \"3.11\"".to_string()],
        &[("src/main.rs", SERVER)],
    )
}

#[test]
#[ignore = "needs crates.io for the schema (the serde-sarif package); .ci/run runs it"]
fn sarif_is_valid_against_the_official_schema() {
    if common::skip_slow("the SARIF schema test") {
        return;
    }
    let log = sarif_of_server();
    let schema_path = sarif_schema();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&schema_path)
            .unwrap_or_else(|e| panic!("{}: {e}", schema_path.display())),
    )
    .expect("schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("sarif-schema.json", schema)
        .expect("schema loads");
    let index = compiler
        .compile("sarif-schema.json", &mut schemas)
        .expect("schema compiles");
    if let Err(e) = schemas.validate(&log, index) {
        panic!("SARIF output is invalid:\n{e:#}");
    }
    // The schema really constrains the output: a result level it does not define is refused.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("loud");
    assert!(schemas.validate(&broken, index).is_err());
}

#[test]
fn sarif_has_what_code_scanning_reads() {
    let log = sarif_of_server();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["tool"]["driver"]["name"], "mcp-lint");
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert!(["error", "warning"].contains(&result["level"].as_str().expect("level")));
        assert!(
            result["message"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "src/main.rs");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let region = &location["region"];
        for member in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[member].as_u64().is_some_and(|n| n >= 1), "{member}");
        }
    }
    for rule in rules {
        assert!(rule["shortDescription"]["text"].as_str().is_some());
        assert!(rule["defaultConfiguration"]["level"].as_str().is_some());
    }
    assert!(rules.iter().any(|r| {
        r["help"]["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("## What it does"))
    }));
}

#[test]
fn github_annotations_by_default_on_actions() {
    let dir = server();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg(".")
        .current_dir(&dir)
        .env("GITHUB_ACTIONS", "true")
        .output()
        .expect("run");
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with(
        "::warning file=src/main.rs,line=8,col=36,endLine=8,endColumn=44,title=mcp_lint%3A%3Apanic_in_tool::"
    ), "{stdout}");
    assert!(
        lines[1].starts_with("::error file=src/main.rs,line=13,col=5,"),
        "{stdout}"
    );
    assert!(
        lines[1].contains("%0Ahelp: "),
        "messages are escaped onto one line"
    );
}

#[test]
fn statistics_count_per_lint() {
    let dir = server();
    let out = mcp_lint(&dir, &[".", "--message-format", "short", "--statistics"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("     1  mcp_lint::panic_in_tool\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("     1  mcp_lint::stdout_in_stdio_server\n"),
        "{stderr}"
    );
}
