//! `rename_items`: every item the crate defines (fns, methods, types, traits, consts, statics)
//! gets an opaque name, consistently across files; a renamed rmcp `#[tool]` fn gets its old
//! name in the attribute, so the tool keeps its wire name.
//!
//! `rename_methods_common`: the crate's own methods get names std, serde and the SDKs also use
//! (`map`, `context`, `write`, `init`, ...): a call is the crate's method by its receiver's
//! type, not by its spelling.
//!
//! A one-segment name is renamed where the file has it in scope (defined there or imported
//! from the crate); a path is followed from its first segment (`crate::`, `Self::`, a crate
//! type or module); a method call by the method's name, which is safe because library method
//! names are never renamed (`data/*-methods.txt`).

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

use super::Family;
use super::items::{Definitions, in_scope};
use crate::edit::{Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::{self, Parsed};
use crate::tree::Tree;

pub struct RenameItems;
pub struct RenameMethodsCommon;

impl Family for RenameItems {
    fn name(&self) -> &'static str {
        "rename_items"
    }

    fn about(&self) -> &'static str {
        "the crate's fns, methods, types, traits, consts and statics renamed to opaque names"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let defs = Definitions::of(tree);
        let mut names = TreeNames::of(tree);
        let mut plan = Plan::default();
        for name in defs.free.iter().filter(|n| defs.renamable_free(n)) {
            plan.free
                .insert(name.clone(), names.fresh(prefix(name, "mm_f", "MmT")));
        }
        for name in defs.assoc.iter().filter(|n| defs.renamable_assoc(n)) {
            plan.assoc
                .insert(name.clone(), names.fresh(prefix(name, "mm_m", "MmA")));
        }
        apply(tree, &defs, &plan)
    }
}

/// Names that std, serde, anyhow, tracing and the SDKs give their own methods.
const COMMON_NAMES: &[&str] = &[
    "map",
    "context",
    "write",
    "init",
    "get",
    "send",
    "call",
    "run",
    "fetch",
    "handle",
    "execute",
    "process",
    "parse",
    "load",
    "read",
    "build",
    "to_json",
    "into_inner",
];

/// Traits through which a type has methods of common names it does not write itself.
const TRAITS_WITH_COMMON_METHODS: &[&str] = &[
    "Deref", "DerefMut", "Iterator", "Read", "Write", "BufRead", "Future", "Stream",
];

impl Family for RenameMethodsCommon {
    fn name(&self) -> &'static str {
        "rename_methods_common"
    }

    fn about(&self) -> &'static str {
        "the crate's methods renamed to names std, serde and the SDKs also use (`map`, `context`, `write`, ..)"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let defs = Definitions::of(tree);
        let mut taken: BTreeSet<&str> = defs.assoc.iter().map(String::as_str).collect();
        let mut plan = Plan::default();
        for (name, types) in &defs.methods {
            if !defs.renamable_assoc(name) || defs.unnamed_tools.contains(name) {
                continue;
            }
            let written: BTreeSet<&str> = types
                .iter()
                .filter_map(|t| defs.trait_items.get(t))
                .flatten()
                .map(String::as_str)
                .collect();
            if TRAITS_WITH_COMMON_METHODS
                .iter()
                .any(|t| written.contains(t))
            {
                continue;
            }
            let Some(new) = COMMON_NAMES
                .iter()
                .find(|n| !taken.contains(*n) && !written.contains(*n))
            else {
                break;
            };
            taken.insert(new);
            plan.assoc.insert(name.clone(), new.to_string());
        }
        apply(tree, &defs, &plan)
    }
}

fn prefix(name: &str, lower: &'static str, upper: &'static str) -> &'static str {
    if name.len() > 1
        && name
            .chars()
            .all(|c| c.is_uppercase() || c == '_' || c.is_ascii_digit())
    {
        "MM_C"
    } else if name.starts_with(char::is_uppercase) {
        upper
    } else {
        lower
    }
}

/// Old name → new name, for free and for associated items.
#[derive(Default)]
struct Plan {
    free: BTreeMap<String, String>,
    assoc: BTreeMap<String, String>,
}

