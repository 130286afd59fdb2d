//! A server's source as text, and the module tree of each crate in it.
//!
//! The rewrites work on text (they splice at syn's spans, so everything they do not touch keeps
//! its bytes and lines), and some need to know which crate and module a file belongs to: where
//! a crate's root is, what `crate::` means in a file, where a new child module's file goes.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// The files of a server: paths relative to its root, with `/` separators.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    pub files: BTreeMap<String, String>,
}

/// Files a lint run reads; everything else in a tree is left out.
fn kept(name: &str) -> bool {
    name.ends_with(".rs") || name == "Cargo.toml" || name == "Cargo.lock"
}

impl Tree {
    pub fn new(files: impl IntoIterator<Item = (String, String)>) -> Tree {
        Tree {
            files: files.into_iter().collect(),
        }
    }

    /// Reads the Rust files and manifests under `dir` (not `target/` or hidden folders, no
    /// links; files that are not UTF-8 are left out, as the linter skips them too).
    pub fn read(dir: &Path) -> io::Result<Tree> {
        let mut tree = Tree::default();
        read_into(dir, "", &mut tree)?;
        Ok(tree)
    }

    /// Writes the tree under `dir`, which must not exist or be empty.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        for (path, text) in &self.files {
            let full = dir.join(path);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(full, text)?;
        }
        Ok(())
    }

    /// The Rust files, in path order.
    pub fn rust_files(&self) -> impl Iterator<Item = (&String, &String)> {
        self.files.iter().filter(|(p, _)| p.ends_with(".rs"))
    }

    /// Every crate of every package in the tree, with its modules.
    pub fn crates(&self) -> Vec<Crate> {
        let mut crates = Vec::new();
        for (path, manifest) in &self.files {
            let Some(dir) = path.strip_suffix("Cargo.toml") else {
                continue;
            };
            let Some(name) = package_name(manifest) else {
                continue;
            };
            for root in crate_roots(self, dir, manifest) {
                let mut krate = Crate {
                    name: name.replace('-', "_"),
                    root: root.clone(),
                    modules: Vec::new(),
                };
                let child_dir = parent_dir(&root).to_string();
                walk_modules(self, &root, Vec::new(), child_dir, &mut krate.modules, 0);
                crates.push(krate);
            }
        }
        crates
    }

    /// The names of the packages' crates (`my_server`): paths that start with one of them are
    /// the tree's own, not a dependency's.
    pub fn crate_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.crates().into_iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        names
    }
}

fn read_into(dir: &Path, prefix: &str, tree: &mut Tree) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        let rel = format!("{prefix}{name}");
        if kind.is_dir() {
            if name != "target" && !name.starts_with('.') {
                read_into(&entry.path(), &format!("{rel}/"), tree)?;
            }
        } else if kind.is_file()
            && kept(&name)
            && let Ok(text) = std::fs::read_to_string(entry.path())
        {
            tree.files.insert(rel, text);
        }
    }
    Ok(())
}

/// A crate: its root file and every module file reached from it by `mod name;`.
#[derive(Clone, Debug)]
pub struct Crate {
    /// The package name as code spells it (`-` → `_`).
    pub name: String,
    pub root: String,
    pub modules: Vec<ModuleFile>,
}

/// One file of a crate's module tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleFile {
    pub file: String,
    /// The module path from the crate root (empty for the root).
    pub path: Vec<String>,
    /// The folder where this module's own `mod child;` files live.
    pub child_dir: String,
}

impl Crate {
    pub fn module_of(&self, file: &str) -> Option<&ModuleFile> {
        self.modules.iter().find(|m| m.file == file)
    }
}

fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if in_package && let Some(rest) = line.strip_prefix("name") {
            let value = rest.trim_start().strip_prefix('=')?.trim();
            return Some(value.trim_matches('"').to_string());
        }
    }
    None
}

/// The conventional targets, and the `path = ".."` of `[lib]` and `[[bin]]` tables.
fn crate_roots(tree: &Tree, dir: &str, manifest: &str) -> Vec<String> {
    let mut roots: Vec<String> = Vec::new();
    for line in manifest.lines() {
        if let Some(rest) = line.trim().strip_prefix("path")
            && let Some(value) = rest.trim_start().strip_prefix('=')
        {
            let value = value.trim().trim_matches('"').trim_start_matches("./");
            if value.ends_with(".rs") {
                roots.push(format!("{dir}{value}"));
            }
        }
    }
    for conventional in ["src/lib.rs", "src/main.rs"] {
        roots.push(format!("{dir}{conventional}"));
    }
    let bin_dir = format!("{dir}src/bin/");
    for path in tree.files.keys() {
        if let Some(rest) = path.strip_prefix(&bin_dir)
            && (!rest.contains('/') || rest.ends_with("/main.rs"))
        {
            roots.push(path.clone());
        }
    }
    roots.retain(|r| tree.files.contains_key(r));
    roots.sort();
    roots.dedup();
    roots
}

