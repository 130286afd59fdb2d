//! The `.rs` files of a package, as cargo would compile them.

use std::path::{Path, PathBuf};

/// The `.rs` files of a package: git-ignore aware, without `target/`, `tests/`, `benches/`,
/// `examples/`, `build.rs` and nested packages.
pub fn source_files(package_root: &Path) -> Vec<PathBuf> {
    source_files_and_links(package_root).0
}

/// As [`source_files`], plus the `.rs` symbolic links met on the way: links are not followed
/// (a link can leave the package or loop), so they are reported instead.
pub fn source_files_and_links(package_root: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let root = package_root.to_path_buf();
    let mut files = Vec::new();
    let mut links = Vec::new();
    let walk = ignore::WalkBuilder::new(&root)
        .hidden(true)
        .parents(true)
        .require_git(false)
        .filter_entry(move |entry| {
            let path = entry.path();
            if path == root {
                return true;
            }
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if is_dir {
                let name = entry.file_name().to_str().unwrap_or("");
                let top_level = path.parent() == Some(root.as_path());
                let skipped_top = top_level
                    && matches!(name, "tests" | "benches" | "examples" | "target" | "fuzz");
                return !skipped_top && name != "target" && !path.join("Cargo.toml").is_file();
            }
            !(path.parent() == Some(root.as_path()) && entry.file_name() == "build.rs")
        })
        .build();
    for entry in walk.filter_map(Result::ok) {
        let Some(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.into_path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        if kind.is_file() {
            files.push(path);
        } else if kind.is_symlink() {
            links.push(path);
        }
    }
    files.sort();
    links.sort();
    (files, links)
}

pub(super) fn walk_rs(dir: &Path, recursive: bool) -> Vec<PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(dir)
        .max_depth(if recursive { None } else { Some(1) })
        .require_git(false)
        .filter_entry(|e| e.file_name() != "target")
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    files
}
