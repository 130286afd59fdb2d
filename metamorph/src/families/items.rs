//! What a tree's crates define, for the item renames: which names are the crate's own free
//! items (fns, types, traits, consts, statics) and associated items (inherent methods and
//! consts, the methods of the crate's own traits), and which names must keep their spelling
//! because something outside the crate reads them.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

use crate::syntax;
use crate::tree::Tree;

const STD_METHODS: &str = include_str!("../../data/std-methods.txt");
const CRATE_METHODS: &str = include_str!("../../data/crate-methods.txt");

/// Names of the std prelude: a crate item of one of these names is not renamed, since a file
/// that does not import it means the prelude's.
const PRELUDE: &[&str] = &[
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "Err",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Attributes beyond the inert built-ins that leave a fn's name free to change.
const NAME_FREE_ATTRIBUTES: &[&str] = &["cfg_attr", "instrument", "async_trait"];

/// Attributes whose fn is a handler an SDK names by the fn's name.
const TOOL_ATTRIBUTES: &[&str] = &["tool", "prompt", "resource", "mcp_tool", "tool_fn"];

/// A library's method names (`.name(..)` may call it: renaming a crate method of that name
/// could change which method a call means).
pub fn library_method(name: &str) -> bool {
    let listed = |list: &str| list.lines().any(|l| l == name);
    listed(STD_METHODS) || listed(CRATE_METHODS)
}

/// What the tree defines and what it must keep.
#[derive(Default, Debug)]
pub struct Definitions {
    /// Free items: fns, structs, enums, unions, type aliases, traits, consts, statics.
    pub free: BTreeSet<String>,
    /// Associated fns and consts of inherent impls, and the fns of the crate's own traits.
    pub assoc: BTreeSet<String>,
    /// Associated fns taking `self`, with the types they are defined on.
    pub methods: BTreeMap<String, BTreeSet<String>>,
    /// Type and trait names the crate defines, and its module names.
    pub types: BTreeSet<String>,
    pub modules: BTreeSet<String>,
    /// Names that must keep their spelling.
    pub fixed: BTreeSet<String>,
    /// For each type, the names its written trait impls define, and the traits.
    pub trait_items: BTreeMap<String, BTreeSet<String>>,
    /// `#[tool]` fns without `name = ..`: renaming them needs the old name written in.
    pub unnamed_tools: BTreeSet<String>,
    traits: BTreeSet<String>,
    rmcp: bool,
}

impl Definitions {
    pub fn of(tree: &Tree) -> Definitions {
        let mut defs = Definitions {
            rmcp: tree
                .files
                .iter()
                .any(|(p, t)| p.ends_with("Cargo.toml") && t.contains("rmcp")),
            ..Definitions::default()
        };
        let files: Vec<syn::File> = tree
            .rust_files()
            .filter_map(|(_, t)| syn::parse_file(t).ok())
            .collect();
        for file in &files {
            TraitNames(&mut defs.traits).visit_file(file);
        }
        for file in &files {
            Collect {
                defs: &mut defs,
                in_body: 0,
            }
            .visit_file(file);
        }
        // The linter's configuration names fns (`panic-guards = ["guard"]`).
        for (_, manifest) in tree.files.iter().filter(|(p, _)| p.ends_with("Cargo.toml")) {
            for quoted in manifest.split('"').skip(1).step_by(2) {
                defs.fixed.extend(quoted.split("::").map(String::from));
            }
        }
        for name in PRELUDE
            .iter()
            .chain(&["main", "self", "Self", "crate", "super"])
        {
            defs.fixed.insert(name.to_string());
        }
        defs
    }

    pub fn renamable_free(&self, name: &str) -> bool {
        self.free.contains(name) && !self.fixed.contains(name)
    }

    pub fn renamable_assoc(&self, name: &str) -> bool {
        self.assoc.contains(name) && !self.fixed.contains(name) && !library_method(name)
    }
}

struct TraitNames<'a>(&'a mut BTreeSet<String>);

impl<'ast> Visit<'ast> for TraitNames<'_> {
    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.0.insert(t.ident.to_string());
    }
}

struct Collect<'a> {
    defs: &'a mut Definitions,
    /// Inside a fn body: items there are local to it and keep their names.
    in_body: usize,
}

impl Collect<'_> {
    fn define(&mut self, ident: &syn::Ident, attrs: &[syn::Attribute]) {
        let name = ident.to_string();
        if self.in_body > 0 || !neutral(attrs) {
            self.defs.fixed.insert(name.clone());
        }
        self.defs.free.insert(name);
    }

    fn define_type(&mut self, ident: &syn::Ident, attrs: &[syn::Attribute]) {
        self.defs.types.insert(ident.to_string());
        self.define(ident, attrs);
    }

    fn associated(&mut self, sig_or_name: &syn::Ident, attrs: &[syn::Attribute]) {
        let name = sig_or_name.to_string();
        if let Some(tool) = tool_attribute(attrs) {
            let named = attribute_names_itself(tool);
            let last = syntax::last_segment(tool.path()).unwrap_or_default();
            if !(named || self.defs.rmcp && last == "tool") {
                self.defs.fixed.insert(name.clone());
            } else if !named {
                self.defs.unnamed_tools.insert(name.clone());
            }
        } else if !neutral(attrs) {
            self.defs.fixed.insert(name.clone());
        }
        self.defs.assoc.insert(name);
    }
}