fn apply(tree: &Tree, defs: &Definitions, plan: &Plan) -> Rewrite {
    let mut rewriter = Rewriter::new(tree);
    if plan.free.is_empty() && plan.assoc.is_empty() {
        return rewriter.finish();
    }
    for (old, new) in plan.free.iter().chain(&plan.assoc) {
        rewriter.rename(old, new);
    }
    let crate_names: BTreeSet<String> = tree.crate_names().into_iter().collect();
    for (path, _, parsed) in crate::syntax::parsed_files(tree) {
        let mut renamer = Renamer {
            plan,
            defs,
            crate_names: &crate_names,
            in_scope: in_scope(&parsed.ast, defs, &crate_names),
            module: Vec::new(),
            parsed: &parsed,
            path,
            rewriter: &mut rewriter,
        };
        renamer.visit_file(&parsed.ast);
    }
    rewriter.finish()
}

/// What the segment before the current one of a path was.
#[derive(Clone, Copy, PartialEq)]
enum After {
    Module,
    Type,
    Done,
}

struct Renamer<'a, 'r, 't> {
    plan: &'a Plan,
    defs: &'a Definitions,
    crate_names: &'a BTreeSet<String>,
    in_scope: BTreeMap<Vec<String>, BTreeSet<String>>,
    /// The inline module the visit is in.
    module: Vec<String>,
    parsed: &'a Parsed,
    path: &'a str,
    rewriter: &'r mut Rewriter<'t>,
}

impl Renamer<'_, '_, '_> {
    fn has_in_scope(&self, name: &str) -> bool {
        self.in_scope
            .get(&self.module)
            .is_some_and(|names| names.contains(name))
    }

    fn replace(&mut self, ident: &proc_macro2::Ident, new: &str) {
        let range = self.parsed.range(ident.span());
        self.rewriter
            .replace_text(self.path, range, new.to_string());
    }

    fn free(&mut self, ident: &proc_macro2::Ident) -> bool {
        match self.plan.free.get(&ident.to_string()) {
            Some(new) => {
                self.replace(ident, &new.clone());
                true
            }
            None => false,
        }
    }

    fn assoc(&mut self, ident: &proc_macro2::Ident) {
        if let Some(new) = self.plan.assoc.get(&ident.to_string()) {
            self.replace(ident, &new.clone());
        }
    }

    /// Where a path's later segments lead after its first one, renaming that one if it is
    /// the crate's; `None` when the path is a dependency's.
    fn first_segment(&mut self, path: &syn::Path) -> Option<After> {
        let first = &path.segments.first()?.ident;
        let name = first.to_string();
        if path.leading_colon.is_some() {
            return None;
        }
        match name.as_str() {
            "crate" | "self" | "super" => return Some(After::Module),
            "Self" => return Some(After::Type),
            _ => {}
        }
        if self.crate_names.contains(&name) {
            return Some(After::Module);
        }
        if !self.has_in_scope(&name) {
            return self.defs.modules.contains(&name).then_some(After::Module);
        }
        self.free(first);
        Some(self.kind_of(&name))
    }

    fn kind_of(&self, name: &str) -> After {
        if self.defs.types.contains(name) {
            After::Type
        } else if self.defs.modules.contains(name) {
            After::Module
        } else {
            After::Done
        }
    }

    fn rename_path(&mut self, path: &syn::Path) {
        let Some(mut after) = self.first_segment(path) else {
            return;
        };
        for segment in path.segments.iter().skip(1) {
            match after {
                After::Module => {
                    self.free(&segment.ident);
                    after = self.kind_of(&segment.ident.to_string());
                }
                After::Type => {
                    self.assoc(&segment.ident);
                    after = After::Done;
                }
                After::Done => break,
            }
        }
    }

    /// `#[tool]` → `#[tool(name = "old")]`, `#[tool(description = ..)]` →
    /// `#[tool(name = "old", description = ..)]`.
    fn keep_wire_name(&mut self, attrs: &[syn::Attribute], old: &str) {
        let Some(attr) = attrs
            .iter()
            .find(|a| syntax::last_segment(a.path()).as_deref() == Some("tool"))
        else {
            return;
        };
        match &attr.meta {
            syn::Meta::Path(p) => {
                let end = self.parsed.node(p).end;
                self.rewriter
                    .insert_text(self.path, end, format!("(name = \"{old}\")"));
            }
            syn::Meta::List(list) => {
                let open = self.parsed.range(list.delimiter.span().open()).end;
                let sep = if list.tokens.is_empty() { "" } else { ", " };
                self.rewriter
                    .insert_text(self.path, open, format!("name = \"{old}\"{sep}"));
            }
            syn::Meta::NameValue(_) => {}
        }
    }

    fn associated_definition(&mut self, ident: &syn::Ident, attrs: &[syn::Attribute]) {
        let old = ident.to_string();
        if self.plan.assoc.contains_key(&old) {
            if self.defs.unnamed_tools.contains(&old) {
                self.keep_wire_name(attrs, &old);
            }
            self.assoc(ident);
        }
    }
}