fn parent_dir(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

/// Deep enough for any real module tree; a cycle of `#[path]` modules stops here.
const MAX_MODULE_DEPTH: usize = 32;

fn walk_modules(
    tree: &Tree,
    file: &str,
    path: Vec<String>,
    child_dir: String,
    out: &mut Vec<ModuleFile>,
    depth: usize,
) {
    if depth > MAX_MODULE_DEPTH || out.iter().any(|m| m.file == file) {
        return;
    }
    let Some(text) = tree.files.get(file) else {
        return;
    };
    out.push(ModuleFile {
        file: file.to_string(),
        path: path.clone(),
        child_dir: child_dir.clone(),
    });
    let Ok(ast) = syn::parse_file(text) else {
        return;
    };
    let mut found = Vec::new();
    out_of_line_modules(&ast.items, &child_dir, parent_dir(file), &path, &mut found);
    for (child_file, child_path, grandchild_dir) in found {
        walk_modules(
            tree,
            &child_file,
            child_path,
            grandchild_dir,
            out,
            depth + 1,
        );
    }
    // Files that do not exist are simply not part of the tree (a generated or cfg'd-out one).
    out.retain(|m| tree.files.contains_key(&m.file));
}

/// `mod name;` declarations within `items` (inline modules descended into): the file each
/// names, its module path, and the folder of its own children.
fn out_of_line_modules(
    items: &[syn::Item],
    dir: &str,
    file_dir: &str,
    path: &[String],
    found: &mut Vec<(String, Vec<String>, String)>,
) {
    for item in items {
        let syn::Item::Mod(module) = item else {
            continue;
        };
        let name = module.ident.to_string();
        let mut child_path = path.to_vec();
        child_path.push(name.clone());
        match &module.content {
            Some((_, inner)) => {
                let inner_dir = format!("{dir}{name}/");
                out_of_line_modules(inner, &inner_dir, file_dir, &child_path, found);
            }
            None => {
                let (file, child_dir) = match path_attribute(&module.attrs) {
                    Some(p) => {
                        let file = normalize(&format!("{file_dir}{p}"));
                        let child = parent_dir(&file).to_string();
                        (file, child)
                    }
                    None => (format!("{dir}{name}.rs"), format!("{dir}{name}/")),
                };
                found.push((file.clone(), child_path.clone(), child_dir.clone()));
                // `name/mod.rs` is the other spelling; only one of them exists.
                found.push((
                    format!("{dir}{name}/mod.rs"),
                    child_path,
                    format!("{dir}{name}/"),
                ));
            }
        }
    }
}

fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        if !a.path().is_ident("path") {
            return None;
        }
        let syn::Meta::NameValue(nv) = &a.meta else {
            return None;
        };
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}

/// `a/b/../c.rs` → `a/c.rs`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        Tree::new(files.iter().map(|(p, t)| (p.to_string(), t.to_string())))
    }

    #[test]
    fn modules_are_found_through_both_file_spellings_inline_modules_and_path_attributes() {
        let t = tree(&[
            ("Cargo.toml", "[package]\nname = \"my-server\"\n"),
            (
                "src/main.rs",
                "mod a;\nmod b;\nmod c { mod d; }\n#[path = \"other/e.rs\"] mod e;\nfn main() {}",
            ),
            ("src/a.rs", "mod inner;"),
            ("src/a/inner.rs", ""),
            ("src/b/mod.rs", ""),
            ("src/c/d.rs", ""),
            ("src/other/e.rs", ""),
            ("src/unused.rs", ""),
        ]);
        let crates = t.crates();
        assert_eq!(crates.len(), 1);
        let k = &crates[0];
        assert_eq!(k.name, "my_server");
        let mut seen: Vec<(String, String)> = k
            .modules
            .iter()
            .map(|m| (m.file.clone(), m.path.join("::")))
            .collect();
        seen.sort();
        assert_eq!(
            seen,
            [
                ("src/a.rs", "a"),
                ("src/a/inner.rs", "a::inner"),
                ("src/b/mod.rs", "b"),
                ("src/c/d.rs", "c::d"),
                ("src/main.rs", ""),
                ("src/other/e.rs", "e"),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(
            k.module_of("src/a.rs").map(|m| m.child_dir.as_str()),
            Some("src/a/")
        );
        assert_eq!(
            k.module_of("src/b/mod.rs").map(|m| m.child_dir.as_str()),
            Some("src/b/")
        );
    }

    #[test]
    fn each_target_of_a_package_is_a_crate() {
        let t = tree(&[
            (
                "srv/Cargo.toml",
                "[package]\nname = \"srv\"\n[[bin]]\nname = \"x\"\npath = \"tools/x.rs\"\n",
            ),
            ("srv/src/lib.rs", ""),
            ("srv/src/main.rs", ""),
            ("srv/src/bin/two.rs", ""),
            ("srv/tools/x.rs", ""),
        ]);
        let mut roots: Vec<String> = t.crates().into_iter().map(|c| c.root).collect();
        roots.sort();
        assert_eq!(
            roots,
            [
                "srv/src/bin/two.rs",
                "srv/src/lib.rs",
                "srv/src/main.rs",
                "srv/tools/x.rs"
            ]
        );
    }
}
