//! `reexport`: imports from other crates go through a module of the crate that re-exports them.
//!
//! `use rmcp::{ErrorData as McpError, model::CallToolResult};` becomes
//! `use crate::mm_reexports::u0::{McpError, CallToolResult};`, and the crate root gets
//! `pub(crate) mod mm_reexports { pub mod u0 { pub use ::rmcp::{ErrorData as McpError, ..}; } }`
//! holding the original tree verbatim. A `pub use` re-exports every namespace of a name (the
//! trait and the derive macro of `serde::Serialize`, an attribute macro), so every use of an
//! imported name resolves to what it did before.
//!
//! Skipped, because the first segment may not be a crate or the new import may not bring the
//! same names: paths that start with `crate`/`self`/`super`, an upper-case segment, the tree's
//! own crates or any name the tree declares or imports (a module, an `extern crate` alias);
//! glob imports of a type's variants; trees with two globs; `use` items with `cfg_attr`;
//! imports in fn bodies. The `cfg`s of the import and of its enclosing modules go onto the new
//! submodule, so it exists exactly when the import did (an import of a dev-dependency in
//! `#[cfg(test)] mod tests` stays test-only). A file that is a module of two crates (`lib.rs`
//! and `main.rs` both declare it) is rewritten once, and both crate roots get its submodules.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::{Crate, Tree};

pub struct Reexport;

impl Family for Reexport {
    fn name(&self) -> &'static str {
        "reexport"
    }

    fn about(&self) -> &'static str {
        "imports of other crates go through a module of the crate that re-exports them"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let mut names = TreeNames::of(tree);
        let module = if names.all_idents.insert("mm_reexports".to_string()) {
            "mm_reexports".to_string()
        } else {
            names.fresh("mm_reexports")
        };
        let ctx = Context {
            names: &names,
            own_crates: tree.crate_names(),
            module,
        };
        let mut rewriter = Rewriter::new(tree);
        let mut numbers = Numbers::default();
        for krate in &tree.crates() {
            let mut walk = Walk {
                ctx: &ctx,
                krate,
                deps: dependencies(tree, &krate.root),
                tree,
                subs: Vec::new(),
                numbers: &mut numbers,
                rewriter: &mut rewriter,
            };
            walk.file(&krate.root, Vec::new(), Vec::new(), 0);
            let subs = std::mem::take(&mut walk.subs);
            add_module(&ctx, &krate.root, subs, &mut rewriter);
        }
        rewriter.finish()
    }
}

struct Context<'a> {
    names: &'a TreeNames,
    own_crates: Vec<String>,
    /// The name of the new module in every crate root.
    module: String,
}

/// A `cfg` attribute somewhere in the tree, copied onto a submodule.
type Cfg = (String, Range<usize>);

/// One submodule of the new module: its number, the original tree, and the `cfg`s it lives
/// under in this crate.
struct Sub {
    n: usize,
    cfgs: Vec<Cfg>,
    file: String,
    tree: Range<usize>,
}

/// The submodule number of each rewritten `use` item (by file and offset), for every crate:
/// a file that is a module of two crates (`lib.rs` and `main.rs` both declare it) has its
/// imports rewritten once, and each crate's new module holds their submodules.
#[derive(Default)]
struct Numbers {
    of: BTreeMap<(String, usize), Option<usize>>,
    next: usize,
}

/// Module files are deep enough below this; a cycle of `#[path]` modules stops here.
const MAX_DEPTH: usize = 32;

struct Walk<'a, 'r, 't> {
    ctx: &'a Context<'a>,
    krate: &'a Crate,
    /// The crates the crate's package depends on, and the ones that come with Rust.
    deps: BTreeSet<String>,
    tree: &'a Tree,
    subs: Vec<Sub>,
    numbers: &'r mut Numbers,
    rewriter: &'r mut Rewriter<'t>,
}

