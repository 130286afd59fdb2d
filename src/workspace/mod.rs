//! Which packages, which files, which dependencies and versions.
//!
//! Two entry points: `cargo metadata --no-deps` (for `cargo mcp-lint`) and plain paths
//! (for `mcp-lint PATH...`), where each file belongs to the nearest package manifest.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

mod files;
pub(crate) mod manifest;

pub use crate::version::Version;
pub use files::{source_files, source_files_and_links};
use manifest::read_toml;
use manifest::targets_of;
pub use manifest::{
    Dependency, ManifestFacts, Target, dependencies_of, panic_abort_settings, read_manifest_text,
};

#[derive(Clone, Debug)]
pub struct Package {
    pub id: String,
    pub name: String,
    pub version: String,
    /// The package's Rust edition (`2015` when the manifest names none, as cargo does).
    pub edition: String,
    pub manifest_path: PathBuf,
    pub targets: Vec<Target>,
    pub dependencies: Vec<Dependency>,
    /// Versions from the nearest Cargo.lock: package name → versions present.
    pub locked: BTreeMap<String, Vec<Version>>,
    /// Files to lint, in a stable order.
    pub files: Vec<PathBuf>,
    /// The manifest whose `[profile.*]` tables apply: the workspace root's.
    pub profile_manifest: PathBuf,
    /// Loaded only as code a linted package depends on by path (a sibling member of its
    /// workspace): followed from that package's handlers, not linted on its own.
    pub context_only: bool,
}

impl Package {
    pub fn root(&self) -> &Path {
        self.manifest_path.parent().unwrap_or(Path::new("."))
    }

    pub fn dependency(&self, package: &str) -> Option<&Dependency> {
        self.dependencies.iter().find(|d| d.package == package)
    }

    /// The version of `package` this crate builds with: from Cargo.lock when it is there
    /// (the highest locked version the requirement admits), else the requirement's minimum.
    pub fn resolved_version(&self, package: &str) -> Option<Version> {
        let dep = self.dependency(package)?;
        let minimum = dep
            .requirement
            .as_deref()
            .and_then(Version::from_requirement);
        let locked = self.locked.get(package).and_then(|versions| {
            versions
                .iter()
                .filter(|v| minimum.is_none_or(|m| compatible(m, **v)))
                .max()
                .copied()
        });
        locked.or(minimum)
    }

    /// The binary and library targets' source files.
    pub fn has_binary(&self) -> bool {
        self.targets
            .iter()
            .any(|t| t.kind.iter().any(|k| k == "bin"))
    }
}

/// Whether `v` satisfies a caret requirement whose minimum is `min`.
fn compatible(min: Version, v: Version) -> bool {
    if v < min {
        return false;
    }
    match (min.0, min.1) {
        (0, 0) => v.0 == 0 && v.1 == 0 && v.2 == min.2,
        (0, minor) => v.0 == 0 && v.1 == minor,
        (major, _) => v.0 == major,
    }
}

/// The packages to lint and the directory paths are shown relative to.
#[derive(Debug)]
pub struct Workspace {
    pub root: PathBuf,
    pub packages: Vec<Package>,
    /// Manifests found while walking that could not be read: reported, then skipped.
    pub skipped: Vec<(PathBuf, String)>,
    /// File contents to use instead of the disk (in-memory analysis, fuzzing).
    pub overlay: std::collections::HashMap<PathBuf, String>,
}

#[derive(Debug)]
pub struct WorkspaceError(pub String);

impl fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the user selected with cargo's flags.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub manifest_path: Option<PathBuf>,
    pub packages: Vec<String>,
    pub workspace: bool,
    pub exclude: Vec<String>,
}

