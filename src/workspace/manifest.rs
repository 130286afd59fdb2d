//! What mcp-lint reads from a `Cargo.toml`: dependencies, targets, `panic = "abort"`
//! settings and its own configuration.

use std::path::{Path, PathBuf};

/// A declared dependency of a package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// The package name on crates.io (`package = ".."` already applied).
    pub package: String,
    /// The name the code uses (`use NAME::..`), with `-` turned into `_`.
    pub extern_name: String,
    pub requirement: Option<String>,
    pub features: Vec<String>,
    /// `path = ".."`: the directory of a local package, relative to the manifest that says
    /// so (`true` when that is the workspace root's, through `workspace = true`).
    pub path: Option<(String, bool)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub kind: Vec<String>,
    /// As cargo reports them: `["bin"]`, `["lib"]`, or `[lib] crate-type`.
    pub crate_types: Vec<String>,
    pub src_path: PathBuf,
}

/// Dependencies, `panic = "abort"` settings (profile, byte range) and configuration.
pub type ManifestFacts = (
    Vec<Dependency>,
    Vec<(String, std::ops::Range<usize>)>,
    crate::config::Config,
);

/// Everything mcp-lint reads from a manifest's text: dependencies, `panic = "abort"`
/// settings and the mcp-lint configuration (the fuzzer's entry point for manifests).
pub fn read_manifest_text(
    text: &str,
    codes: &dyn crate::config::Codes,
) -> Result<ManifestFacts, String> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("invalid TOML: {}", e.message()))?;
    let dependencies = dependencies_of(&table, Some(&table));
    let aborts = panic_abort_settings(text);
    let config = crate::config::Config::from_table(&table, codes)?;
    Ok((dependencies, aborts, config))
}

/// `panic = "abort"` settings in a manifest's `[profile.NAME]` tables: the profile name and
/// the byte range of the setting.
pub fn panic_abort_settings(manifest: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut found = Vec::new();
    let mut profile: Option<String> = None;
    let mut offset = 0;
    for line in manifest.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(header) = trimmed.strip_prefix('[') {
            let name = header.trim_end_matches(']').trim();
            profile = name
                .strip_prefix("profile.")
                .map(|p| p.trim_matches('"').to_string());
        } else if let Some(name) = &profile
            && let Some((key, value)) = trimmed.split_once('=')
            && key.trim() == "panic"
            && value
                .split('#')
                .next()
                .is_some_and(|v| v.trim().trim_matches(['"', '\'']) == "abort")
        {
            let start = offset + (line.len() - line.trim_start().len());
            let setting = trimmed.split('#').next().unwrap_or(trimmed).trim_end();
            found.push((name.clone(), start..start + setting.len()));
        }
        offset += line.len();
    }
    found
}

impl Target {
    /// A binary target, as cargo reports one.
    fn bin(name: impl Into<String>, src_path: PathBuf) -> Target {
        Target {
            name: name.into(),
            kind: vec!["bin".into()],
            crate_types: vec!["bin".into()],
            src_path,
        }
    }
}

