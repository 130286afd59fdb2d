//! Configuration from `[workspace.metadata.mcp-lint]` and `[package.metadata.mcp-lint]`, and
//! lint levels: defaults, then the workspace table, then the package table, then `-A/-W/-D`.
//!
//! ```toml
//! [package.metadata.mcp-lint]
//! workspace = true                       # start from [workspace.metadata.mcp-lint]
//! exclude = ["src/generated/**"]         # globs relative to the package
//! panic-guards = ["guard_panics"]        # fns that run their closure under catch_unwind
//! error-builders = ["tool_error"]        # fns that build an isError result
//!
//! [package.metadata.mcp-lint.lints]
//! panic_in_tool = "deny"
//! error_leaks_internals = "allow"
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use crate::diagnostic::Level;

/// What a package's configuration says.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Lint levels in the order they apply (workspace first).
    pub levels: Vec<(&'static str, Level)>,
    /// Globs of files to skip, relative to the package root.
    pub exclude: Vec<String>,
    /// Project fns that run their closure argument under `catch_unwind`.
    pub panic_guards: Vec<String>,
    /// Project fns that build an `isError` tool result.
    pub error_builders: Vec<String>,
    /// Things that look like configuration but are not read (`[package.metadata.mcp_lint]`).
    pub warnings: Vec<String>,
}

const KEYS: &[&str] = &[
    "workspace",
    "lints",
    "exclude",
    "panic-guards",
    "error-builders",
];

const TABLE: &str = "mcp-lint";

/// A manifest's text, to read tables from and point at keys in.
struct Manifest<'a> {
    path: &'a Path,
    text: String,
}

impl Manifest<'_> {
    /// `path:line:col` of the key at `keys`, or just the path when it cannot be located.
    fn at(&self, keys: &[&str]) -> String {
        match key_position(&self.text, keys) {
            Some((line, column)) => format!("{}:{line}:{column}", self.path.display()),
            None => self.path.display().to_string(),
        }
    }
}

/// The codes a configuration may name, with their default levels. The lint registry provides
/// them, so the configuration knows no lint.
pub trait Codes {
    /// The name of the configurable code `name` spells (`panic-in-tool` is `panic_in_tool`).
    fn find(&self, name: &str) -> Option<&'static str>;
    /// Every configurable code with its default level.
    fn defaults(&self) -> Vec<(&'static str, Level)>;
    /// Why `name` is no code, with the closest one.
    fn unknown(&self, name: &str) -> String;
}

impl Config {
    /// Reads the package manifest (and the workspace manifest, when the package inherits).
    pub fn load(
        manifest: &Path,
        workspace_manifest: Option<&Path>,
        codes: &dyn Codes,
    ) -> Result<Config, String> {
        let mut config = Config::default();
        let package = read_manifest(manifest)?;
        let package_table = match &package {
            Some((m, root)) => {
                config.warn_near_misses(m, root);
                table_at(m, root, &["package", "metadata", TABLE])?
            }
            None => None,
        };
        let inherit = match &package_table {
            None => true,
            Some(t) => match t.get("workspace") {
                None => false,
                Some(v) => v.as_bool().ok_or_else(|| {
                    format!(
                        "{}: `workspace` in [package.metadata.mcp-lint] must be true or false",
                        package.as_ref().map_or_else(
                            || manifest.display().to_string(),
                            |(m, _)| m.at(&["package", "metadata", TABLE, "workspace"])
                        )
                    )
                })?,
            },
        };
        if inherit
            && let Some(ws) = workspace_manifest
            && let Some((m, root)) = read_manifest(ws)?
        {
            if ws != manifest {
                config.warn_near_misses(&m, &root);
            }
            if let Some(table) = table_at(&m, &root, &["workspace", "metadata", TABLE])? {
                config.merge(&table, Some(&m), &["workspace", "metadata", TABLE], codes)?;
            }
        }
        if let (Some(table), Some((m, _))) = (package_table, &package) {
            config.merge(&table, Some(m), &["package", "metadata", TABLE], codes)?;
        }
        Ok(config)
    }

    /// The package's configuration from an already parsed manifest (no workspace inheritance).
    pub fn from_table(manifest: &toml::Table, codes: &dyn Codes) -> Result<Config, String> {
        let mut config = Config::default();
        let table = manifest
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get(TABLE));
        match table {
            None => {}
            Some(toml::Value::Table(t)) => {
                config.merge(t, None, &["package", "metadata", TABLE], codes)?
            }
            Some(_) => return Err("[package.metadata.mcp-lint] must be a table".into()),
        }
        Ok(config)
    }