impl Walk<'_, '_, '_> {
    fn file(&mut self, file: &str, path: Vec<String>, cfgs: Vec<Cfg>, depth: usize) {
        let Some(text) = self.tree.files.get(file) else {
            return;
        };
        let Some(parsed) = Parsed::new(text) else {
            return;
        };
        self.items(file, &parsed, &parsed.ast.items, &path, &cfgs, depth);
    }

    fn items(
        &mut self,
        file: &str,
        parsed: &Parsed,
        items: &[syn::Item],
        path: &[String],
        cfgs: &[Cfg],
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for item in items {
            match item {
                syn::Item::Use(u) => self.use_item(file, parsed, u, cfgs),
                syn::Item::Mod(m) => {
                    let Some(mut inner) = own_cfgs(file, parsed, &m.attrs) else {
                        continue;
                    };
                    inner.splice(0..0, cfgs.iter().cloned());
                    let mut child = path.to_vec();
                    child.push(m.ident.to_string());
                    match &m.content {
                        Some((_, items)) => {
                            self.items(file, parsed, items, &child, &inner, depth + 1)
                        }
                        None => {
                            let Some(module) = self.krate.modules.iter().find(|f| f.path == child)
                            else {
                                continue;
                            };
                            let module_file = module.file.clone();
                            self.file(&module_file, child, inner, depth + 1);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn use_item(&mut self, file: &str, parsed: &Parsed, u: &syn::ItemUse, cfgs: &[Cfg]) {
        let Some(mut own) = own_cfgs(file, parsed, &u.attrs) else {
            return;
        };
        let syn::UseTree::Path(first) = &u.tree else {
            return;
        };
        if !self.external(&first.ident.to_string()) {
            return;
        }
        let mut leaves = Leaves::default();
        if !leaves.collect(&u.tree, None) || leaves.globs > 1 {
            return;
        }
        let Some(list) = leaves.import_list() else {
            return;
        };
        let tree = parsed.node(&u.tree);
        let start = u
            .leading_colon
            .map_or(tree.start, |c| parsed.range(c.spans[0]).start);
        let key = (file.to_string(), start);
        let n = match self.numbers.of.get(&key) {
            Some(n) => *n,
            None => {
                let n = self.numbers.next;
                let text = format!("crate::{}::u{n}::{list}", self.ctx.module);
                let made = self.rewriter.replace_text(file, start..tree.end, text);
                self.numbers.next += usize::from(made);
                self.numbers.of.insert(key, made.then_some(n));
                made.then_some(n)
            }
        };
        let Some(n) = n else {
            return;
        };
        own.splice(0..0, cfgs.iter().cloned());
        self.subs.push(Sub {
            n,
            cfgs: own,
            file: file.to_string(),
            tree,
        });
    }

    /// Whether a path's first segment names a crate that is not the tree's own, for sure: a
    /// dependency of the package that nothing in the tree shadows (a glob import from a crate
    /// may still bring a module of that name: `use rmcp::*; use model::Tool;`).
    fn external(&self, first: &str) -> bool {
        self.deps.contains(first)
            && !self.ctx.own_crates.iter().any(|c| c == first)
            && !self.ctx.names.items.contains(first)
    }
}

/// The crates that come with Rust, and the dependencies (of any kind and target) of the package
/// whose manifest is nearest above `root`, as code names them (`serde-json` → `serde_json`).
fn dependencies(tree: &Tree, root: &str) -> BTreeSet<String> {
    let mut deps: BTreeSet<String> = ["std", "core", "alloc", "proc_macro"]
        .map(String::from)
        .into();
    let manifest = tree
        .files
        .iter()
        .filter_map(|(path, text)| Some((path.strip_suffix("Cargo.toml")?, text)))
        .filter(|(dir, _)| root.starts_with(dir))
        .max_by_key(|(dir, _)| dir.len());
    let Some((_, manifest)) = manifest else {
        return deps;
    };
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']').trim();
            // `[dependencies.rmcp]` names one in its header.
            let (table, name) = header.rsplit_once('.').unwrap_or((header, ""));
            in_deps = header.ends_with("dependencies") && !header.starts_with("workspace");
            if table.ends_with("dependencies")
                && !table.starts_with("workspace")
                && !name.is_empty()
            {
                deps.insert(name.trim_matches('"').replace('-', "_"));
            }
            continue;
        }
        let key: String = line
            .trim_start_matches('"')
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        let rest = line.trim_start_matches('"')[key.len()..].trim_start_matches('"');
        if in_deps && !key.is_empty() && rest.trim_start().starts_with(['=', '.']) {
            deps.insert(key.replace('-', "_"));
        }
    }
    deps
}

/// The `cfg` attributes among `attrs`; `None` when an attribute may add or hide one
/// (`cfg_attr`) or changes how macros are scoped (`macro_use`).
fn own_cfgs(file: &str, parsed: &Parsed, attrs: &[syn::Attribute]) -> Option<Vec<Cfg>> {
    let mut out = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("cfg_attr") || attr.path().is_ident("macro_use") {
            return None;
        }
        if attr.path().is_ident("cfg") {
            out.push((file.to_string(), parsed.node(attr)));
        }
    }
    Some(out)
}

/// The names a use tree brings in.
#[derive(Default)]
struct Leaves {
    names: Vec<String>,
    globs: usize,
    /// `Trait as _`: in scope without a name; only a glob import brings it along.
    underscores: usize,
}

impl Leaves {
    /// `false` when the tree has a shape whose names are not certain.
    fn collect(&mut self, tree: &syn::UseTree, parent: Option<&syn::Ident>) -> bool {
        match tree {
            syn::UseTree::Path(p) => self.collect(&p.tree, Some(&p.ident)),
            syn::UseTree::Name(n) if n.ident == "self" => match parent {
                Some(parent) => {
                    self.names.push(parent.to_string());
                    true
                }
                None => false,
            },
            syn::UseTree::Name(n) => {
                self.names.push(n.ident.to_string());
                true
            }
            syn::UseTree::Rename(r) if r.rename == "_" => {
                self.underscores += 1;
                true
            }
            syn::UseTree::Rename(r) => {
                self.names.push(r.rename.to_string());
                true
            }
            // The variants of an enum (or a type's associated items): skipped.
            syn::UseTree::Glob(_) => {
                self.globs += 1;
                parent.is_some_and(|p| !p.to_string().starts_with(|c: char| c.is_uppercase()))
            }
            syn::UseTree::Group(g) => g.items.iter().all(|t| self.collect(t, parent)),
        }
    }

    /// What follows `crate::module::uN::`: the names, and `*` when a glob or an underscore
    /// import must come along (the names stay explicit, so they keep shadowing other globs).
    fn import_list(&self) -> Option<String> {
        let mut parts = self.names.clone();
        if self.globs + self.underscores > 0 {
            parts.push("*".to_string());
        }
        match parts.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            _ => Some(format!("{{{}}}", parts.join(", "))),
        }
    }
}

/// `pub(crate) mod mm_reexports { pub mod u0 { pub use ::<tree>; } .. }` at the end of the root.
fn add_module(ctx: &Context<'_>, root: &str, mut subs: Vec<Sub>, rewriter: &mut Rewriter<'_>) {
    subs.sort_by_key(|s| s.n);
    if subs.is_empty() {
        return;
    }
    let text = &rewriter.tree().files[root];
    let lead = if text.is_empty() || text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let mut chunks = vec![Chunk::text(format!(
        "{lead}pub(crate) mod {} {{\n",
        ctx.module
    ))];
    for sub in subs {
        chunks.push(Chunk::text("    "));
        for (file, range) in sub.cfgs {
            chunks.push(Chunk::copy(&file, range));
            chunks.push(Chunk::text(" "));
        }
        chunks.push(Chunk::text(format!("pub mod u{} {{ pub use ::", sub.n)));
        chunks.push(Chunk::copy(&sub.file, sub.tree));
        chunks.push(Chunk::text("; }\n"));
    }
    chunks.push(Chunk::text("}\n"));
    let end = text.len();
    rewriter.insert(root, end, chunks);
}

#[cfg(test)]
#[path = "reexport_tests.rs"]
mod tests;
