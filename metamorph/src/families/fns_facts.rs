//! What a file imports and declares.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

/// What a file imports and declares, for resolving the names it uses.
#[derive(Default)]
pub struct FileFacts {
    /// `use` leaves: the name they bind and the path they name.
    pub(super) uses: Vec<(String, Vec<String>)>,
    /// The paths of glob imports.
    pub(super) globs: Vec<Vec<String>>,
    /// Names of items declared anywhere in the file.
    pub(in crate::families) items: BTreeSet<String>,
    /// Struct fields by name, with their types.
    pub(super) fields: BTreeMap<String, Vec<syn::Type>>,
}

impl FileFacts {
    /// The names the file's items and imports take.
    pub fn names(&self) -> impl Iterator<Item = String> + '_ {
        let imported = self.uses.iter().map(|(n, _)| n.clone());
        self.items.iter().cloned().chain(imported)
    }
}

impl<'ast> Visit<'ast> for FileFacts {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        use_leaves(&u.tree, &mut prefix, self);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        let ident = match item {
            syn::Item::Struct(i) => Some(&i.ident),
            syn::Item::Enum(i) => Some(&i.ident),
            syn::Item::Union(i) => Some(&i.ident),
            syn::Item::Type(i) => Some(&i.ident),
            syn::Item::Trait(i) => Some(&i.ident),
            syn::Item::Fn(i) => Some(&i.sig.ident),
            syn::Item::Mod(i) => Some(&i.ident),
            syn::Item::Const(i) => Some(&i.ident),
            syn::Item::Static(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(ident) = ident {
            self.items.insert(ident.to_string());
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_field(&mut self, f: &'ast syn::Field) {
        if let Some(name) = &f.ident {
            let entry = self.fields.entry(name.to_string()).or_default();
            entry.push(f.ty.clone());
        }
        syn::visit::visit_field(self, f);
    }
}

fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, facts: &mut FileFacts) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, facts);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            // `use a::b::{self}` binds `b`.
            let name = if n.ident == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                n.ident.to_string()
            };
            facts.uses.push((name, path));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            facts.uses.push((r.rename.to_string(), path));
        }
        syn::UseTree::Glob(_) => facts.globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, facts);
            }
        }
    }
}
