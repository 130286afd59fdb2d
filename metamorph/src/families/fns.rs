//! What the registration and eta families share: the fns a tree defines, the scope a use of a
//! fn sits in, and what a callee or a container expects of a callable argument.
//!
//! Resolution is by name and module, without types: a path resolves only when exactly one fn
//! of the tree can be meant, and a name that a local, a generic or a fn-local item may take is
//! never resolved.

use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;
use syn::visit::Visit;

pub use self::facts::FileFacts;
use crate::tree::Tree;

/// A module: its crate's root file and its path from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModPath {
    pub krate: String,
    pub path: Vec<String>,
}

impl ModPath {
    pub(super) fn child(&self, name: &str) -> ModPath {
        let mut path = self.path.clone();
        path.push(name.to_string());
        ModPath {
            krate: self.krate.clone(),
            path,
        }
    }
}

/// A fn of the tree (module-level, or in an impl).
pub struct FnDef {
    pub file: String,
    pub module: ModPath,
    /// The self type's name, for an associated fn.
    pub owner: Option<String>,
    /// In an impl without a trait.
    pub inherent: bool,
    pub sig: syn::Signature,
    /// Neither it nor its impl is generic; no receiver; safe; Rust ABI; no `impl Trait` or
    /// attribute on an argument.
    pub plain: bool,
}

impl FnDef {
    pub fn arity(&self) -> usize {
        self.sig.inputs.len()
    }

    /// The argument types (a plain fn has no receiver).
    pub fn params(&self) -> Vec<&syn::Type> {
        self.sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some(&*t.ty),
                syn::FnArg::Receiver(_) => None,
            })
            .collect()
    }
}

/// The fns, type aliases and file facts of a tree.
pub struct Index {
    pub fns: Vec<FnDef>,
    aliases: BTreeMap<String, Vec<syn::Type>>,
    pub(super) files: BTreeMap<String, FileFacts>,
    modules: BTreeMap<String, ModPath>,
    pub(super) crate_names: BTreeSet<String>,
}

impl Index {
    pub fn of(tree: &Tree) -> Index {
        let mut index = Index {
            fns: Vec::new(),
            aliases: BTreeMap::new(),
            files: BTreeMap::new(),
            modules: BTreeMap::new(),
            crate_names: tree.crate_names().into_iter().collect(),
        };
        for krate in tree.crates() {
            for m in krate.modules {
                let module = ModPath {
                    krate: krate.root.clone(),
                    path: m.path,
                };
                index.modules.entry(m.file).or_insert(module);
            }
        }
        for (path, text) in tree.rust_files() {
            let Ok(ast) = syn::parse_file(text) else {
                continue;
            };
            let module = index.module_of(path);
            index.collect(path, &module, &ast.items);
            let mut facts = FileFacts::default();
            facts.visit_file(&ast);
            index.files.insert(path.clone(), facts);
        }
        index
    }

    /// The module a file is (a file no crate reaches is a module of its own).
    pub fn module_of(&self, file: &str) -> ModPath {
        self.modules.get(file).cloned().unwrap_or_else(|| ModPath {
            krate: file.to_string(),
            path: Vec::new(),
        })
    }