fn neutral(attrs: &[syn::Attribute]) -> bool {
    syntax::inert_attributes(attrs, NAME_FREE_ATTRIBUTES)
}

fn tool_attribute(attrs: &[syn::Attribute]) -> Option<&syn::Attribute> {
    attrs.iter().find(|a| {
        syntax::last_segment(a.path()).is_some_and(|n| TOOL_ATTRIBUTES.contains(&n.as_str()))
    })
}

/// `#[tool(name = "..")]`: the wire name does not come from the fn's.
pub fn attribute_names_itself(attr: &syn::Attribute) -> bool {
    let syn::Meta::List(list) = &attr.meta else {
        return false;
    };
    let mut names = Vec::new();
    syntax::idents(&list.tokens, &mut names);
    names
        .iter()
        .any(|i| i.ident == "name" && !i.after_dot_or_path)
}

/// The self type's last segment of an impl (`impl<T> Foo<T>` → `Foo`).
pub fn self_type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => syntax::last_segment(&p.path),
        syn::Type::Reference(r) => self_type_name(&r.elem),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.define(&f.sig.ident, &f.attrs);
        self.in_body += 1;
        syn::visit::visit_item_fn(self, f);
        self.in_body -= 1;
    }
    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.define_type(&s.ident, &[]);
        syn::visit::visit_item_struct(self, s);
    }
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.define_type(&e.ident, &[]);
        for v in &e.variants {
            self.defs.fixed.insert(v.ident.to_string());
        }
        syn::visit::visit_item_enum(self, e);
    }
    fn visit_item_union(&mut self, u: &'ast syn::ItemUnion) {
        self.define_type(&u.ident, &[]);
    }
    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        self.define_type(&t.ident, &[]);
        syn::visit::visit_item_type(self, t);
    }
    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.define_type(&t.ident, &[]);
        for item in &t.items {
            match item {
                syn::TraitItem::Fn(f) => self.associated(&f.sig.ident, &f.attrs),
                syn::TraitItem::Const(c) => self.associated(&c.ident, &c.attrs),
                syn::TraitItem::Type(ty) => {
                    self.defs.fixed.insert(ty.ident.to_string());
                }
                _ => {}
            }
        }
        self.in_body += 1;
        syn::visit::visit_item_trait(self, t);
        self.in_body -= 1;
    }
    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.define(&c.ident, &c.attrs);
        syn::visit::visit_item_const(self, c);
    }
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.define(&s.ident, &s.attrs);
        syn::visit::visit_item_static(self, s);
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.defs.modules.insert(m.ident.to_string());
        self.defs.fixed.insert(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
    }
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        if let Some(name) = &m.ident {
            self.defs.fixed.insert(name.to_string());
        }
        self.fix_tokens(&m.mac.tokens);
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let own_trait = i.trait_.as_ref().map(|(_, path, _)| {
            let name = syntax::last_segment(path).unwrap_or_default();
            (
                self.defs.traits.contains(&name) && path.segments.len() == 1,
                name,
            )
        });
        let self_type = self_type_name(&i.self_ty).unwrap_or_default();
        for item in &i.items {
            let (ident, attrs, takes_self) = match item {
                syn::ImplItem::Fn(f) => (&f.sig.ident, &f.attrs, f.sig.receiver().is_some()),
                syn::ImplItem::Const(c) => (&c.ident, &c.attrs, false),
                syn::ImplItem::Type(t) => (&t.ident, &t.attrs, false),
                _ => continue,
            };
            let is_type = matches!(item, syn::ImplItem::Type(_));
            match &own_trait {
                Some((false, trait_name)) => {
                    self.defs.fixed.insert(ident.to_string());
                    let written = self.defs.trait_items.entry(self_type.clone()).or_default();
                    written.insert(ident.to_string());
                    written.insert(trait_name.clone());
                }
                _ if is_type => {
                    self.defs.fixed.insert(ident.to_string());
                }
                _ => {
                    self.associated(ident, attrs);
                    if takes_self && own_trait.is_none() {
                        let types = self.defs.methods.entry(ident.to_string()).or_default();
                        types.insert(self_type.clone());
                    }
                }
            }
        }
        self.in_body += 1;
        syn::visit::visit_item_impl(self, i);
        self.in_body -= 1;
    }
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        // A name that is also a local's: a one-segment path of it may mean the local.
        self.defs.fixed.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if a.path().is_ident("doc") {
            return;
        }
        // Names in attributes are read by macros (`#[serde(default = "fallback")]`,
        // `#[tool_router(router = r)]`).
        if let syn::Meta::List(list) = &a.meta {
            self.fix_tokens(&list.tokens);
        }
        if let syn::Meta::NameValue(nv) = &a.meta {
            self.fix_tokens(&quote::ToTokens::to_token_stream(&nv.value));
        }
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        match syntax::macro_args(m) {
            Some(args) => {
                for arg in &args {
                    self.visit_expr(&arg.expr);
                }
            }
            None if syntax::last_segment(&m.path).as_deref() == Some("json") => {
                // Values are expressions; only a lone name (a local, a const) is renamed there.
                let mut idents = Vec::new();
                syntax::idents(&m.tokens, &mut idents);
                let in_paths = idents
                    .into_iter()
                    .filter(|i| i.after_dot_or_path || i.before_bang_or_path);
                self.defs
                    .fixed
                    .extend(in_paths.map(|i| i.ident.to_string()));
            }
            None => self.fix_tokens(&m.tokens),
        }
    }
}

