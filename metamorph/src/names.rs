//! Names a tree gives to items and imports: a rewrite must not hand one of them to something
//! else, nor take one for a local.

use std::collections::BTreeSet;

use syn::visit::Visit;

use crate::tree::Tree;

/// Every name an item, an enum variant or an import takes anywhere in the tree, and every
/// identifier it uses at all (so a new name can be picked that nothing uses).
#[derive(Default, Debug)]
pub struct TreeNames {
    pub items: BTreeSet<String>,
    pub all_idents: BTreeSet<String>,
}

impl TreeNames {
    pub fn of(tree: &Tree) -> TreeNames {
        let mut names = TreeNames::default();
        for (_, text) in tree.rust_files() {
            if let Ok(file) = syn::parse_file(text) {
                names.visit_file(&file);
            }
            collect_idents(text, &mut names.all_idents);
        }
        names
    }

    /// A name made of `prefix` and a number that no identifier of the tree uses.
    pub fn fresh(&mut self, prefix: &str) -> String {
        for n in 0.. {
            let name = format!("{prefix}{n}");
            if self.all_idents.insert(name.clone()) {
                return name;
            }
        }
        unreachable!("an unbounded range always yields a fresh name")
    }
}

/// Identifier-like words of the text (comments and strings included: cheap and safe).
fn collect_idents(text: &str, out: &mut BTreeSet<String>) {
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if !word.is_empty() {
            out.insert(word.to_string());
        }
    }
}

impl<'ast> Visit<'ast> for TreeNames {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if let syn::Item::Enum(e) = item {
            for v in &e.variants {
                self.items.insert(v.ident.to_string());
            }
        }
        let ident = crate::syntax::item_name(item);
        if let Some(ident) = ident {
            self.items.insert(ident.to_string());
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_use_tree(&mut self, tree: &'ast syn::UseTree) {
        match tree {
            syn::UseTree::Name(n) => {
                self.items.insert(n.ident.to_string());
            }
            syn::UseTree::Rename(r) => {
                self.items.insert(r.rename.to_string());
            }
            _ => {}
        }
        syn::visit::visit_use_tree(self, tree);
    }

    fn visit_impl_item_const(&mut self, c: &'ast syn::ImplItemConst) {
        self.items.insert(c.ident.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_variants_and_imports_are_taken_and_fresh_names_are_unused() {
        let tree = Tree::new([(
            "src/main.rs".to_string(),
            "use std::io::{Read as R, Write};\nenum E { A }\nconst C: u8 = 0;\nfn f() { let x0 = 1; }"
                .to_string(),
        )]);
        let mut names = TreeNames::of(&tree);
        for taken in ["R", "Write", "E", "A", "C", "f"] {
            assert!(names.items.contains(taken), "{taken}");
        }
        assert!(!names.items.contains("x0"));
        assert_eq!(names.fresh("x"), "x1");
        assert_eq!(names.fresh("x"), "x2");
    }
}
