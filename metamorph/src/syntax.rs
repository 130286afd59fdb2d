//! Parsing a file and turning syn's spans into byte ranges of its text.

use std::ops::Range;

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

/// A parsed file and what its spans are relative to.
pub struct Parsed {
    pub ast: syn::File,
    /// syn drops a byte-order mark before it parses; spans then start after it.
    base: usize,
}

impl Parsed {
    pub fn new(text: &str) -> Option<Parsed> {
        let ast = syn::parse_file(text).ok()?;
        Some(Parsed {
            ast,
            base: skipped_prefix(text),
        })
    }

    /// The bytes a span covers.
    pub fn range(&self, span: Span) -> Range<usize> {
        let r = span.byte_range();
        r.start + self.base..r.end + self.base
    }

    /// The bytes a node covers, from its first token (an outer attribute or doc comment
    /// included) to its last.
    pub fn node<T: Spanned>(&self, node: &T) -> Range<usize> {
        self.range(node.span())
    }
}

/// What `syn::parse_file` skips before it parses: a byte-order mark, then a shebang line
/// (`#!` not followed by `[`), up to its line break.
fn skipped_prefix(text: &str) -> usize {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[bom..];
    if let Some(after) = rest.strip_prefix("#!")
        && !after.trim_start().starts_with('[')
    {
        return bom + rest.find('\n').unwrap_or(rest.len());
    }
    bom
}

/// Every Rust file of a tree that parses, with its text and syntax tree (a file that does not
/// parse is left as it is: the linter reports it, no rewrite touches it).
pub fn parsed_files(tree: &crate::tree::Tree) -> impl Iterator<Item = (&String, &String, Parsed)> {
    tree.rust_files()
        .filter_map(|(path, text)| Parsed::new(text).map(|parsed| (path, text, parsed)))
}

/// An argument of a function-like macro written like a call's: `expr` or `name = expr`.
pub struct MacroArg {
    pub name: Option<syn::Ident>,
    pub expr: syn::Expr,
}

impl Parse for MacroArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = if input.peek(syn::Ident)
            && input.peek2(syn::Token![=])
            && !input.peek2(syn::Token![==])
        {
            let name: syn::Ident = input.parse()?;
            input.parse::<syn::Token![=]>()?;
            Some(name)
        } else {
            None
        };
        Ok(MacroArg {
            name,
            expr: input.parse()?,
        })
    }
}

/// The arguments of `mac!(..)` when they read as a call's arguments (`format!`, `vec!`,
/// `println!`, `assert_eq!`, ...); `None` for other syntax (`json!`'s objects, `matches!`'s
/// patterns, a DSL).
pub fn macro_args(mac: &syn::Macro) -> Option<Vec<MacroArg>> {
    let parser = Punctuated::<MacroArg, syn::Token![,]>::parse_terminated;
    mac.parse_body_with(parser)
        .ok()
        .map(|args| args.into_iter().collect())
        .or_else(|| {
            // `vec![value; count]`
            let parser = |input: ParseStream| {
                let value: syn::Expr = input.parse()?;
                input.parse::<syn::Token![;]>()?;
                let count: syn::Expr = input.parse()?;
                Ok(vec![value, count])
            };
            mac.parse_body_with(parser).ok().map(|exprs| {
                exprs
                    .into_iter()
                    .map(|expr| MacroArg { name: None, expr })
                    .collect()
            })
        })
}

/// Every identifier token in a token stream, with the tokens around it (for macros whose
/// arguments are not expressions).
pub fn idents(tokens: &TokenStream, out: &mut Vec<IdentInStream>) {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) => out.push(IdentInStream {
                ident: ident.clone(),
                after_dot_or_path: i > 0
                    && (is_punct(&trees[i - 1], &['.'])
                        || (i > 1
                            && is_punct(&trees[i - 1], &[':'])
                            && is_punct(&trees[i - 2], &[':']))),
                before_bang_or_path: trees.get(i + 1).is_some_and(|t| is_punct(t, &['!', ':'])),
                before_colon: trees.get(i + 1).is_some_and(|t| is_punct(t, &[':']))
                    && !trees.get(i + 2).is_some_and(|t| is_punct(t, &[':'])),
            }),
            TokenTree::Group(group) => idents(&group.stream(), out),
            _ => {}
        }
    }
}

fn is_punct(tree: &TokenTree, chars: &[char]) -> bool {
    matches!(tree, TokenTree::Punct(p) if chars.contains(&p.as_char()))
}

/// An identifier inside a macro's tokens.
pub struct IdentInStream {
    pub ident: proc_macro2::Ident,
    /// After `.` or `::` (a field, a method, a path's later segment).
    pub after_dot_or_path: bool,
    /// Before `!` or `:` (a macro, a path's first segment, a struct field's name).
    pub before_bang_or_path: bool,
    /// Before a single `:` (a field name in a struct literal, a key).
    pub before_colon: bool,
}

/// The string literals among a macro's tokens, at any depth.
pub fn string_literals(tokens: &TokenStream, out: &mut Vec<proc_macro2::Literal>) {
    for tree in tokens.clone() {
        match tree {
            TokenTree::Literal(lit) => {
                let text = lit.to_string();
                if text.ends_with('"') && (text.starts_with('"') || text.starts_with('r')) {
                    out.push(lit);
                }
            }
            TokenTree::Group(group) => string_literals(&group.stream(), out),
            _ => {}
        }
    }
}