    /// `[package.metadata.mcp_lint]` and other near misses of the table name are not read:
    /// say so, with the right spelling, instead of ignoring them silently.
    fn warn_near_misses(&mut self, manifest: &Manifest<'_>, root: &toml::Table) {
        for section in ["package", "workspace"] {
            let Some(metadata) = root
                .get(section)
                .and_then(|s| s.get("metadata"))
                .and_then(toml::Value::as_table)
            else {
                continue;
            };
            for key in metadata.keys() {
                if key != TABLE && crate::suggest::closest(key, [TABLE]).is_some() {
                    self.warnings.push(format!(
                        "{}: [{section}.metadata.{key}] is not read by mcp-lint; did you mean [{section}.metadata.{TABLE}]?",
                        manifest.at(&[section, "metadata", key])
                    ));
                }
            }
        }
    }

    fn merge(
        &mut self,
        table: &toml::Table,
        manifest: Option<&Manifest<'_>>,
        prefix: &[&str],
        codes: &dyn Codes,
    ) -> Result<(), String> {
        let name = format!("[{}]", prefix.join("."));
        let here = |keys: &[&str], msg: String| {
            let path: Vec<&str> = prefix.iter().chain(keys).copied().collect();
            let at = manifest.map_or_else(|| "Cargo.toml".to_string(), |m| m.at(&path));
            format!("{at}: {name}: {msg}")
        };
        for (key, value) in table {
            match key.as_str() {
                "workspace" => {}
                "lints" => {
                    let lints = value.as_table().ok_or_else(|| {
                        here(
                            &["lints"],
                            "`lints` must be a table of `lint = \"level\"`".into(),
                        )
                    })?;
                    for (lint, level) in lints {
                        let code = codes
                            .find(lint)
                            .ok_or_else(|| here(&["lints", lint], codes.unknown(lint)))?;
                        let level = level.as_str().and_then(parse_level).ok_or_else(|| {
                            let hint = level
                                .as_str()
                                .map(|l| crate::suggest::did_you_mean(l, ["allow", "warn", "deny"]))
                                .unwrap_or_default();
                            here(
                                &["lints", lint],
                                format!(
                                    "the level of `{lint}` must be \"allow\", \"warn\" or \"deny\"{hint}"
                                ),
                            )
                        })?;
                        self.levels.push((code, level));
                    }
                }
                "exclude" | "panic-guards" | "error-builders" => {
                    let list = value
                        .as_array()
                        .and_then(|a| {
                            a.iter()
                                .map(|v| v.as_str().map(String::from))
                                .collect::<Option<Vec<String>>>()
                        })
                        .ok_or_else(|| {
                            here(&[key], format!("`{key}` must be a list of strings"))
                        })?;
                    match key.as_str() {
                        "exclude" => self.exclude.extend(list),
                        "panic-guards" => self.panic_guards.extend(list),
                        _ => self.error_builders.extend(list),
                    }
                }
                other => {
                    return Err(here(
                        &[other],
                        format!(
                            "unknown key `{other}`{} (expected one of: {})",
                            crate::suggest::did_you_mean(other, KEYS.iter().copied()),
                            KEYS.join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether `relative` (a path inside the package) is excluded.
    pub fn excludes(&self, relative: &Path) -> bool {
        let mut builder = globset::GlobSetBuilder::new();
        for pattern in &self.exclude {
            if let Ok(glob) = globset::Glob::new(pattern) {
                builder.add(glob);
            }
        }
        builder.build().is_ok_and(|set| set.is_match(relative))
    }

    /// Checks the exclude globs once, so a typo is an error rather than a silent no-op.
    pub fn validate_globs(&self, manifest: &Path) -> Result<(), String> {
        for pattern in &self.exclude {
            globset::Glob::new(pattern).map_err(|e| {
                format!(
                    "{}: invalid `exclude` glob `{pattern}`: {e}",
                    manifest.display()
                )
            })?;
        }
        Ok(())
    }
}

fn parse_level(text: &str) -> Option<Level> {
    match text {
        "allow" => Some(Level::Allow),
        "warn" => Some(Level::Warn),
        "deny" | "forbid" => Some(Level::Deny),
        _ => None,
    }
}

/// A manifest's text and table; `None` when it cannot be read (the workspace loader reports
/// unreadable manifests).
fn read_manifest(path: &Path) -> Result<Option<(Manifest<'_>, toml::Table)>, String> {
    let Ok(text) = crate::read::regular_file(path) else {
        return Ok(None);
    };
    let root: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        format!("{}: invalid TOML: {}", path.display(), e.message())
    })?;
    Ok(Some((Manifest { path, text }, root)))
}

fn table_at(
    manifest: &Manifest<'_>,
    root: &toml::Table,
    keys: &[&str],
) -> Result<Option<toml::Table>, String> {
    let mut value = root;
    for (i, key) in keys.iter().enumerate() {
        match value.get(*key) {
            None => return Ok(None),
            Some(toml::Value::Table(t)) => value = t,
            Some(_) => {
                return Err(format!(
                    "{}: [{}] must be a table",
                    manifest.at(&keys[..=i]),
                    keys[..=i].join(".")
                ));
            }
        }
    }
    Ok(Some(value.clone()))
}

/// 1-based line and column (in characters) of the key at `keys` in a TOML text.
fn key_position(text: &str, keys: &[&str]) -> Option<(usize, usize)> {
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut table = root.get_ref();
    let mut start = None;
    for (i, key) in keys.iter().enumerate() {
        let (k, v) = table.iter().find(|(k, _)| k.get_ref().as_ref() == *key)?;
        start = Some(k.span().start);
        if i + 1 < keys.len() {
            match v.get_ref() {
                toml::de::DeValue::Table(t) => table = t,
                _ => return None,
            }
        }
    }
    let start = start?;
    let before = text.get(..start)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((line, column))
}

/// `-A/-W/-D` flags in command-line order: `(level, name)`, names checked.
pub type LevelFlags = Vec<(Level, String)>;

/// The levels for one package: defaults, its configuration, then the command line.
pub fn resolve_levels(
    config: &Config,
    flags: &LevelFlags,
    codes: &dyn Codes,
) -> BTreeMap<&'static str, Level> {
    let mut levels: BTreeMap<&'static str, Level> = codes.defaults().into_iter().collect();
    for (code, level) in &config.levels {
        levels.insert(code, *level);
    }
    let mut warnings = None;
    for (level, name) in flags {
        if name == "warnings" {
            warnings = Some(*level);
        } else if let Some(code) = codes.find(name) {
            levels.insert(code, *level);
        }
    }
    if let Some(level) = warnings {
        for l in levels.values_mut() {
            if *l == Level::Warn {
                *l = level;
            }
        }
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two codes, so the configuration is tested without the lint registry.
    struct TwoCodes;

    static TWO_CODES: TwoCodes = TwoCodes;

    impl Codes for TwoCodes {
        fn find(&self, name: &str) -> Option<&'static str> {
            ["panic_in_tool", "error_leaks_internals"]
                .into_iter()
                .find(|c| *c == name.replace('-', "_"))
        }

        fn defaults(&self) -> Vec<(&'static str, Level)> {
            vec![
                ("panic_in_tool", Level::Warn),
                ("error_leaks_internals", Level::Warn),
            ]
        }

        fn unknown(&self, name: &str) -> String {
            format!("unknown lint `{name}`")
        }
    }

    fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write manifest");
        path
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcp-lint-config-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn package_inherits_and_overrides_workspace() {
        let dir = scratch("inherit");
        let ws = write(
            &dir,
            "ws.toml",
            "[workspace.metadata.mcp-lint.lints]\npanic_in_tool = \"deny\"\nerror_leaks_internals = \"allow\"\n",
        );
        let pkg = write(
            &dir,
            "pkg.toml",
            "[package]\nname = \"x\"\n[package.metadata.mcp-lint]\nworkspace = true\nexclude = [\"src/gen/**\"]\n[package.metadata.mcp-lint.lints]\nerror_leaks_internals = \"warn\"\n",
        );
        let config = Config::load(&pkg, Some(&ws), &TWO_CODES).expect("valid config");
        let levels = resolve_levels(
            &config,
            &vec![(Level::Allow, "panic_in_tool".into())],
            &TWO_CODES,
        );
        assert_eq!(levels["panic_in_tool"], Level::Allow);
        assert_eq!(levels["error_leaks_internals"], Level::Warn);
        assert!(config.excludes(Path::new("src/gen/a.rs")));
        assert!(!config.excludes(Path::new("src/main.rs")));
    }

    #[test]
    fn unknown_keys_and_lints_are_errors() {
        let dir = scratch("errors");
        let pkg = write(&dir, "a.toml", "[package.metadata.mcp-lint]\nlevel = 1\n");
        let err = Config::load(&pkg, None, &TWO_CODES).expect_err("unknown key");
        assert!(err.contains("unknown key `level`"), "{err}");
        let pkg = write(
            &dir,
            "b.toml",
            "[package.metadata.mcp-lint.lints]\nno_such = \"warn\"\n",
        );
        let err = Config::load(&pkg, None, &TWO_CODES).expect_err("unknown lint");
        assert!(err.contains("unknown lint `no_such`"), "{err}");
        let pkg = write(
            &dir,
            "c.toml",
            "[package.metadata.mcp-lint.lints]\npanic_in_tool = \"loud\"\n",
        );
        assert!(Config::load(&pkg, None, &TWO_CODES).is_err());
    }
}
