//! What the families that move, inline or wrap free fns (`inline_helper`, `move_helpers`,
//! `fn_to_method`) must know of a name before they touch it: how often the tree defines it,
//! every place that mentions it and how (a plain call, a value, a path, a macro's token), and
//! the names patterns bind. Mentions are over-counted on purpose: a family skips a fn that is
//! mentioned in a way it cannot follow.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;

use super::fn_support::no_temporaries;
use crate::syntax::{self, Parsed};
use crate::tree::Tree;

/// Every mention of every name in a tree.
#[derive(Default)]
pub(super) struct RefIndex {
    /// How many items (of any kind, at any depth, imports renamed `as` included) take a name.
    defs: BTreeMap<String, usize>,
    refs: BTreeMap<String, Vec<Ref>>,
    /// Per file, the names its patterns bind (locals, parameters, closure parameters).
    bound: BTreeMap<String, BTreeSet<String>>,
}

/// One mention of a name.
#[derive(Clone, Debug)]
pub(super) struct Ref {
    pub file: String,
    pub kind: RefKind,
}

#[derive(Clone, Debug)]
pub(super) enum RefKind {
    /// `name(args)` by a single-segment path, in code or in a known macro's arguments.
    Call(Call),
    /// A single-segment path that is not called (a value, a type), or a lone identifier
    /// among the tokens of a macro or an attribute (words of its strings included).
    Value,
    /// A segment of a longer path (`self::name`, `m::name`, `use a::name`), or an identifier
    /// next to `::` among tokens.
    Path,
}

/// A plain call and where it stands.
#[derive(Clone, Debug)]
pub(super) struct Call {
    /// The whole call expression.
    pub range: Range<usize>,
    /// The callee's identifier.
    pub func: Range<usize>,
    pub args: Vec<Range<usize>>,
    /// Whether an argument holds a closure (its parameter types come from the callee).
    pub closure_arg: bool,
    /// Whether no argument makes a temporary that its value may borrow (`&x`, `x.len()`,
    /// `f(y)`, not `&make()` or `make().as_str()`): the arguments can then be bound by a
    /// `let` without shortening a temporary's life.
    pub plain_args: bool,
    /// Whether a block written in place of the call would end the expression early: at the
    /// start of a statement or a match arm's body that goes on after it, at the end of a
    /// `let .. else` value.
    pub block_breaks_parse: bool,
    /// The inline modules around the call within its file.
    pub module: Vec<String>,
    /// The innermost fn around the call (an item fn, a method, a trait's default method).
    pub caller: Option<Range<usize>>,
    /// Whether the caller is itself nested in another fn's body.
    pub nested: bool,
    pub caller_is_const: bool,
}

impl RefIndex {
    pub fn of(tree: &Tree) -> RefIndex {
        let mut index = RefIndex::default();
        for (path, _, parsed) in crate::syntax::parsed_files(tree) {
            let mut indexer = Indexer {
                file: path,
                parsed: &parsed,
                index: &mut index,
                module: Vec::new(),
                fns: Vec::new(),
                statements: BTreeMap::new(),
                let_else_values: BTreeSet::new(),
            };
            indexer.visit_file(&parsed.ast);
        }
        // A manifest may name a fn for the linter (`error-builders = ["tool_failure"]`).
        for (path, text) in &tree.files {
            if path.ends_with("Cargo.toml") {
                for word in quoted_words(text) {
                    index.refs.entry(word).or_default().push(Ref {
                        file: path.clone(),
                        kind: RefKind::Value,
                    });
                }
            }
        }
        index
    }

    pub fn refs(&self, name: &str) -> &[Ref] {
        self.refs.get(name).map_or(&[], Vec::as_slice)
    }

    pub fn defined_once(&self, name: &str) -> bool {
        self.defs.get(name) == Some(&1)
    }

    pub fn bound_in(&self, file: &str, name: &str) -> bool {
        self.bound.get(file).is_some_and(|b| b.contains(name))
    }
}

/// Macros whose arguments are expressions evaluated where they stand, in order (calls inside
/// them are followed; inside any other macro a name is only a token).
pub(super) fn is_expression_macro(name: &str) -> bool {
    matches!(
        name,
        "format"
            | "format_args"
            | "print"
            | "println"
            | "eprint"
            | "eprintln"
            | "write"
            | "writeln"
            | "panic"
            | "assert"
            | "assert_eq"
            | "assert_ne"
            | "debug_assert"
            | "debug_assert_eq"
            | "debug_assert_ne"
            | "vec"
            | "dbg"
            | "todo"
            | "unimplemented"
            | "unreachable"
    )
}

struct Indexer<'a> {
    file: &'a str,
    parsed: &'a Parsed,
    index: &'a mut RefIndex,
    module: Vec<String>,
    /// The fns around the current node: their range and whether they are `const`.
    fns: Vec<(Range<usize>, bool)>,
    /// The expressions of statements and of match arms' bodies, start → end: a block that
    /// starts one ends it there (`{ .. }.len()` would not parse).
    statements: BTreeMap<usize, usize>,
    /// Where the values of `let .. else` end (one cannot end with `}`).
    let_else_values: BTreeSet<usize>,
}