    fn collect(&mut self, file: &str, module: &ModPath, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Fn(f) => self.push(file, module, None, &f.attrs, &f.sig),
                syn::Item::Impl(i) => {
                    for it in &i.items {
                        if let syn::ImplItem::Fn(f) = it {
                            self.push(file, module, Some(i), &f.attrs, &f.sig);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.collect(file, &module.child(&m.ident.to_string()), inner);
                    }
                }
                syn::Item::Type(t) if t.generics.params.is_empty() => {
                    let entry = self.aliases.entry(t.ident.to_string()).or_default();
                    entry.push((*t.ty).clone());
                }
                _ => {}
            }
        }
    }

    fn push(
        &mut self,
        file: &str,
        module: &ModPath,
        imp: Option<&syn::ItemImpl>,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
    ) {
        let impl_generic = imp.is_some_and(|i| !i.generics.params.is_empty());
        let inert = inert(attrs) && imp.is_none_or(|i| inert(&i.attrs));
        let args_plain = sig.inputs.iter().all(|a| match a {
            syn::FnArg::Typed(t) => t.attrs.is_empty() && !TypeFacts::of(&t.ty).impl_trait,
            syn::FnArg::Receiver(_) => false,
        });
        let plain = !impl_generic
            && inert
            && sig.generics.params.is_empty()
            && sig.generics.where_clause.is_none()
            && sig.unsafety.is_none()
            && sig.abi.is_none()
            && sig.variadic.is_none()
            && args_plain;
        self.fns.push(FnDef {
            file: file.to_string(),
            module: module.clone(),
            owner: imp.and_then(|i| type_name(&i.self_ty)),
            inherent: imp.is_none_or(|i| i.trait_.is_none()),
            sig: sig.clone(),
            plain,
        });
    }

    /// The type a non-generic alias of the tree stands for, when only one alias has the name.
    pub fn alias(&self, name: &str) -> Option<&syn::Type> {
        match self.aliases.get(name).map(Vec::as_slice) {
            Some([ty]) => Some(ty),
            _ => None,
        }
    }

    /// Whether `name` is an alias of the tree (whatever it stands for).
    pub fn is_alias(&self, name: &str) -> bool {
        self.aliases.contains_key(name)
    }

    /// Whether some fn of the tree called `name` is generic.
    pub fn generic_fn_named(&self, name: &str) -> bool {
        self.fns
            .iter()
            .any(|f| f.sig.ident == name && !f.sig.generics.params.is_empty())
    }

    /// The path of a `use` leaf of `file` named `name` when it leads into the tree.
    pub(super) fn internal_use(&self, file: &str, name: &str) -> Option<Vec<String>> {
        let facts = self.files.get(file)?;
        let mut leaves = facts.uses.iter().filter(|(n, _)| n == name);
        let (_, path) = leaves.next()?;
        let internal = path
            .first()
            .is_some_and(|f| matches!(f.as_str(), "crate" | "self" | "super"));
        (internal && leaves.next().is_none()).then(|| path.clone())
    }

    /// Whether `name` names std's item in `file`: imported from std (and from nowhere else),
    /// or through a glob of `std_module` with no other glob that could bring it.
    pub fn std_name(&self, file: &str, name: &str, std_module: &[&str]) -> bool {
        let Some(facts) = self.files.get(file) else {
            return false;
        };
        if facts.items.contains(name) {
            return false;
        }
        let is_std = |p: &[String]| p.first().is_some_and(|f| f == "std");
        let leaves: Vec<&Vec<String>> = facts
            .uses
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, p)| p)
            .collect();
        if !leaves.is_empty() {
            return leaves.iter().all(|p| is_std(p));
        }
        let std_glob = facts.globs.iter().any(|g| g.iter().eq(std_module.iter()));
        std_glob && facts.globs.iter().all(|g| is_std(g))
    }

    /// The types of struct fields called `name` in `file`, when they all agree.
    pub fn field_type(&self, file: &str, name: &str) -> Option<&syn::Type> {
        let types = self.files.get(file)?.fields.get(name)?;
        let first = types.first()?;
        types
            .iter()
            .all(|t| text(t) == text(first))
            .then_some(first)
    }
}

/// Whether attributes leave a fn a fn with its signature: an attribute macro may make it
/// something else (actix's `#[post("/")]` makes a struct of it), and `#[test]` fns are gone
/// outside tests.
fn inert(attrs: &[syn::Attribute]) -> bool {
    crate::syntax::inert_attributes(attrs, &["instrument"])
}

/// The last segment's name of a type path.
pub fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().map(|s| s.ident.to_string())
        }
        _ => None,
    }
}

/// Tokens as text, for comparing types.
pub fn text<T: ToTokens>(node: &T) -> String {
    node.to_token_stream().to_string()
}

/// What a type mentions.
#[derive(Default)]
pub struct TypeFacts {
    /// A reference or raw pointer.
    pub refs: bool,
    /// A lifetime other than `'static` and `'_`.
    pub named_lifetime: bool,
    pub impl_trait: bool,
    pub infer: bool,
    /// Every identifier of its paths.
    pub idents: BTreeSet<String>,
}

impl TypeFacts {
    pub fn of(ty: &syn::Type) -> TypeFacts {
        let mut facts = TypeFacts::default();
        facts.visit_type(ty);
        facts
    }
}

impl<'ast> Visit<'ast> for TypeFacts {
    fn visit_type_reference(&mut self, r: &'ast syn::TypeReference) {
        self.refs = true;
        syn::visit::visit_type_reference(self, r);
    }
    fn visit_type_ptr(&mut self, p: &'ast syn::TypePtr) {
        self.refs = true;
        syn::visit::visit_type_ptr(self, p);
    }
    fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
        if l.ident != "static" && l.ident != "_" {
            self.named_lifetime = true;
        }
    }
    fn visit_type_impl_trait(&mut self, t: &'ast syn::TypeImplTrait) {
        self.impl_trait = true;
        syn::visit::visit_type_impl_trait(self, t);
    }
    fn visit_type_infer(&mut self, _: &'ast syn::TypeInfer) {
        self.infer = true;
    }
    fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
        self.idents.insert(s.ident.to_string());
        syn::visit::visit_path_segment(self, s);
    }
}

#[path = "fns_facts.rs"]
mod facts;