/// Loads the workspace through `cargo metadata --no-deps`.
pub fn from_cargo(selection: &Selection) -> Result<Workspace, WorkspaceError> {
    let manifest = manifest_to_start_from(selection.manifest_path.as_deref())?;
    let output = crate::spawn::cargo_metadata(&manifest)
        .map_err(|e| WorkspaceError(format!("could not run `cargo metadata`: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(WorkspaceError(format!(
            "`cargo metadata` failed: {}",
            stderr.trim()
        )));
    }
    let meta: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| WorkspaceError(format!("`cargo metadata` printed invalid JSON: {e}")))?;
    let root = PathBuf::from(meta["workspace_root"].as_str().unwrap_or("."));
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let default_members: Vec<&str> = meta["workspace_default_members"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_else(|| members.clone());
    let all = meta["packages"].as_array().cloned().unwrap_or_default();
    let root_manifest = read_toml(&root.join("Cargo.toml")).ok();

    let mut packages = Vec::new();
    let mut skipped = Vec::new();
    for spec in &selection.packages {
        if !all.iter().any(|p| spec_matches(spec, p)) {
            return Err(WorkspaceError(format!(
                "package ID specification `{spec}` did not match any packages"
            )));
        }
    }
    for pkg in &all {
        let id = pkg["id"].as_str().unwrap_or_default();
        let chosen = if !selection.packages.is_empty() {
            selection.packages.iter().any(|s| spec_matches(s, pkg))
        } else if selection.workspace {
            members.contains(&id)
        } else {
            default_members.contains(&id)
        };
        let excluded = selection.exclude.iter().any(|s| spec_matches(s, pkg));
        if !chosen || excluded {
            continue;
        }
        let manifest_path = PathBuf::from(pkg["manifest_path"].as_str().unwrap_or_default());
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|k| {
                    k.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let targets = pkg["targets"]
            .as_array()
            .map(|ts| {
                ts.iter()
                    .map(|t| Target {
                        name: t["name"].as_str().unwrap_or_default().to_string(),
                        kind: strings(&t["kind"]),
                        crate_types: strings(&t["crate_types"]),
                        src_path: PathBuf::from(t["src_path"].as_str().unwrap_or_default()),
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Declared dependencies come from the manifest itself: `cargo metadata` drops
        // `workspace = true` details we need (features from the workspace table).
        let manifest = read_toml(&manifest_path).map_err(WorkspaceError)?;
        let dependencies = dependencies_of(&manifest, root_manifest.as_ref());
        let mut package = Package {
            id: id.to_string(),
            name: pkg["name"].as_str().unwrap_or_default().to_string(),
            version: pkg["version"].as_str().unwrap_or_default().to_string(),
            edition: pkg["edition"].as_str().unwrap_or("2015").to_string(),
            manifest_path,
            targets,
            dependencies,
            locked: BTreeMap::new(),
            files: Vec::new(),
            profile_manifest: root.join("Cargo.toml"),
            context_only: false,
        };
        package.locked =
            crate::lockfile::read(package.root(), &|name| package.dependency(name).is_some())
                .map_err(WorkspaceError)?;
        let (files, links) = source_files_and_links(package.root());
        package.files = files;
        skipped.extend(links.into_iter().map(link_skipped));
        packages.push(package);
    }
    add_path_dependencies(&mut packages, &mut skipped, &root);
    Ok(Workspace {
        root,
        packages,
        skipped,
        overlay: Default::default(),
    })
}

/// The manifest cargo would start from, as an absolute path: cargo runs from a neutral
/// directory, so a relative `--manifest-path` or the current directory would mean nothing
/// there.
fn manifest_to_start_from(given: Option<&Path>) -> Result<PathBuf, WorkspaceError> {
    let cwd = std::env::current_dir()
        .map_err(|e| WorkspaceError(format!("cannot read the current directory: {e}")))?;
    if let Some(path) = given {
        return Ok(cwd.join(path));
    }
    cwd.ancestors()
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
        .ok_or_else(|| {
            WorkspaceError(format!(
                "could not find `Cargo.toml` in `{}` or any parent directory",
                cwd.display()
            ))
        })
}

fn link_skipped(path: PathBuf) -> (PathBuf, String) {
    (
        path,
        "a symbolic link: not followed (it may leave the package or loop)".to_string(),
    )
}

fn spec_matches(spec: &str, pkg: &Value) -> bool {
    let name = pkg["name"].as_str().unwrap_or_default();
    let version = pkg["version"].as_str().unwrap_or_default();
    let id = pkg["id"].as_str().unwrap_or_default();
    if spec == name || spec == id || spec == format!("{name}@{version}") {
        return true;
    }
    // A package ID spec such as `path+file:///ws/foo#0.1.0` or `path+file:///ws/foo#foo@0.1.0`.
    match (spec.split_once('#'), id.split_once('#')) {
        (Some((spec_url, spec_frag)), Some((id_url, id_frag))) => {
            spec_url == id_url && (spec_frag == id_frag || spec_frag.ends_with(version))
        }
        (None, Some((id_url, _))) => spec == id_url,
        _ => false,
    }
}

/// Adds, as context only, the packages of the same workspace that the loaded ones depend on
/// by path, directly or through each other: a server's tools call into them, so linting the
/// server's directory follows that code as linting the workspace does. Only directories
/// inside the workspace root or the directory mcp-lint runs in are followed (a path
/// dependency pointing out of the tree is not read), each manifest once.
fn add_path_dependencies(
    packages: &mut Vec<Package>,
    skipped: &mut Vec<(PathBuf, String)>,
    tree: &Path,
) {
    let canonical = |p: &Path| p.canonicalize().ok();
    let tree = canonical(tree);
    let mut seen: Vec<PathBuf> = packages
        .iter()
        .filter_map(|p| canonical(&p.manifest_path))
        .collect();
    let mut i = 0;
    while i < packages.len() {
        let package = &packages[i];
        let workspace_dir = package.profile_manifest.parent().and_then(canonical);
        let mut found = Vec::new();
        for dep in &package.dependencies {
            let (Some((path, from_workspace)), Some(root)) = (&dep.path, &workspace_dir) else {
                continue;
            };
            let base = if *from_workspace {
                root.clone()
            } else {
                package.root().to_path_buf()
            };
            let Some(dir) = canonical(&base.join(path)) else {
                continue;
            };
            let manifest = dir.join("Cargo.toml");
            let inside = dir.starts_with(root) || tree.as_ref().is_some_and(|t| dir.starts_with(t));
            if !inside || !crate::read::is_regular(&manifest) || seen.contains(&manifest) {
                continue;
            }
            seen.push(manifest.clone());
            found.push((dir, manifest));
        }
        for (dir, manifest) in found {
            let (mut files, links) = source_files_and_links(&dir);
            skipped.extend(links.into_iter().map(link_skipped));
            files.sort();
            if let Ok(mut linked) = package_from_manifest(manifest, files) {
                linked.context_only = true;
                packages.push(linked);
            }
        }
        i += 1;
    }
}

/// Loads packages for explicit paths: each file is linted with its nearest manifest.
pub fn from_paths(paths: &[PathBuf]) -> Result<Workspace, WorkspaceError> {
    let root = std::env::current_dir()
        .map_err(|e| WorkspaceError(format!("cannot read the current directory: {e}")))?;
    let mut by_manifest: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    let mut loose = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(WorkspaceError(format!(
                "{}: no such file or directory",
                path.display()
            )));
        }
        if path.is_dir() {
            let (manifests, mut broken) = package_manifests_under(path);
            skipped.append(&mut broken);
            if manifests.is_empty() {
                // A directory inside a package (or no package at all).
                // Nested packages are not walked into, so one manifest holds all its files.
                let (files, links) = source_files_and_links(path);
                skipped.extend(links.into_iter().map(link_skipped));
                match nearest_manifest(path)? {
                    Some(manifest) => by_manifest.entry(manifest).or_default().extend(files),
                    None => loose.extend(files),
                }
            } else {
                for m in manifests {
                    let (files, links) = source_files_and_links(m.parent().unwrap_or(path));
                    skipped.extend(links.into_iter().map(link_skipped));
                    let manifest = m.canonicalize().unwrap_or(m);
                    by_manifest.entry(manifest).or_default().extend(files);
                }
            }
        } else {
            match nearest_manifest(path.parent().unwrap_or(Path::new(".")))? {
                Some(manifest) => by_manifest.entry(manifest).or_default().push(path.clone()),
                None => loose.push(path.clone()),
            }
        }
    }
    let mut packages = Vec::new();
    for (manifest_path, mut files) in by_manifest {
        files.sort();
        files.dedup();
        packages.push(package_from_manifest(manifest_path, files)?);
    }
    add_path_dependencies(&mut packages, &mut skipped, &root);
    if !loose.is_empty() {
        loose.sort();
        loose.dedup();
        packages.push(Package {
            id: String::new(),
            name: String::from("(no package)"),
            version: String::new(),
            edition: String::from("2015"),
            manifest_path: root.join("Cargo.toml"),
            targets: Vec::new(),
            dependencies: Vec::new(),
            locked: BTreeMap::new(),
            files: loose,
            profile_manifest: PathBuf::new(),
            context_only: false,
        });
    }
    Ok(Workspace {
        root,
        packages,
        skipped,
        overlay: Default::default(),
    })
}

/// Every `Cargo.toml` with a `[package]` table under `dir`, git-ignore aware.
/// Manifests that are not valid TOML are returned apart, to be reported and skipped: a tree
/// may hold broken manifests on purpose (test fixtures).
fn package_manifests_under(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
    let mut manifests = Vec::new();
    let mut broken = Vec::new();
    let walk = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .filter_entry(|e| e.file_name() != "target")
        .build();
    for entry in walk.filter_map(Result::ok) {
        if entry.file_name() != "Cargo.toml" {
            continue;
        }
        let path = entry.into_path();
        match read_toml(&path) {
            Ok(t) if t.get("package").is_some() => manifests.push(path),
            Ok(_) => {}
            Err(e) => broken.push((path, e)),
        }
    }
    manifests.sort();
    (manifests, broken)
}

/// The nearest `Cargo.toml` with a `[package]` table at or above `dir`. A manifest on the way
/// that is not valid TOML is an error, not a reason to look further up.
fn nearest_manifest(dir: &Path) -> Result<Option<PathBuf>, WorkspaceError> {
    let Ok(dir) = dir.canonicalize() else {
        return Ok(None);
    };
    for manifest in dir.ancestors().map(|d| d.join("Cargo.toml")) {
        // Whatever its type: a link or a FIFO named Cargo.toml is reported, not skipped.
        if std::fs::symlink_metadata(&manifest).is_ok()
            && read_toml(&manifest)
                .map_err(WorkspaceError)?
                .get("package")
                .is_some()
        {
            return Ok(Some(manifest));
        }
    }
    Ok(None)
}

fn package_from_manifest(
    manifest_path: PathBuf,
    files: Vec<PathBuf>,
) -> Result<Package, WorkspaceError> {
    let manifest = read_toml(&manifest_path).map_err(WorkspaceError)?;
    let dir = manifest_path
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let workspace = dir
        .ancestors()
        .skip(1)
        .map(|d| d.join("Cargo.toml"))
        .filter(|m| crate::read::is_regular(m))
        .filter_map(|m| read_toml(&m).ok().map(|t| (m, t)))
        .find(|(_, t)| t.get("workspace").is_some());
    let profile_manifest = workspace
        .as_ref()
        .map_or_else(|| manifest_path.clone(), |(m, _)| m.clone());
    let workspace_manifest = workspace.map(|(_, t)| t);
    let package = manifest.get("package");
    let name = package
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .unwrap_or("unnamed")
        .to_string();
    let version = package
        .and_then(|p| p.get("version"))
        .and_then(toml::Value::as_str)
        .unwrap_or("0.0.0")
        .to_string();
    let edition = match package.and_then(|p| p.get("edition")) {
        Some(toml::Value::String(e)) => e.clone(),
        // `edition.workspace = true`: the workspace's `[workspace.package]` edition.
        Some(_) => workspace_manifest
            .as_ref()
            .and_then(|w| w.get("workspace"))
            .and_then(|w| w.get("package"))
            .and_then(|p| p.get("edition"))
            .and_then(toml::Value::as_str)
            .unwrap_or("2015")
            .to_string(),
        None => "2015".to_string(),
    };
    let url = format!("path+file://{}", dir.display());
    let dependencies = dependencies_of(&manifest, workspace_manifest.as_ref());
    let locked =
        crate::lockfile::read(&dir, &|name| dependencies.iter().any(|d| d.package == name))
            .map_err(WorkspaceError)?;
    Ok(Package {
        id: format!("{url}#{name}@{version}"),
        edition,
        targets: targets_of(&manifest, &dir, &name),
        dependencies,
        locked,
        name,
        version,
        manifest_path,
        files,
        profile_manifest,
        context_only: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirement_minimums() {
        assert_eq!(Version::from_requirement("0.8"), Some(Version(0, 8, 0)));
        assert_eq!(Version::from_requirement("^1.4.2"), Some(Version(1, 4, 2)));
        assert_eq!(Version::from_requirement(">=1, <3"), Some(Version(1, 0, 0)));
        assert_eq!(Version::from_requirement("=3.1.3"), Some(Version(3, 1, 3)));
        assert_eq!(Version::from_requirement("*"), None);
    }

    #[test]
    fn abort_profiles() {
        let manifest = "[package]\nname = \"x\"\n\n[profile.release]\nlto = true\npanic = \"abort\"  # small\n[profile.dev]\npanic = \"unwind\"\n";
        let found = panic_abort_settings(manifest);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "release");
        assert_eq!(&manifest[found[0].1.clone()], "panic = \"abort\"");
    }

    #[test]
    fn caret_compatibility() {
        assert!(compatible(Version(0, 8, 0), Version(0, 8, 5)));
        assert!(!compatible(Version(0, 8, 0), Version(0, 9, 0)));
        assert!(compatible(Version(1, 4, 0), Version(1, 8, 0)));
        assert!(!compatible(Version(1, 4, 0), Version(2, 0, 0)));
    }
}
