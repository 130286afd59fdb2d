//! Per-file name resolution: `use` items (renames, globs), extern crate renames, and a small
//! resolved type representation that SDK modules classify.

use std::borrow::Cow;
use std::collections::HashMap;

use smol_str::ToSmolStr;

use super::intern::{self, ItemPath};
use super::ir::Name;

/// A type as written, with every path resolved through the file's imports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Path {
        path: ItemPath,
        args: Vec<Ty>,
    },
    Tuple(Vec<Ty>),
    /// `impl A + B` or `dyn A + B`: the traits' last segments.
    Traits(Vec<Name>),
    Other,
}

impl Ty {
    pub fn unit() -> Ty {
        Ty::Tuple(Vec::new())
    }

    pub fn last_segment(&self) -> Option<&str> {
        match self {
            Ty::Path { path, .. } => path.last().map(Name::as_str),
            _ => None,
        }
    }

    pub fn args(&self) -> &[Ty] {
        match self {
            Ty::Path { args, .. } => args,
            _ => &[],
        }
    }

    pub fn is_unit(&self) -> bool {
        matches!(self, Ty::Tuple(items) if items.is_empty())
    }

    /// `Result<T, E>` as `(T, E)`, when both are written out.
    pub fn as_result(&self) -> Option<(&Ty, &Ty)> {
        match self {
            Ty::Path { path, args } if path.last().is_some_and(|s| s == "Result") => {
                match args.as_slice() {
                    [ok, err] => Some((ok, err)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// What a file's `use` items bring into scope.
#[derive(Clone, Debug, Default)]
pub struct Imports {
    /// Local name → full path.
    names: foldhash::HashMap<Name, Vec<Name>>,
    /// Prefixes of glob imports (`use rmcp::model::*` → `["rmcp", "model"]`).
    globs: Vec<Vec<Name>>,
    /// Extern crate names used in code → package names (`mcp` → `rmcp` for a renamed dependency).
    crate_renames: HashMap<String, String>,
}

impl Imports {
    pub fn new(crate_renames: HashMap<String, String>) -> Self {
        Imports {
            crate_renames,
            ..Imports::default()
        }
    }

    /// Records every `use` item of the file, at any depth of inline modules.
    pub fn collect(&mut self, items: &[syn::Item]) {
        if crate::budget::helper_too_deep() {
            return;
        }
        for item in items {
            match item {
                syn::Item::Use(u) => self.add_tree(&u.tree),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.collect(inner);
                    }
                }
                // `use` inside a fn body (`use std::io::Write;`) counts for the whole file.
                syn::Item::Fn(f) => self.collect_block(&f.block),
                syn::Item::Impl(i) => {
                    for item in &i.items {
                        if let syn::ImplItem::Fn(f) = item {
                            self.collect_block(&f.block);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn collect_block(&mut self, block: &syn::Block) {
        for stmt in &block.stmts {
            if let syn::Stmt::Item(syn::Item::Use(u)) = stmt {
                self.add_tree(&u.tree);
            }
        }
    }

    /// Records one `use` tree; a leading `::` changes nothing here (extern either way).
    fn add_tree(&mut self, tree: &syn::UseTree) {
        let mut entries = Vec::new();
        super::decls::flatten_use(&mut Vec::new(), tree, &mut entries);
        for (name, full) in entries {
            match name {
                Some(name) => self.insert(name, full),
                None => {
                    let full = self.canonical(full);
                    self.globs.push(full);
                }
            }
        }
    }

    fn insert(&mut self, name: Name, full: Vec<Name>) {
        let full = self.canonical(full);
        self.names.insert(name, full);
    }

    /// Applies extern crate renames and, when the first segment is itself an imported name,
    /// expands it (`use rmcp::model; use model::ErrorData;`).
    fn canonical(&self, mut path: Vec<Name>) -> Vec<Name> {
        if let Some(first) = path.first_mut() {
            if let Some(package) = self.crate_renames.get(first.as_str()) {
                *first = Name::new(package);
            } else if path.len() > 1
                && let Some(expanded) = self.names.get(&path[0])
            {
                let mut full = expanded.clone();
                full.extend(path.drain(1..));
                return full;
            }
        }
        path
    }

    /// Rewrites each imported target and glob prefix with `f` (crate-wide resolution, which
    /// follows the crate's re-exports); `None` keeps it as it is.
    pub fn map_targets(&mut self, mut f: impl FnMut(&[Name]) -> Option<Vec<Name>>) {
        for full in self.names.values_mut().chain(self.globs.iter_mut()) {
            if let Some(path) = f(full) {
                *full = path;
            }
        }
    }

    /// The prefixes of the file's glob imports.
    pub fn globs(&self) -> &[Vec<Name>] {
        &self.globs
    }

    /// Whether `name` is imported by name.
    pub fn imports_name(&self, name: &str) -> bool {
        self.names.contains_key(name)
    }

    /// Brings `name` in as a glob import of the crate's own module does: a name imported by
    /// name wins over it.
    pub fn import_through_glob(&mut self, name: Name, full: Vec<Name>) {
        self.names.entry(name).or_insert(full);
    }

    /// Adds a glob import's prefix, found through one of the crate's modules.
    pub fn add_glob(&mut self, prefix: Vec<Name>) {
        if !self.globs.contains(&prefix) {
            self.globs.push(prefix);
        }
    }

    /// Resolves a path's segment names. Borrowed when no import or rename applies (`Ok`,
    /// a local fn), which is most paths: no allocation then.
    pub fn resolve_segments<'p>(&self, segments: &'p [Name]) -> Cow<'p, [Name]> {
        let Some(first) = segments.first() else {
            return Cow::Borrowed(segments);
        };
        if let Some(full) = self.names.get(first) {
            let mut path = full.clone();
            path.extend(segments[1..].iter().cloned());
            return Cow::Owned(path);
        }
        if !self.crate_renames.contains_key(first.as_str()) {
            // `canonical` would only expand a first segment found in `names`: it is not.
            return Cow::Borrowed(segments);
        }
        Cow::Owned(self.canonical(segments.to_vec()))
    }

    pub fn resolve(&self, path: &syn::Path) -> ItemPath {
        let segments: Vec<Name> = path.segments.iter().map(|s| s.ident.to_smolstr()).collect();
        intern::path(match self.resolve_segments(&segments) {
            Cow::Borrowed(_) => segments,
            Cow::Owned(resolved) => resolved,
        })
    }

    /// Full paths a single name may come from through glob imports.
    pub fn glob_candidates<'a>(&'a self, name: &'a str) -> impl Iterator<Item = Vec<Name>> + 'a {
        self.globs.iter().map(move |g| {
            let mut p = g.clone();
            p.push(Name::new(name));
            p
        })
    }

    /// Whether `path` (as written) may name `target`, a full path such as
    /// `["rmcp", "model", "ErrorData"]`, directly or through a glob import. `crate_prefixes`
    /// lists the accepted re-export paths of the same item.
    pub fn names_any(&self, path: &[Name], targets: &[&[&str]]) -> bool {
        let resolved = self.resolve_segments(path);
        if targets.iter().any(|t| same_path(&resolved, t)) {
            return true;
        }
        if path.len() == 1 && !self.names.contains_key(&path[0]) {
            return self
                .glob_candidates(&path[0])
                .any(|c| targets.iter().any(|t| same_path(&c, t)));
        }
        false
    }

    /// Whether a path as written may name an item of crate `krate`: it resolves into that
    /// crate, or it is a single name not imported by name while a glob from `krate` is.
    pub fn may_come_from(&self, path: &[Name], krate: &str) -> bool {
        let resolved = self.resolve_segments(path);
        if resolved.first().is_some_and(|f| f == krate) {
            return true;
        }
        path.len() == 1
            && !self.names.contains_key(&path[0])
            && self
                .globs
                .iter()
                .any(|g| g.first().is_some_and(|f| f == krate))
    }

    /// Converts a syn type.
    pub fn ty(&self, ty: &syn::Type) -> Ty {
        self.ty_at(ty, 0)
    }

    /// Types deeper than this are cut (`Ty::Other` below): SDKs classify a few levels, and a
    /// shallow `Ty` can be cloned and dropped on any thread's stack.
    const MAX_TY_DEPTH: usize = 64;

    fn ty_at(&self, ty: &syn::Type, depth: usize) -> Ty {
        if depth > Self::MAX_TY_DEPTH || crate::budget::helper_too_deep() {
            return Ty::Other;
        }
        let ty_in = |t: &syn::Type| self.ty_at(t, depth + 1);
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => {
                let path = self.resolve(&p.path);
                let args = p
                    .path
                    .segments
                    .last()
                    .map(|s| match &s.arguments {
                        syn::PathArguments::AngleBracketed(a) => a
                            .args
                            .iter()
                            .filter_map(|arg| match arg {
                                syn::GenericArgument::Type(t) => Some(ty_in(t)),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    })
                    .unwrap_or_default();
                Ty::Path { path, args }
            }
            syn::Type::Reference(r) => ty_in(&r.elem),
            syn::Type::Paren(p) => ty_in(&p.elem),
            syn::Type::Group(g) => ty_in(&g.elem),
            syn::Type::Tuple(t) => Ty::Tuple(t.elems.iter().map(ty_in).collect()),
            // `impl Future<Output = T>` is what an async fn returns: `T`.
            syn::Type::ImplTrait(t) => future_output(&t.bounds)
                .map(ty_in)
                .unwrap_or_else(|| Ty::Traits(trait_names(&t.bounds))),
            syn::Type::TraitObject(t) => future_output(&t.bounds)
                .map(ty_in)
                .unwrap_or_else(|| Ty::Traits(trait_names(&t.bounds))),
            syn::Type::Slice(s) => Ty::Path {
                path: intern::path(vec!["[]".into()]),
                args: vec![ty_in(&s.elem)],
            },
            syn::Type::Array(a) => Ty::Path {
                path: intern::path(vec!["[]".into()]),
                args: vec![ty_in(&a.elem)],
            },
            _ => Ty::Other,
        }
    }
}

fn same_path(path: &[Name], target: &[&str]) -> bool {
    let path = match path.first().map(Name::as_str) {
        Some("") => &path[1..],
        _ => path,
    };
    path.len() == target.len() && path.iter().zip(target).all(|(a, b)| a == b)
}

/// `Output` of a `Future<Output = T>` bound.
fn future_output(
    bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
) -> Option<&syn::Type> {
    bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(t) => {
            let last = t.path.segments.last()?;
            if last.ident != "Future" {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::AssocType(at) if at.ident == "Output" => Some(&at.ty),
                    _ => None,
                }),
                _ => None,
            }
        }
        _ => None,
    })
}

/// The last segments of the traits in a bound list (`Tool + Send + 'static` → `Tool`, `Send`).
pub fn trait_names(
    bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
) -> Vec<Name> {
    bounds
        .iter()
        .filter_map(|b| match b {
            syn::TypeParamBound::Trait(t) => t.path.segments.last().map(|s| s.ident.to_smolstr()),
            _ => None,
        })
        .collect()
}

/// The segment names of a path as written.
pub fn segments(path: &syn::Path) -> ItemPath {
    intern::path(path.segments.iter().map(|s| s.ident.to_smolstr()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imports(src: &str) -> Imports {
        let file = syn::parse_file(src).expect("test source parses");
        let mut renames = HashMap::new();
        renames.insert("mcp".to_string(), "rmcp".to_string());
        let mut imports = Imports::new(renames);
        imports.collect(&file.items);
        imports
    }

    #[test]
    fn renames_and_groups() {
        let i = imports("use rmcp::{ErrorData as McpError, model::{self, CallToolResult}};");
        assert_eq!(
            *i.resolve_segments(&["McpError".into()]),
            ["rmcp", "ErrorData"]
        );
        assert_eq!(
            *i.resolve_segments(&["model".into(), "Content".into()]),
            ["rmcp", "model", "Content"]
        );
        // A path no import touches comes back as it was, without a copy.
        let local: [Name; 2] = ["helper".into(), "run".into()];
        assert!(matches!(i.resolve_segments(&local), Cow::Borrowed(p) if *p == local));
        assert!(i.names_any(
            &["CallToolResult".into()],
            &[&["rmcp", "model", "CallToolResult"]]
        ));
    }

    #[test]
    fn globs_and_crate_renames() {
        let i = imports("use mcp::model::*;");
        assert!(i.names_any(&["ErrorData".into()], &[&["rmcp", "model", "ErrorData"]]));
        assert!(!i.names_any(&["ErrorData".into()], &[&["rmcp", "ErrorData"]]));
    }

    #[test]
    fn result_types() {
        let i = imports("use rmcp::ErrorData as McpError;");
        let ty: syn::Type = syn::parse_str("Result<CallToolResult, McpError>").expect("type");
        let ty = i.ty(&ty);
        let (_, err) = ty.as_result().expect("a result");
        assert_eq!(err.last_segment(), Some("ErrorData"));
    }
}
