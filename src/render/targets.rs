//! Which of a package's targets a file belongs to: the one whose module tree holds it,
//! followed through `mod NAME;` declarations from the target's root file, as cargo reports it
//! in `compiler-message` lines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::source::SourceMap;
use crate::workspace::{Package, Target};

/// Finds targets for files, reading each module file at most once.
pub struct Targets<'a> {
    sources: &'a SourceMap,
    /// Top-level `mod NAME;` declarations per file (canonical path).
    declared: HashMap<PathBuf, Vec<String>>,
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

impl<'a> Targets<'a> {
    pub fn new(sources: &'a SourceMap) -> Self {
        Targets {
            sources,
            declared: HashMap::new(),
        }
    }

    /// The target of `package` that holds `file`: one whose module tree declares it (the
    /// library first, as cargo lists it), else the one whose root directory is nearest.
    pub fn of<'p>(&mut self, package: &'p Package, file: &Path) -> Option<&'p Target> {
        let file = canonical(file);
        let buildable = |t: &&Target| {
            t.kind
                .iter()
                .all(|k| !matches!(k.as_str(), "example" | "test" | "bench" | "custom-build"))
        };
        let candidates: Vec<&Target> = package.targets.iter().filter(buildable).collect();
        if let Some(t) = candidates
            .iter()
            .find(|t| canonical(&t.src_path) == file || self.holds(t, &file))
        {
            return Some(t);
        }
        // Not declared anywhere we can see (a `#[path]` module, or an orphan file): the
        // target whose root directory holds it most closely.
        candidates
            .iter()
            .filter_map(|t| {
                let dir = canonical(t.src_path.parent()?);
                file.starts_with(&dir)
                    .then(|| (dir.components().count(), *t))
            })
            .max_by_key(|(depth, _)| *depth)
            .map(|(_, t)| t)
            .or_else(|| candidates.first().copied())
            .or_else(|| package.targets.first())
    }

    /// Whether the chain of `mod` declarations from `target`'s root reaches `file`.
    fn holds(&mut self, target: &Target, file: &Path) -> bool {
        let root = canonical(&target.src_path);
        let Some(dir) = root.parent().map(Path::to_path_buf) else {
            return false;
        };
        let Ok(relative) = file.strip_prefix(&dir) else {
            return false;
        };
        let mut modules: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if modules.last().is_some_and(|m| m == "mod") {
            modules.pop();
        }
        let mut declaring = root;
        let mut here = dir;
        for module in &modules {
            if !self.declarations(&declaring).contains(module) {
                return false;
            }
            let flat = here.join(format!("{module}.rs"));
            declaring = if flat.is_file() {
                flat
            } else {
                here.join(module).join("mod.rs")
            };
            here = here.join(module);
        }
        true
    }

    fn declarations(&mut self, path: &Path) -> &[String] {
        let sources = self.sources;
        self.declared.entry(path.to_path_buf()).or_insert_with(|| {
            // Module roots are few; files only in memory (the fuzzer's) are found by path.
            // A root outside the run is read like any source: a regular file, bounded.
            let text = crate::read::regular_file(path)
                .ok()
                .or_else(|| {
                    let file = sources
                        .files
                        .iter()
                        .find(|f| f.path == path && f.is_held())?;
                    Some(file.text().to_string())
                })
                .unwrap_or_default();
            mod_declarations(&text)
        })
    }
}

/// The names of a file's top-level `mod NAME;` declarations, parsed as the analysis parses:
/// on a stack sized from the nesting bound, with what is too deep left out.
fn mod_declarations(text: &str) -> Vec<String> {
    let prepared = crate::source::prepare(text);
    let parsed = crate::source::on_stack(prepared.stack, move || {
        let names = std::panic::catch_unwind(|| {
            let ast = syn::parse_file(&prepared.text).ok()?;
            Some(
                ast.items
                    .iter()
                    .filter_map(|item| match item {
                        syn::Item::Mod(m) if m.content.is_none() => Some(m.ident.to_string()),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            )
        });
        proc_macro2::extra::invalidate_current_thread_spans();
        names.ok().flatten()
    });
    parsed.ok().flatten().unwrap_or_default()
}
