//! What each module of a file declares, for crate-wide name resolution (`hir_def`): the names
//! its `use` items bring in with their targets as written, its glob imports, the items it
//! defines and its child modules. Collected per file while it is lowered; joined into one
//! map per crate afterwards, when every file of the crate is known.

use std::collections::HashMap;

use smol_str::ToSmolStr;

use super::cfg::is_test_only;
use super::ir::Name;

/// The declarations of one module (a file's root module or an inline `mod m { .. }`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleDecls {
    /// The module's path from the crate root, the package name first (as `FileIr::module`).
    pub module: Vec<Name>,
    /// `use` items: the name brought in and its target as written (`self`, `super`, `crate`
    /// kept; a leading `::` as an empty first segment; a renamed extern crate already mapped).
    pub uses: Vec<(Name, Vec<Name>)>,
    /// Glob imports' prefixes (`use crate::prelude::*` → `["crate", "prelude"]`).
    pub globs: Vec<Vec<Name>>,
    /// Items defined here: types, traits, fns, consts, statics, macros, aliases, unions.
    pub items: Vec<Name>,
    /// Child modules, inline or out of line.
    pub modules: Vec<Name>,
}

/// One flattened `use` tree: `Some(name)` with its full path, or `None` for a glob's prefix.
pub type UseEntry = (Option<Name>, Vec<Name>);

/// Flattens a `use` tree (`a::{b as c, d::*}` → `c = a::b`, glob `a::d`). `use x as _` brings
/// no name in and is left out.
pub fn flatten_use(prefix: &mut Vec<Name>, tree: &syn::UseTree, out: &mut Vec<UseEntry>) {
    if crate::budget::helper_too_deep() {
        return;
    }
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_smolstr());
            flatten_use(prefix, &p.tree, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            if let Some(last) = prefix.last() {
                out.push((Some(last.clone()), prefix.clone()));
            }
        }
        syn::UseTree::Name(n) => {
            let mut full = prefix.clone();
            full.push(n.ident.to_smolstr());
            out.push((Some(n.ident.to_smolstr()), full));
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            if r.ident != "self" {
                full.push(r.ident.to_smolstr());
            }
            if r.rename != "_" {
                out.push((Some(r.rename.to_smolstr()), full));
            }
        }
        syn::UseTree::Glob(_) => out.push((None, prefix.clone())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(prefix, t, out);
            }
        }
    }
}

/// The entries of a `use` item, a leading `::` kept as an empty first segment.
pub fn use_entries(u: &syn::ItemUse) -> Vec<UseEntry> {
    let mut prefix = Vec::new();
    if u.leading_colon.is_some() {
        prefix.push(Name::default());
    }
    let mut out = Vec::new();
    flatten_use(&mut prefix, &u.tree, &mut out);
    out
}

/// The declarations of the module at `module` and of every inline module in it, leaving out
/// test-only items. `renames` maps extern crate names to packages (`mcp` → `rmcp`).
pub fn collect(
    module: &[Name],
    items: &[syn::Item],
    renames: &HashMap<String, String>,
) -> Vec<ModuleDecls> {
    let mut out = Vec::new();
    collect_into(
        &mut module.to_vec(),
        items,
        renames,
        &mut out,
        MAX_INLINE_DEPTH,
    );
    out
}

/// How deep inline modules are recorded. Each records its whole path, so a file of
/// thousands of nested modules would cost their square; real crates nest a few. The bodies
/// of deeper modules are still lowered and linted: only their `use` items and names are not
/// joined into the crate's module tree.
const MAX_INLINE_DEPTH: usize = 32;