/// Built-in attributes that read no item's tokens and leave its meaning alone.
const INERT_ATTRIBUTES: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "inline",
    "cold",
    "must_use",
    "deprecated",
    "track_caller",
    "cfg",
];

/// Whether every attribute is inert: a built-in one of [`INERT_ATTRIBUTES`], a tool's
/// (`#[rustfmt::skip]`, `#[clippy::..]`), or one of `also` (a family's own judgement, by the
/// attribute's last segment: `instrument` leaves a fn's name and meaning alone).
pub fn inert_attributes(attrs: &[syn::Attribute], also: &[&str]) -> bool {
    attrs.iter().all(|a| {
        let path = a.path();
        let first = path.segments.first().map(|s| s.ident.to_string());
        let last = last_segment(path).unwrap_or_default();
        (path.segments.len() == 1 && INERT_ATTRIBUTES.contains(&last.as_str()))
            || matches!(first.as_deref(), Some("rustfmt" | "clippy"))
            || also.contains(&last.as_str())
    })
}

/// The names a list of generic parameters binds (types and consts; lifetimes are not names
/// a path can use).
pub fn generic_names(generics: &syn::Generics) -> std::collections::BTreeSet<String> {
    generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(c) => Some(c.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect()
}

/// The name an item gives itself in its module's namespace (`None` for impls, `use`s and
/// anonymous items; an `extern crate` by its rename).
pub fn item_name(item: &syn::Item) -> Option<&syn::Ident> {
    match item {
        syn::Item::Const(i) => Some(&i.ident),
        syn::Item::Enum(i) => Some(&i.ident),
        syn::Item::Fn(i) => Some(&i.sig.ident),
        syn::Item::Macro(i) => i.ident.as_ref(),
        syn::Item::Mod(i) => Some(&i.ident),
        syn::Item::Static(i) => Some(&i.ident),
        syn::Item::Struct(i) => Some(&i.ident),
        syn::Item::Trait(i) => Some(&i.ident),
        syn::Item::TraitAlias(i) => Some(&i.ident),
        syn::Item::Type(i) => Some(&i.ident),
        syn::Item::Union(i) => Some(&i.ident),
        syn::Item::ExternCrate(i) => Some(i.rename.as_ref().map_or(&i.ident, |r| &r.1)),
        _ => None,
    }
}

/// The last segment of a path, as text.
pub fn last_segment(path: &syn::Path) -> Option<String> {
    path.segments.last().map(|s| s.ident.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_byte_offsets_of_the_text_even_after_a_byte_order_mark() {
        let text = "\u{feff}// é\nfn main() { let x = 1; }";
        let parsed = Parsed::new(text).expect("parses");
        let syn::Item::Fn(f) = &parsed.ast.items[0] else {
            panic!("a fn")
        };
        assert_eq!(&text[parsed.range(f.sig.ident.span())], "main");
        assert_eq!(&text[parsed.node(&f.block)], "{ let x = 1; }");
    }

    #[test]
    fn ranges_are_byte_offsets_after_a_shebang_line_too() {
        let text = "#!/usr/bin/env rust-script\n//! doc\nfn main() {}";
        let parsed = Parsed::new(text).expect("parses");
        let syn::Item::Fn(f) = &parsed.ast.items[0] else {
            panic!("a fn")
        };
        assert_eq!(&text[parsed.range(f.sig.ident.span())], "main");
        let attribute = "#![allow(x)]\nfn main() {}";
        let parsed = Parsed::new(attribute).expect("parses");
        let syn::Item::Fn(f) = &parsed.ast.items[0] else {
            panic!("a fn")
        };
        assert_eq!(&attribute[parsed.range(f.sig.ident.span())], "main");
    }

    #[test]
    fn attributes_are_inert_when_built_in_a_tools_or_named() {
        let f: syn::ItemFn = syn::parse_quote! {
            #[doc = "x"] #[allow(dead_code)] #[rustfmt::skip] #[tracing::instrument] fn f() {}
        };
        assert!(!inert_attributes(&f.attrs, &[]));
        assert!(inert_attributes(&f.attrs, &["instrument"]));
        let g: syn::ItemFn = syn::parse_quote! { #[tool] fn g() {} };
        assert!(!inert_attributes(&g.attrs, &["instrument"]));
    }

    #[test]
    fn macro_arguments_read_as_call_arguments_when_they_are() {
        let f: syn::File =
            syn::parse_str(r#"fn f() { format!("{a}", b = c); vec![x; 3]; json!({"k": v}); }"#)
                .expect("parses");
        let mut macros = Vec::new();
        syn::visit::visit_file(&mut Macros(&mut macros), &f);
        let counts: Vec<Option<usize>> = macros
            .iter()
            .map(|m| macro_args(m).map(|a| a.len()))
            .collect();
        assert_eq!(counts, [Some(2), Some(2), None]);
        let args = macro_args(&macros[0]).expect("args");
        assert_eq!(
            args[1].name.as_ref().map(|n| n.to_string()).as_deref(),
            Some("b")
        );
    }

    struct Macros<'a>(&'a mut Vec<syn::Macro>);
    impl<'ast> syn::visit::Visit<'ast> for Macros<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            self.0.push(m.clone());
        }
    }
}