impl<'ast> Visit<'ast> for Renamer<'_, '_, '_> {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_ident(&mut self, _: &'ast syn::Ident) {}

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.free(&f.sig.ident);
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.free(&s.ident);
        syn::visit::visit_item_struct(self, s);
    }
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.free(&e.ident);
        syn::visit::visit_item_enum(self, e);
    }
    fn visit_item_union(&mut self, u: &'ast syn::ItemUnion) {
        self.free(&u.ident);
        syn::visit::visit_item_union(self, u);
    }
    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        self.free(&t.ident);
        syn::visit::visit_item_type(self, t);
    }
    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.free(&t.ident);
        syn::visit::visit_item_trait(self, t);
    }
    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.free(&c.ident);
        syn::visit::visit_item_const(self, c);
    }
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.free(&s.ident);
        syn::visit::visit_item_static(self, s);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.associated_definition(&f.sig.ident, &f.attrs);
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_impl_item_const(&mut self, c: &'ast syn::ImplItemConst) {
        self.associated_definition(&c.ident, &c.attrs);
        syn::visit::visit_impl_item_const(self, c);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.associated_definition(&f.sig.ident, &f.attrs);
        syn::visit::visit_trait_item_fn(self, f);
    }
    fn visit_trait_item_const(&mut self, c: &'ast syn::TraitItemConst) {
        self.associated_definition(&c.ident, &c.attrs);
        syn::visit::visit_trait_item_const(self, c);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.rename_path(path);
        for segment in &path.segments {
            self.visit_path_arguments(&segment.arguments);
        }
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.assoc(&call.method);
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if u.leading_colon.is_none() {
            self.rename_use(&u.tree, None);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(args) = syntax::macro_args(mac) {
            for arg in &args {
                self.visit_expr(&arg.expr);
            }
        } else if syntax::last_segment(&mac.path).as_deref() == Some("json") {
            let mut idents = Vec::new();
            syntax::idents(&mac.tokens, &mut idents);
            for i in idents {
                let lone = !i.after_dot_or_path && !i.before_bang_or_path && !i.before_colon;
                if lone && self.has_in_scope(&i.ident.to_string()) {
                    self.free(&i.ident);
                }
            }
        }
    }
}

impl Renamer<'_, '_, '_> {
    /// Renames the crate's items named in a `use` tree whose root is the crate's.
    fn rename_use(&mut self, tree: &syn::UseTree, after: Option<After>) {
        match tree {
            syn::UseTree::Path(p) => {
                let next = match after {
                    None => {
                        let name = p.ident.to_string();
                        if matches!(name.as_str(), "crate" | "self" | "super")
                            || self.crate_names.contains(&name)
                            || self.defs.modules.contains(&name)
                        {
                            Some(After::Module)
                        } else {
                            None
                        }
                    }
                    Some(After::Module) => {
                        self.free(&p.ident);
                        Some(self.kind_of(&p.ident.to_string()))
                    }
                    Some(_) => None,
                };
                if let Some(next) = next {
                    self.rename_use(&p.tree, Some(next));
                }
            }
            syn::UseTree::Name(n) if after == Some(After::Module) => {
                self.free(&n.ident);
            }
            syn::UseTree::Rename(r) if after == Some(After::Module) => {
                self.free(&r.ident);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.rename_use(t, after);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