fn collect_into(
    module: &mut Vec<Name>,
    items: &[syn::Item],
    renames: &HashMap<String, String>,
    out: &mut Vec<ModuleDecls>,
    depth_left: usize,
) {
    if crate::budget::helper_too_deep() {
        return;
    }
    let mut decls = ModuleDecls {
        module: module.clone(),
        ..ModuleDecls::default()
    };
    let mut inline = Vec::new();
    for item in items {
        match item {
            syn::Item::Use(u) if !is_test_only(&u.attrs) => {
                for (name, mut path) in use_entries(u) {
                    rename_crate(&mut path, renames);
                    match name {
                        Some(name) => decls.uses.push((name, path)),
                        None => decls.globs.push(path),
                    }
                }
            }
            syn::Item::Mod(m) if !is_test_only(&m.attrs) => {
                decls.modules.push(m.ident.to_smolstr());
                if let Some((_, inner)) = &m.content {
                    inline.push((m.ident.to_smolstr(), inner));
                }
            }
            _ => {
                if let Some(name) = defined_name(item) {
                    decls.items.push(name);
                }
            }
        }
    }
    out.push(decls);
    if depth_left == 0 {
        return;
    }
    for (name, inner) in inline {
        module.push(name);
        collect_into(module, inner, renames, out, depth_left - 1);
        module.pop();
    }
}

/// Maps a renamed extern crate in a path's first segment to its package.
fn rename_crate(path: &mut [Name], renames: &HashMap<String, String>) {
    if let Some(first) = path.first_mut()
        && let Some(package) = renames.get(first.as_str())
    {
        *first = Name::new(package);
    }
}

/// The name an item defines in its module's namespace, if any.
fn defined_name(item: &syn::Item) -> Option<Name> {
    let (attrs, ident) = match item {
        syn::Item::Fn(i) => (&i.attrs, &i.sig.ident),
        syn::Item::Struct(i) => (&i.attrs, &i.ident),
        syn::Item::Enum(i) => (&i.attrs, &i.ident),
        syn::Item::Union(i) => (&i.attrs, &i.ident),
        syn::Item::Trait(i) => (&i.attrs, &i.ident),
        syn::Item::Type(i) => (&i.attrs, &i.ident),
        syn::Item::Const(i) => (&i.attrs, &i.ident),
        syn::Item::Static(i) => (&i.attrs, &i.ident),
        syn::Item::Macro(i) => (&i.attrs, i.ident.as_ref()?),
        _ => return None,
    };
    (!is_test_only(attrs)).then(|| ident.to_smolstr())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls(src: &str) -> Vec<ModuleDecls> {
        let file = syn::parse_file(src).expect("test source parses");
        let renames = HashMap::from([("mcp".to_string(), "rmcp".to_string())]);
        collect(&["app".into()], &file.items, &renames)
    }

    fn names(path: &[Name]) -> Vec<&str> {
        path.iter().map(Name::as_str).collect()
    }

    #[test]
    fn uses_globs_items_and_inline_modules() {
        let d = decls(
            "use mcp::{ErrorData as E, model::{self, *}};\n\
             use ::std::fmt;\n\
             use helper as _;\n\
             pub struct S; fn f() {} mod out;\n\
             pub mod errors { pub use super::E as AppError; const C: u8 = 1; }\n\
             #[cfg(test)] mod tests { use super::*; }",
        );
        assert_eq!(
            d.len(),
            2,
            "the root and `errors`; the test module is left out"
        );
        let root = &d[0];
        let uses: Vec<(&str, Vec<&str>)> = root
            .uses
            .iter()
            .map(|(n, p)| (n.as_str(), names(p)))
            .collect();
        assert_eq!(
            uses,
            vec![
                ("E", vec!["rmcp", "ErrorData"]),
                ("model", vec!["rmcp", "model"]),
                ("fmt", vec!["", "std", "fmt"]),
            ]
        );
        assert_eq!(root.globs, vec![vec![Name::from("rmcp"), "model".into()]]);
        assert_eq!(root.items, vec![Name::from("S"), "f".into()]);
        assert_eq!(root.modules, vec![Name::from("out"), "errors".into()]);
        assert_eq!(names(&d[1].module), vec!["app", "errors"]);
        assert_eq!(
            d[1].uses,
            vec![("AppError".into(), vec!["super".into(), "E".into()])]
        );
        assert_eq!(d[1].items, vec![Name::from("C")]);
    }
}
