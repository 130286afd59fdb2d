//! The versions a `Cargo.lock` records, read line by line. Cargo writes lock files in one
//! fixed shape, and a TOML parse of a large one costs more than reading a server's sources;
//! any line outside that shape sends the caller back to the TOML parser, which also reports a
//! broken file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::version::Version;

/// Each package name with its locked versions, or `None` when a line is not one Cargo writes.
pub fn scan(text: &str) -> Option<BTreeMap<String, Vec<Version>>> {
    let mut locked: BTreeMap<String, Vec<Version>> = BTreeMap::new();
    let mut in_package = false;
    let mut in_list = false;
    let mut name: Option<&str> = None;
    let mut version: Option<Version> = None;
    let mut flush = |name: &mut Option<&str>, version: &mut Option<Version>| {
        if let (Some(n), Some(v)) = (name.take(), version.take()) {
            locked.entry(n.to_string()).or_default().push(v);
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if in_list {
            match line {
                "]" => in_list = false,
                _ if quoted(line.trim_end_matches(',')).is_some() => {}
                _ => return None,
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            flush(&mut name, &mut version);
            in_package = match line {
                "[[package]]" => true,
                "[metadata]" | "[[patch.unused]]" => false,
                _ => return None,
            };
            continue;
        }
        let (key, value) = line.split_once(" = ")?;
        match (in_package, key, value) {
            (_, "dependencies", "[") => in_list = true,
            (_, _, "[]") => {}
            (true, "name", v) => name = Some(quoted(v)?),
            (true, "version", v) => version = Some(Version::parse(quoted(v)?)?),
            (true, "source" | "checksum", v) => {
                quoted(v)?;
            }
            (false, "version", v) if v.bytes().all(|b| b.is_ascii_digit()) => {}
            // `[metadata]` of old lock files: `"checksum name version (source)" = "hash"`.
            (false, k, v) if quoted(k).is_some() && quoted(v).is_some() => {}
            _ => return None,
        }
    }
    if in_list {
        return None;
    }
    flush(&mut name, &mut version);
    Some(locked)
}

/// The text of a basic string without escapes (`"abc"`), as Cargo writes them.
fn quoted(value: &str) -> Option<&str> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then_some(inner)
}

/// The `[[package]]` versions of a lock file parsed as TOML.
fn locked_from_table(table: &toml::Table, locked: &mut BTreeMap<String, Vec<Version>>) {
    if let Some(packages) = table.get("package").and_then(toml::Value::as_array) {
        for p in packages {
            let name = p.get("name").and_then(toml::Value::as_str);
            let version = p
                .get("version")
                .and_then(toml::Value::as_str)
                .and_then(Version::parse);
            if let (Some(name), Some(version)) = (name, version) {
                locked.entry(name.to_string()).or_default().push(version);
            }
        }
    }
}

/// Versions recorded in the nearest `Cargo.lock` at or above `dir`, for the packages `wanted`
/// names (a package's own dependencies): a lock file lists every crate of the build, and each
/// package keeps only the few it asks about.
pub fn read(
    dir: &Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<BTreeMap<String, Vec<Version>>, String> {
    let Some(lock) = dir
        .ancestors()
        .map(|d| d.join("Cargo.lock"))
        .find(|p| std::fs::symlink_metadata(p).is_ok())
    else {
        return Ok(BTreeMap::new());
    };
    // Every member of a workspace shares the root's lock file, and members are loaded one
    // after another: the last file parsed (by path, size and modification time) is kept, so
    // it is parsed once per workspace while only one whole lock is ever held.
    let key = std::fs::symlink_metadata(&lock)
        .ok()
        .map(|m| (lock.clone(), m.len(), m.modified().ok()));
    let Some(key) = key else {
        return Ok(only(&parse(&lock)?, wanted));
    };
    static LAST: std::sync::Mutex<Option<LockEntry>> = std::sync::Mutex::new(None);
    let mut last = LAST
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !matches!(&*last, Some((k, _)) if *k == key) {
        *last = Some((key, parse(&lock)?));
    }
    Ok(last
        .as_ref()
        .map(|(_, locked)| only(locked, wanted))
        .unwrap_or_default())
}

fn only(
    locked: &BTreeMap<String, Vec<Version>>,
    wanted: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, Vec<Version>> {
    locked
        .iter()
        .filter(|(name, _)| wanted(name))
        .map(|(name, versions)| (name.clone(), versions.clone()))
        .collect()
}

fn parse(lock: &Path) -> Result<BTreeMap<String, Vec<Version>>, String> {
    let text = crate::read::regular_file(lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    if let Some(scanned) = scan(&text) {
        return Ok(scanned);
    }
    let table = crate::workspace::manifest::parse_toml(lock, &text)?;
    let mut locked = BTreeMap::new();
    locked_from_table(&table, &mut locked);
    Ok(locked)
}

/// A parsed lock file, by path, size and modification time.
type LockEntry = (
    (PathBuf, u64, Option<std::time::SystemTime>),
    BTreeMap<String, Vec<Version>>,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_cargo_writes() {
        let text = "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = \"rmcp\"\nversion = \"0.8.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"abc\"\ndependencies = [\n \"serde\",\n \"tokio 1.40.0\",\n]\n\n[[package]]\nname = \"rmcp\"\nversion = \"0.3.0\"\n\n[[package]]\nname = \"server\"\nversion = \"0.1.0\"\ndependencies = []\n";
        let locked = scan(text).expect("a Cargo lock file");
        assert_eq!(
            locked.get("rmcp"),
            Some(&vec![Version(0, 8, 1), Version(0, 3, 0)])
        );
        assert_eq!(locked.get("server"), Some(&vec![Version(0, 1, 0)]));
        assert_eq!(locked.len(), 2);
    }

    #[test]
    fn other_shapes_go_back_to_the_toml_parser() {
        for text in [
            "this is [not toml",
            "[[package]]\nname = 'single-quoted'\nversion = \"1.0.0\"\n",
            "[[package]]\nname = \"a\\u0062\"\nversion = \"1.0.0\"\n",
            "[[package]]\nname = \"a\"\nversion = \"1.0.0\"\ndependencies = [\n \"b\",\n",
            "[[package]]\nname = \"a\"\nextra = { inline = true }\n",
            "[workspace]\n",
        ] {
            assert_eq!(scan(text), None, "{text:?}");
        }
    }

    #[test]
    fn old_metadata_tables_are_read() {
        let text = "[[package]]\nname = \"a\"\nversion = \"1.2.3\"\n\n[metadata]\n\"checksum a 1.2.3 (registry+https://x)\" = \"ff\"\n";
        let locked = scan(text).expect("a Cargo lock file");
        assert_eq!(locked.get("a"), Some(&vec![Version(1, 2, 3)]));
    }

    #[test]
    fn a_package_keeps_the_versions_of_what_it_asks_about() {
        let dir = std::env::temp_dir().join(format!("mcp-lint-lock-{}", std::process::id()));
        let member = dir.join("member");
        std::fs::create_dir_all(&member).expect("a scratch directory");
        let lock = "version = 4\n\n[[package]]\nname = \"rmcp\"\nversion = \"0.8.1\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\n";
        std::fs::write(dir.join("Cargo.lock"), lock).expect("a lock file");
        let sdk_only = read(&member, &|name| name == "rmcp").expect("a readable lock");
        assert_eq!(sdk_only.len(), 1);
        assert_eq!(sdk_only.get("rmcp"), Some(&vec![Version(0, 8, 1)]));
        // The same lock file again, asked about other names: the kept parse answers them.
        let both = read(&dir, &|name| name != "absent").expect("a readable lock");
        assert_eq!(both.get("serde"), Some(&vec![Version(1, 0, 200)]));
        assert_eq!(both.len(), 2);
        assert!(read(&dir, &|_| false).expect("a readable lock").is_empty());
        std::fs::remove_dir_all(&dir).expect("the scratch directory removed");
    }
}