/// Targets as cargo infers them: `src/main.rs`, `src/bin/*.rs`, `[[bin]]`, `src/lib.rs`.
pub(super) fn targets_of(manifest: &toml::Table, dir: &Path, name: &str) -> Vec<Target> {
    let mut targets = Vec::new();
    if let Some(bins) = manifest.get("bin").and_then(toml::Value::as_array) {
        for bin in bins {
            let bin_name = bin
                .get("name")
                .and_then(toml::Value::as_str)
                .unwrap_or(name);
            let path = bin
                .get("path")
                .and_then(toml::Value::as_str)
                .map(|p| dir.join(p))
                .unwrap_or_else(|| dir.join("src/main.rs"));
            targets.push(Target::bin(bin_name.to_string(), path));
        }
    }
    let main = dir.join("src/main.rs");
    if main.is_file() && !targets.iter().any(|t| t.src_path == main) {
        targets.push(Target::bin(name.to_string(), main));
    }
    // `src/bin/NAME.rs` and `src/bin/NAME/main.rs`.
    let bin_dir = dir.join("src/bin");
    let nested = std::fs::read_dir(&bin_dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path().join("main.rs"))
                .filter(|main| main.is_file())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut bins: Vec<PathBuf> = super::files::walk_rs(&bin_dir, false)
        .into_iter()
        .chain(nested)
        .collect();
    bins.sort();
    for file in bins {
        if !targets.iter().any(|t| t.src_path == file) {
            let stem = if file.file_name().is_some_and(|n| n == "main.rs") {
                file.parent().and_then(Path::file_name)
            } else {
                file.file_stem()
            };
            targets.push(Target::bin(
                stem.and_then(|s| s.to_str()).unwrap_or(name).to_string(),
                file,
            ));
        }
    }
    let lib = manifest
        .get("lib")
        .and_then(|l| l.get("path"))
        .and_then(toml::Value::as_str)
        .map(|p| dir.join(p))
        .unwrap_or_else(|| dir.join("src/lib.rs"));
    if lib.is_file() {
        let table = manifest.get("lib");
        let declared: Vec<String> = table
            .and_then(|l| l.get("crate-type"))
            .and_then(toml::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(toml::Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let proc_macro = table
            .and_then(|l| l.get("proc-macro"))
            .and_then(toml::Value::as_bool)
            == Some(true);
        let kind = match (proc_macro, declared.is_empty()) {
            (true, _) => vec!["proc-macro".to_string()],
            (false, true) => vec!["lib".to_string()],
            (false, false) => declared,
        };
        let lib_name = table
            .and_then(|l| l.get("name"))
            .and_then(toml::Value::as_str)
            .unwrap_or(name);
        // Cargo lists the library first.
        targets.insert(
            0,
            Target {
                name: lib_name.replace('-', "_"),
                crate_types: kind.clone(),
                kind,
                src_path: lib,
            },
        );
    }
    targets
}

/// `[dependencies]` (and target-specific ones), resolving `workspace = true`.
pub fn dependencies_of(manifest: &toml::Table, workspace: Option<&toml::Table>) -> Vec<Dependency> {
    let workspace_deps = workspace
        .and_then(|w| w.get("workspace"))
        .and_then(|w| w.get("dependencies"))
        .and_then(toml::Value::as_table);
    let mut tables: Vec<&toml::Table> = Vec::new();
    if let Some(t) = manifest.get("dependencies").and_then(toml::Value::as_table) {
        tables.push(t);
    }
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        for cfg in targets.values() {
            if let Some(t) = cfg.get("dependencies").and_then(toml::Value::as_table) {
                tables.push(t);
            }
        }
    }
    let mut deps = Vec::new();
    for table in tables {
        for (key, spec) in table {
            let mut spec = spec.clone();
            let inherits = spec
                .get("workspace")
                .and_then(toml::Value::as_bool)
                .unwrap_or(false);
            let local = |t: &toml::Value| {
                t.get("path")
                    .and_then(toml::Value::as_str)
                    .map(String::from)
            };
            let mut path = local(&spec).map(|p| (p, false));
            if inherits && let Some(base) = workspace_deps.and_then(|w| w.get(key)) {
                path = local(base).map(|p| (p, true));
                let mut merged = match base {
                    toml::Value::String(v) => {
                        let mut t = toml::Table::new();
                        t.insert("version".into(), toml::Value::String(v.clone()));
                        t
                    }
                    toml::Value::Table(t) => t.clone(),
                    _ => toml::Table::new(),
                };
                if let Some(extra) = spec.get("features").and_then(toml::Value::as_array) {
                    let features = merged
                        .entry("features")
                        .or_insert_with(|| toml::Value::Array(Vec::new()));
                    if let Some(list) = features.as_array_mut() {
                        list.extend(extra.iter().cloned());
                    }
                }
                spec = toml::Value::Table(merged);
            }
            let (package, requirement, features) = match &spec {
                toml::Value::String(req) => (key.clone(), Some(req.clone()), Vec::new()),
                toml::Value::Table(t) => (
                    t.get("package")
                        .and_then(toml::Value::as_str)
                        .unwrap_or(key)
                        .to_string(),
                    t.get("version")
                        .and_then(toml::Value::as_str)
                        .map(String::from),
                    t.get("features")
                        .and_then(toml::Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(toml::Value::as_str)
                                .map(String::from)
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
                _ => continue,
            };
            deps.push(Dependency {
                package,
                extern_name: key.replace('-', "_"),
                requirement,
                features,
                path,
            });
        }
    }
    deps
}

pub(crate) fn read_toml(path: &Path) -> Result<toml::Table, String> {
    let text = crate::read::regular_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_toml(path, &text)
}

pub(crate) fn parse_toml(path: &Path, text: &str) -> Result<toml::Table, String> {
    text.parse::<toml::Table>()
        .map_err(|e| format!("{}: invalid TOML: {}", path.display(), e.message()))
}