impl Indexer<'_> {
    fn mention(&mut self, name: String, kind: RefKind) {
        let file = self.file.to_string();
        self.index
            .refs
            .entry(name)
            .or_default()
            .push(Ref { file, kind });
    }

    fn define(&mut self, ident: &syn::Ident) {
        *self.index.defs.entry(ident.to_string()).or_default() += 1;
    }

    fn in_fn(&mut self, node: Range<usize>, is_const: bool, visit: impl FnOnce(&mut Self)) {
        self.fns.push((node, is_const));
        visit(self);
        self.fns.pop();
    }

    fn tokens(&mut self, tokens: TokenStream) {
        let mut found = Vec::new();
        token_mentions(tokens, &mut found);
        for (name, kind) in found {
            self.mention(name, kind);
        }
    }
}

/// The identifiers among tokens, as mentions: after `.` they name a field or a method (not a
/// mention), next to `::` they are a path's segment; the words of string literals count
/// too (a derive may read a fn's name from a string: `#[serde(default = "name")]`).
fn token_mentions(tokens: TokenStream, out: &mut Vec<(String, RefKind)>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |i: usize, c: char| {
        trees
            .get(i)
            .is_some_and(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == c))
    };
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) => {
                let after_dot = i > 0 && punct(i - 1, '.');
                let after_path = i > 1 && punct(i - 1, ':') && punct(i - 2, ':');
                let before_path = punct(i + 1, ':') && punct(i + 2, ':');
                if after_dot && !after_path {
                    continue;
                }
                let kind = if after_path || before_path {
                    RefKind::Path
                } else {
                    RefKind::Value
                };
                out.push((ident.to_string(), kind));
            }
            TokenTree::Group(group) => token_mentions(group.stream(), out),
            TokenTree::Literal(lit) => {
                let text = lit.to_string();
                if text.ends_with('"') {
                    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                        if !word.is_empty() {
                            out.push((word.to_string(), RefKind::Value));
                        }
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

impl<'ast> Visit<'ast> for Indexer<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if let syn::Item::Enum(e) = item {
            for v in &e.variants {
                self.define(&v.ident);
            }
        }
        let ident = crate::syntax::item_name(item);
        if let Some(ident) = ident {
            self.define(ident);
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_foreign_item(&mut self, item: &'ast syn::ForeignItem) {
        match item {
            syn::ForeignItem::Fn(f) => self.define(&f.sig.ident),
            syn::ForeignItem::Static(s) => self.define(&s.ident),
            syn::ForeignItem::Type(t) => self.define(&t.ident),
            _ => {}
        }
        syn::visit::visit_foreign_item(self, item);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let node = self.parsed.node(f);
        let is_const = f.sig.constness.is_some();
        self.in_fn(node, is_const, |me| syn::visit::visit_item_fn(me, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let node = self.parsed.node(f);
        let is_const = f.sig.constness.is_some();
        self.in_fn(node, is_const, |me| syn::visit::visit_impl_item_fn(me, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        let node = self.parsed.node(f);
        let is_const = f.sig.constness.is_some();
        self.in_fn(node, is_const, |me| syn::visit::visit_trait_item_fn(me, f));
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        let syn::Expr::Path(func) = &*call.func else {
            return syn::visit::visit_expr_call(self, call);
        };
        let Some(ident) = plain_ident(func) else {
            return syn::visit::visit_expr_call(self, call);
        };
        let mut closures = HasClosure(false);
        for arg in &call.args {
            closures.visit_expr(arg);
        }
        let range = self.parsed.node(call);
        let found = Call {
            plain_args: call.args.iter().all(no_temporaries),
            block_breaks_parse: self
                .statements
                .get(&range.start)
                .is_some_and(|end| *end != range.end)
                || self.let_else_values.contains(&range.end),
            range,
            func: self.parsed.range(ident.span()),
            args: call.args.iter().map(|a| self.parsed.node(a)).collect(),
            closure_arg: closures.0,
            module: self.module.clone(),
            caller: self.fns.last().map(|f| f.0.clone()),
            nested: self.fns.len() > 1,
            caller_is_const: self.fns.last().is_some_and(|f| f.1),
        };
        self.mention(ident.to_string(), RefKind::Call(found));
        for attr in &call.attrs {
            self.visit_attribute(attr);
        }
        for arg in &call.args {
            self.visit_expr(arg);
        }
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        match stmt {
            syn::Stmt::Expr(e, _) => {
                let node = self.parsed.node(e);
                self.statements.insert(node.start, node.end);
            }
            syn::Stmt::Local(syn::Local {
                init: Some(init), ..
            }) if init.diverge.is_some() => {
                self.let_else_values
                    .insert(self.parsed.node(&*init.expr).end);
            }
            _ => {}
        }
        syn::visit::visit_stmt(self, stmt);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        let node = self.parsed.node(&*arm.body);
        self.statements.insert(node.start, node.end);
        syn::visit::visit_arm(self, arm);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() == 1 {
            self.mention(path.segments[0].ident.to_string(), RefKind::Value);
        } else {
            for segment in &path.segments {
                self.mention(segment.ident.to_string(), RefKind::Path);
            }
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_use_tree(&mut self, tree: &'ast syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => self.mention(p.ident.to_string(), RefKind::Path),
            syn::UseTree::Name(n) => self.mention(n.ident.to_string(), RefKind::Path),
            syn::UseTree::Rename(r) => {
                self.mention(r.ident.to_string(), RefKind::Path);
                self.define(&r.rename);
            }
            syn::UseTree::Glob(_) | syn::UseTree::Group(_) => {}
        }
        syn::visit::visit_use_tree(self, tree);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        let name = syntax::last_segment(&mac.path).unwrap_or_default();
        let args = is_expression_macro(&name)
            .then(|| syntax::macro_args(mac))
            .flatten();
        match args {
            Some(args) => {
                for arg in &args {
                    self.visit_expr(&arg.expr);
                }
            }
            None => self.tokens(mac.tokens.clone()),
        }
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        // Doc comments mention names in prose; they mean nothing to the compiler.
        if !attr.path().is_ident("doc") {
            self.tokens(attr.meta.to_token_stream());
        }
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.index
            .bound
            .entry(self.file.to_string())
            .or_default()
            .insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// The identifier-like words inside the `"..."` strings of a text.
fn quoted_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            let split = part.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            words.extend(split.filter(|w| !w.is_empty()).map(str::to_string));
        }
    }
    words
}

/// The identifier of a path of one plain segment (`name`, not `::name`, `name::<T>`, `<T>::x`).
pub(super) fn plain_ident(path: &syn::ExprPath) -> Option<&syn::Ident> {
    if path.qself.is_some() || path.path.leading_colon.is_some() {
        return None;
    }
    let segment = path.path.segments.first()?;
    (path.path.segments.len() == 1 && segment.arguments.is_none()).then_some(&segment.ident)
}

struct HasClosure(bool);

impl<'ast> Visit<'ast> for HasClosure {
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
        self.0 = true;
    }
}

/// A module-level free fn of a file (at its top or in an inline module), with the inline
/// modules around it.
pub(super) struct FreeFn<'a> {
    pub module: Vec<String>,
    pub item: &'a syn::ItemFn,
}

pub(super) fn free_fns(items: &[syn::Item]) -> Vec<FreeFn<'_>> {
    let mut out = Vec::new();
    collect_free_fns(items, &mut Vec::new(), &mut out);
    out
}

fn collect_free_fns<'a>(
    items: &'a [syn::Item],
    module: &mut Vec<String>,
    out: &mut Vec<FreeFn<'a>>,
) {
    for item in items {
        match item {
            syn::Item::Fn(f) => out.push(FreeFn {
                module: module.clone(),
                item: f,
            }),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    module.push(m.ident.to_string());
                    collect_free_fns(inner, module, out);
                    module.pop();
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    #[test]
    fn a_fn_named_in_a_manifest_is_mentioned_there() {
        let mut tree = testing::tree(&[("src/main.rs", "fn tool_failure() {}")]);
        tree.files
            .get_mut("Cargo.toml")
            .expect("manifest")
            .push_str("[package.metadata.mcp-lint]\nerror-builders = [\"tool_failure\"]\n");
        let index = RefIndex::of(&tree);
        assert!(matches!(
            index.refs("tool_failure"),
            [Ref {
                kind: RefKind::Value,
                ..
            }]
        ));
    }

    #[test]
    fn mentions_are_told_apart_by_how_the_name_is_used() {
        let tree = testing::tree(&[(
            "src/main.rs",
            "fn f(x: u8) -> u8 { x }\nfn main() { f(1); let g = f; self::f(2); println!(\"{}\", f(3)); json!(f); x.f(); }\n#[serde(default = \"f\")] struct S;",
        )]);
        let index = RefIndex::of(&tree);
        let kinds: Vec<&str> = index
            .refs("f")
            .iter()
            .map(|r| match &r.kind {
                RefKind::Call(_) => "call",
                RefKind::Value => "value",
                RefKind::Path => "path",
            })
            .collect();
        assert_eq!(kinds, ["call", "value", "path", "call", "value", "value"]);
        assert!(index.defined_once("f"));
        assert!(index.bound_in("src/main.rs", "g"));
        let RefKind::Call(call) = &index.refs("f")[0].kind else {
            panic!("a call")
        };
        assert_eq!(call.args.len(), 1);
        assert!(!call.nested && call.caller.is_some());
    }
}
