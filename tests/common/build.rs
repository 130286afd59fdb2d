//! Building the ui-test cases against the real SDKs (the oracles and the metamorphic
//! check's compile test): one shared target directory, without debug info.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The one target directory every scratch server builds in, so each SDK version and its
/// dependencies compile once.
pub fn oracle_target() -> PathBuf {
    super::repo().join("target/oracle/target")
}

/// `cargo <args>` in the scratch crate `dir`. Without debug info: the servers are only run,
/// never debugged, and their dependency tree (tokio, serde, the SDK) then compiles and links
/// markedly faster.
pub fn oracle_cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", oracle_target())
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .output()
        .expect("cargo runs")
}

const COMPILE_DEPS: &str = "tokio = { version = \"1\", features = [\"full\"] }\nanyhow = \"1\"\nserde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\nschemars = \"1\"\ntracing = \"0.1\"\ntracing-subscriber = \"0.3\"\n";

/// A ui-test case as a crate that can be built (`target/oracle/PREFIX-LINT-CASE`): its
/// manifest gets `[workspace]`, the features rmcp's servers need and [`COMPILE_DEPS`]; its
/// made-up lock file is dropped.
pub fn buildable_case(case: &Path, prefix: &str) -> Option<PathBuf> {
    buildable_case_of(case, prefix, &["rmcp"])
}

/// [`buildable_case`] for a case that depends on one of `sdks` (crate names): rmcp gets the
/// features its servers need, the others build with their default features.
pub fn buildable_case_of(case: &Path, prefix: &str, sdks: &[&str]) -> Option<PathBuf> {
    let source = std::fs::read_to_string(case).expect("case");
    let deps = super::ui_case::deps(&source);
    if !deps
        .iter()
        .any(|d| sdks.iter().any(|sdk| d.starts_with(&format!("{sdk} = "))))
    {
        return None;
    }
    let (scratch, _) = super::ui_case::scratch(case).expect("scratch crate");
    let lint = case.parent()?.file_name()?.to_string_lossy().into_owned();
    let name = format!("{prefix}-{lint}-{}", case.file_stem()?.to_string_lossy());
    let dir = super::repo()
        .join("target/oracle")
        .join(name.replace('_', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("project");
    let target = super::ui_case::target(&source);
    let mut code = source.clone();
    // Most cases are tools without a program around them: an empty `main` (which serves
    // nothing, so the findings stay the same) lets them build.
    if target == "src/main.rs" && !source.contains("fn main(") {
        code.push_str("\nfn main() {}\n");
    }
    std::fs::write(dir.join(target), code).expect("write case");
    let manifest = std::fs::read_to_string(scratch.join("Cargo.toml")).expect("manifest");
    let mut out = String::new();
    // The package is named after its folder: bins of two packages of one name would share
    // their artifacts (and cached diagnostics) in the shared target directory.
    let package = name.replace('_', "-");
    for line in manifest.lines() {
        if line.starts_with("name = ") {
            out.push_str(&format!("name = \"{package}\"\n"));
            continue;
        }
        match line.strip_prefix("rmcp = \"") {
            Some(version) => out.push_str(&format!(
                "rmcp = {{ version = \"{}, features = [\"server\", \"macros\", \"transport-io\"] }}\n",
                version
            )),
            None if line.starts_with("tracing-subscriber") || line.starts_with("serde_json") => {}
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
        if line == "[dependencies]" {
            out.push_str(COMPILE_DEPS);
        }
    }
    out = out.replacen("[dependencies]", "[workspace]\n\n[dependencies]", 1);
    std::fs::write(dir.join("Cargo.toml"), out).expect("manifest");
    let _ = std::fs::remove_dir_all(&scratch);
    Some(dir)
}

/// `cargo check`'s errors in the crate itself (message texts), or `Err` when cargo failed
/// before compiling it (a dependency that does not resolve, say).
pub fn compile_errors(dir: &Path) -> Result<Vec<String>, String> {
    let by_target = compile_errors_by_target(dir, &[])?;
    let mut errors: Vec<String> = by_target.into_values().flatten().collect();
    errors.sort();
    Ok(errors)
}

/// `cargo check <extra>`'s errors in `dir` (a package or a workspace), by the name of the
/// target they are in; `Err` when cargo failed before compiling.
pub fn compile_errors_by_target(
    dir: &Path,
    extra: &[&str],
) -> Result<std::collections::BTreeMap<String, Vec<String>>, String> {
    let mut args = vec!["check", "--quiet", "--message-format", "json"];
    args.extend(extra);
    let out = oracle_cargo(dir, &args);
    let mut errors: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for message in cargo_metadata::Message::parse_stream(out.stdout.as_slice()) {
        if let Ok(cargo_metadata::Message::CompilerMessage(m)) = message
            && m.message.level == cargo_metadata::diagnostic::DiagnosticLevel::Error
        {
            errors
                .entry(m.target.name.clone())
                .or_default()
                .push(m.message.message);
        }
    }
    if !out.status.success() && errors.is_empty() {
        return Err(super::text(&out.stderr));
    }
    Ok(errors)
}