impl Collect<'_> {
    /// Every identifier of the tokens, and every path-like word of their strings, keeps its
    /// spelling.
    fn fix_tokens(&mut self, tokens: &proc_macro2::TokenStream) {
        let mut idents = Vec::new();
        syntax::idents(tokens, &mut idents);
        self.defs
            .fixed
            .extend(idents.into_iter().map(|i| i.ident.to_string()));
        let mut strings = Vec::new();
        syntax::string_literals(tokens, &mut strings);
        for s in strings {
            let text = s.to_string();
            let inner = text.trim_matches(|c| c == '"' || c == 'r' || c == '#');
            if inner
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
            {
                self.defs.fixed.extend(inner.split("::").map(String::from));
            }
        }
    }
}

/// For each inline module of a file (the file's own is `[]`), the crate's free names it can
/// use by one segment: defined in it, or imported from the crate (all of them after a glob
/// import from the crate).
pub fn in_scope(
    file: &syn::File,
    defs: &Definitions,
    crate_names: &BTreeSet<String>,
) -> BTreeMap<Vec<String>, BTreeSet<String>> {
    let mut scope = Scope::default();
    scope.visit_file(file);
    let local = |root: &str| {
        matches!(root, "crate" | "self" | "super")
            || crate_names.contains(root)
            || defs.modules.contains(root)
    };
    let mut out = scope.defined;
    for (module, root, leaf) in scope.imports {
        if local(&root) {
            let names = out.entry(module).or_default();
            if leaf == "*" {
                names.extend(defs.free.iter().cloned());
            } else {
                names.insert(leaf);
            }
        }
    }
    out
}

#[derive(Default)]
struct Scope {
    module: Vec<String>,
    defined: BTreeMap<Vec<String>, BTreeSet<String>>,
    /// (module, first segment, name brought in or `*`)
    imports: Vec<(Vec<String>, String, String)>,
}

impl<'ast> Visit<'ast> for Scope {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, None, &mut leaves);
        for (root, leaf) in leaves {
            self.imports.push((self.module.clone(), root, leaf));
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        let ident = match item {
            syn::Item::Fn(i) => Some(&i.sig.ident),
            syn::Item::Struct(i) => Some(&i.ident),
            syn::Item::Enum(i) => Some(&i.ident),
            syn::Item::Union(i) => Some(&i.ident),
            syn::Item::Type(i) => Some(&i.ident),
            syn::Item::Trait(i) => Some(&i.ident),
            syn::Item::Const(i) => Some(&i.ident),
            syn::Item::Static(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(ident) = ident {
            let names = self.defined.entry(self.module.clone()).or_default();
            names.insert(ident.to_string());
        }
        // Into inline modules and bodies (an item defined in a body keeps its name anyway).
        syn::visit::visit_item(self, item);
    }
}

/// (root, leaf) pairs of a use tree; the leaf is the name the item is used by, `*` for a glob.
fn use_leaves(tree: &syn::UseTree, root: Option<&str>, out: &mut Vec<(String, String)>) {
    let first = |ident: &syn::Ident| root.map_or_else(|| ident.to_string(), String::from);
    match tree {
        syn::UseTree::Path(p) => use_leaves(&p.tree, Some(&first(&p.ident)), out),
        syn::UseTree::Name(n) => out.push((first(&n.ident), n.ident.to_string())),
        syn::UseTree::Rename(r) => out.push((first(&r.ident), r.rename.to_string())),
        syn::UseTree::Glob(_) => out.push((root.unwrap_or("").to_string(), "*".to_string())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, root, out);
            }
        }
    }
}
