//! `extract_body`: a fn's body moves into a new private helper with the same parameters and
//! return type, and the fn calls it (`fn f(a: A) -> R { BODY }` → `fn f(a: A) -> R {
//! mm_body_f0(a) }` + `fn mm_body_f0(a: A) -> R { BODY }`).
//!
//! Free fns get their helper right after them; methods get theirs right after them in the
//! same impl (`self.mm_body_m0(p)`, `Self::mm_body_m0(p)` without a receiver), or, when the impl
//! is a trait's or carries a macro attribute, in a plain `impl Type { .. }` placed after it
//! (with `use Trait as _;` at the top of the body when the trait is named by a path: a trait
//! impl puts its trait's methods in scope, a plain impl does not). Pattern parameters are
//! passed on rebuilt (`Parameters(args)`), a `_` gets a name first; the fn keeps its
//! attributes, the helper gets copies of the lint levels and `cfg`s. The body is copied, so its
//! lines still map to the input, and the linter's outputs that name the helper are read as
//! naming the fn.
//!
//! A fn is left alone when the helper could mean something else or not compile: generics,
//! lifetimes or `impl Trait` in the signature (the helper's would need naming), `const`,
//! `unsafe` or `extern` fns, typed receivers (`self: Arc<Self>`), parameters whose pattern
//! cannot be rebuilt into a value, attributes that may rewrite the body or read the
//! parameters, in a trait impl a body that names `Self::..` (an associated item of the trait,
//! which a plain impl cannot name) or a type not declared next to the impl, and a fn (or, for
//! a plain impl after it, an impl) an mcp-lint suppression directive covers: the body would
//! leave what it covers.

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use super::Family;
use super::fn_support::{
    attrs_only, directive_above, directive_within, indent_at, plain_signature,
};
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct ExtractBody;

impl Family for ExtractBody {
    fn name(&self) -> &'static str {
        "extract_body"
    }

    fn about(&self) -> &'static str {
        "fn bodies moved into a new private helper the fn calls with its parameters"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, text, parsed) in crate::syntax::parsed_files(tree) {
            let mut file = File {
                path,
                text,
                parsed: &parsed,
                names: &mut names,
                rewriter: &mut rewriter,
            };
            file.items(&parsed.ast.items);
        }
        rewriter.finish()
    }
}

/// Attributes that keep their meaning when the body they sit over moves to a helper.
const KEPT_ATTRS: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "forbid",
    "inline",
    "cold",
    "must_use",
    "cfg",
    "test",
    "tool",
    "instrument",
];

/// Attributes the helper gets too: lint levels keep covering the body, a `cfg` keeps the
/// helper out of builds without the fn. (`#[expect]` is not among them: the fn's copy would
/// go unfulfilled; a fn with one is not kept.)
const COPIED_ATTRS: &[&str] = &["cfg", "allow", "warn", "deny", "forbid"];

/// Attributes of an impl whose methods may be rewritten. The macros (rmcp's routers,
/// `async_trait`) take any method body; the helpers go to a plain impl out of their reach.
const IMPL_ATTRS: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "cfg",
    "tool_router",
    "tool_handler",
    "async_trait",
];

/// Attributes that do not read the fn's parameters (a `_` may get a name under them).
const INERT_ATTRS: &[&str] = &[
    "doc", "allow", "warn", "deny", "forbid", "inline", "cold", "must_use", "cfg",
];

/// Where a fn stands, which decides how it calls its helper.
#[derive(Clone, Copy)]
enum Owner<'a> {
    Free,
    /// A method; in a trait impl, `trait_path` is the trait's path when it must be brought
    /// into the helper's scope (a trait impl makes its trait's methods callable, a plain impl
    /// does not; a trait named by one identifier is in scope already).
    Impl {
        in_trait_impl: bool,
        trait_path: Option<&'a str>,
    },
}

/// A fn's rewrite: edits of the fn itself, and its helper.
struct Extraction {
    edits: Vec<(Range<usize>, String)>,
    helper: Vec<Chunk>,
    /// The fn's name and its helper's: the linter's outputs that name the helper (a tool's
    /// fn, found by its body) are read as naming the fn.
    names: (String, String),
}

struct File<'a, 'r, 't> {
    path: &'a str,
    text: &'a str,
    parsed: &'a Parsed,
    names: &'a mut TreeNames,
    rewriter: &'r mut Rewriter<'t>,
}

impl File<'_, '_, '_> {
    fn items(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Fn(f) if f.sig.ident != "main" => self.free_fn(f),
                syn::Item::Impl(i) => self.impl_block(i, items),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.items(inner);
                    }
                }
                _ => {}
            }
        }
    }

    fn free_fn(&mut self, f: &syn::ItemFn) {
        let node = self.parsed.node(f);
        if self.covered(node.clone(), self.parsed.node(&f.sig).start) {
            return;
        }
        let indent = indent_at(self.text, node.start);
        if let Some(x) = self.extraction(&f.attrs, &f.sig, &f.block, Owner::Free, &indent) {
            self.apply(x, node.end, &indent);
        }
    }

    fn impl_block(&mut self, block: &syn::ItemImpl, siblings: &[syn::Item]) {
        if block.unsafety.is_some()
            || block.defaultness.is_some()
            || !attrs_only(&block.attrs, IMPL_ATTRS)
        {
            return;
        }
        let Some(separate) = self.separate_impl(block, siblings) else {
            return;
        };
        let impl_node = self.parsed.node(block);
        let impl_keyword = self.parsed.range(block.impl_token.span).start;
        if separate.header.is_some() && self.covered(impl_node.clone(), impl_keyword) {
            // The helpers would leave the impl a directive covers.
            return;
        }
        let indent = indent_at(self.text, impl_node.start);
        let method_indent = format!("{indent}    ");
        let mut moved: Vec<Chunk> = Vec::new();
        for item in &block.items {
            let syn::ImplItem::Fn(f) = item else {
                continue;
            };
            let node = self.parsed.node(f);
            if f.defaultness.is_some() || self.covered(node.clone(), self.parsed.node(&f.sig).start)
            {
                continue;
            }
            let owner = Owner::Impl {
                in_trait_impl: block.trait_.is_some(),
                trait_path: separate.trait_path.as_deref(),
            };
            let Some(x) = self.extraction(&f.attrs, &f.sig, &f.block, owner, &method_indent) else {
                continue;
            };
            if separate.header.is_some() {
                if self.edit_fn(&x) {
                    moved.push(Chunk::text(format!("\n{method_indent}")));
                    moved.extend(x.helper);
                }
            } else {
                self.apply(x, node.end, &method_indent);
            }
        }
        if let (Some(header), false) = (separate.header, moved.is_empty()) {
            let mut chunks = vec![Chunk::text(format!("\n\n{indent}"))];
            chunks.extend(header);
            chunks.extend(moved);
            chunks.push(Chunk::text(format!("\n{indent}}}")));
            self.rewriter.insert(self.path, impl_node.end, chunks);
        }
    }

    /// Makes the fn's edits and puts its helper right after it.
    fn apply(&mut self, x: Extraction, after: usize, indent: &str) {
        if self.edit_fn(&x) {
            let mut chunks = vec![Chunk::text(format!("\n\n{indent}"))];
            chunks.extend(x.helper);
            self.rewriter.insert(self.path, after, chunks);
        }
    }

    /// The fn's own edits, and the helper's name read back as the fn's.
    fn edit_fn(&mut self, x: &Extraction) -> bool {
        // The edits of one fn touch disjoint ranges of its own that no other edit of this
        // family reaches (a fn is visited once), so none is refused in practice; a refused
        // `_` renaming alone would still leave the program as it was.
        let done = x.edits.iter().all(|(range, text)| {
            self.rewriter
                .replace_text(self.path, range.clone(), text.clone())
        });
        if done {
            self.rewriter.rename(&x.names.0, &x.names.1);
        }
        done
    }

    /// Where the helpers of an impl's methods go.
    fn separate_impl(&self, block: &syn::ItemImpl, siblings: &[syn::Item]) -> Option<Separate> {
        let plain_attrs = attrs_only(&block.attrs, &IMPL_ATTRS[..5]);
        let Some((negative, trait_path, _)) = &block.trait_ else {
            if plain_attrs {
                return Some(Separate {
                    header: None,
                    trait_path: None,
                });
            }
            return Some(Separate {
                header: Some(self.impl_header(block)),
                trait_path: None,
            });
        };
        if negative.is_some()
            || !block.generics.params.is_empty()
            || block.generics.where_clause.is_some()
            || !self_type_is_local(&block.self_ty, siblings)
        {
            return None;
        }
        let trait_path = match trait_path.segments.len() {
            1 if trait_path.leading_colon.is_none() => None,
            _ => Some(self.use_path(trait_path)?),
        };
        Some(Separate {
            header: Some(self.impl_header(block)),
            trait_path,
        })
    }

    /// `#[cfg(..)] impl<T> Type<T> where .. {` of a plain impl for the same type (its lint
    /// levels and `cfg` copied).
    fn impl_header(&self, block: &syn::ItemImpl) -> Vec<Chunk> {
        let indent = indent_at(self.text, self.parsed.node(block).start);
        let mut chunks = self.copied_attrs(&block.attrs, COPIED_ATTRS, &indent);
        chunks.push(Chunk::text("impl"));
        if !block.generics.params.is_empty() {
            chunks.push(Chunk::copy(self.path, self.parsed.node(&block.generics)));
        }
        chunks.push(Chunk::text(" "));
        chunks.push(Chunk::copy(self.path, self.parsed.node(&*block.self_ty)));
        if let Some(clause) = &block.generics.where_clause {
            chunks.push(Chunk::text(" "));
            chunks.push(Chunk::copy(self.path, self.parsed.node(clause)));
        }
        chunks.push(Chunk::text(" {"));
        chunks
    }

    /// A trait's path as a `use` can name it: without generic arguments (`std::convert::From`).
    fn use_path(&self, path: &syn::Path) -> Option<String> {
        let last = path.segments.last()?;
        if path
            .segments
            .iter()
            .rev()
            .skip(1)
            .any(|s| !s.arguments.is_none())
        {
            return None;
        }
        let start = self.parsed.node(path).start;
        let end = self.parsed.range(last.ident.span()).end;
        self.text.get(start..end).map(str::to_string)
    }

    /// Whether a suppression directive covers the item at `node` (whose attributes end at
    /// `head_end`): the body would leave what it covers.
    fn covered(&self, node: Range<usize>, head_end: usize) -> bool {
        directive_above(self.text, node.start).is_some()
            || directive_within(self.text, node.start..head_end)
    }

    /// Copies of the attributes in `kept`, each followed by a line break and `indent`.
    fn copied_attrs(&self, attrs: &[syn::Attribute], kept: &[&str], indent: &str) -> Vec<Chunk> {
        let mut chunks = Vec::new();
        let copied = attrs
            .iter()
            .filter(|a| kept.iter().any(|k| a.path().is_ident(k)));
        for attr in copied {
            chunks.push(Chunk::copy(self.path, self.parsed.node(attr)));
            chunks.push(Chunk::text(format!("\n{indent}")));
        }
        chunks
    }

    fn extraction(
        &mut self,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        block: &syn::Block,
        owner: Owner,
        indent: &str,
    ) -> Option<Extraction> {
        if !plain_signature(sig) || sig.unsafety.is_some() || !attrs_only(attrs, KEPT_ATTRS) {
            return None;
        }
        let in_trait_impl = matches!(
            owner,
            Owner::Impl {
                in_trait_impl: true,
                ..
            }
        );
        if in_trait_impl
            && (names_self_path(sig.to_token_stream()) || names_self_path(block.to_token_stream()))
        {
            return None;
        }
        let may_name = attrs_only(attrs, INERT_ATTRS);
        let mut edits = Vec::new();
        let mut args = Vec::new();
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(r) => {
                    if r.colon_token.is_some() || !r.attrs.is_empty() {
                        return None;
                    }
                    params.push(vec![Chunk::copy(self.path, self.parsed.node(r))]);
                }
                syn::FnArg::Typed(t) => {
                    args.push(self.pass(&t.pat, may_name, &mut edits)?);
                    params.push(vec![
                        Chunk::copy(self.path, self.parsed.node(&*t.pat)),
                        Chunk::text(": "),
                        Chunk::copy(self.path, self.parsed.node(&*t.ty)),
                    ]);
                }
            }
        }
        let ident = sig.ident.to_string().trim_start_matches("r#").to_string();
        let name = self.names.fresh(&format!("mm_body_{ident}"));
        let callee = match (owner, sig.receiver()) {
            (Owner::Free, _) => name.clone(),
            (Owner::Impl { .. }, Some(_)) => format!("self.{name}"),
            (Owner::Impl { .. }, None) => format!("Self::{name}"),
        };
        let awaited = if sig.asyncness.is_some() {
            ".await"
        } else {
            ""
        };
        let body = self.parsed.node(block);
        edits.push((
            body.clone(),
            format!("{{ {callee}({}){awaited} }}", args.join(", ")),
        ));
        let mut helper = self.copied_attrs(attrs, COPIED_ATTRS, indent);
        let asyncness = if sig.asyncness.is_some() {
            "async "
        } else {
            ""
        };
        helper.push(Chunk::text(format!("{asyncness}fn {name}(")));
        for (i, param) in params.into_iter().enumerate() {
            if i > 0 {
                helper.push(Chunk::text(", "));
            }
            helper.extend(param);
        }
        helper.push(Chunk::text(")"));
        if let syn::ReturnType::Type(..) = sig.output {
            helper.push(Chunk::text(" "));
            helper.push(Chunk::copy(self.path, self.parsed.node(&sig.output)));
        }
        helper.push(Chunk::text(" "));
        match owner {
            Owner::Impl {
                trait_path: Some(path),
                ..
            } => {
                let open = self.parsed.range(block.brace_token.span.open());
                helper.push(Chunk::text(format!("{{ use {path} as _;")));
                helper.push(Chunk::copy(self.path, open.end..body.end));
            }
            _ => helper.push(Chunk::copy(self.path, body)),
        }
        Some(Extraction {
            edits,
            helper,
            names: (ident, name),
        })
    }

    /// The argument that passes a parameter on, or `None` when its pattern cannot be rebuilt.
    fn pass(
        &mut self,
        pat: &syn::Pat,
        may_name: bool,
        edits: &mut Vec<(Range<usize>, String)>,
    ) -> Option<String> {
        match pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                Some(p.ident.to_string())
            }
            syn::Pat::Wild(w) if may_name => {
                let name = self.names.fresh("mm_p");
                edits.push((self.parsed.node(w), name.clone()));
                Some(name)
            }
            syn::Pat::TupleStruct(ts) if ts.qself.is_none() => {
                let path = self.text.get(self.parsed.node(&ts.path))?;
                Some(format!("{path}({})", plain_idents(&ts.elems)?.join(", ")))
            }
            syn::Pat::Tuple(t) => {
                let idents = plain_idents(&t.elems)?;
                let comma = if idents.len() == 1 { "," } else { "" };
                Some(format!("({}{comma})", idents.join(", ")))
            }
            _ => None,
        }
    }
}

/// Where the helpers of an impl go: in the impl (`header: None`) or in a plain impl with this
/// header after it.
struct Separate {
    header: Option<Vec<Chunk>>,
    trait_path: Option<String>,
}

/// `a`, `mut b`: the names of patterns that are all plain bindings.
fn plain_idents(
    elems: &syn::punctuated::Punctuated<syn::Pat, syn::Token![,]>,
) -> Option<Vec<String>> {
    elems
        .iter()
        .map(|p| match p {
            syn::Pat::Ident(i) if i.by_ref.is_none() && i.subpat.is_none() => {
                Some(i.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// Whether the type of a trait impl is a struct, enum or union declared next to it: a plain
/// impl of it is allowed there (not of a foreign type).
fn self_type_is_local(ty: &syn::Type, siblings: &[syn::Item]) -> bool {
    let syn::Type::Path(p) = ty else {
        return false;
    };
    if p.qself.is_some() || p.path.leading_colon.is_some() || p.path.segments.len() != 1 {
        return false;
    }
    let name = &p.path.segments[0].ident;
    siblings.iter().any(|item| match item {
        syn::Item::Struct(s) => &s.ident == name,
        syn::Item::Enum(e) => &e.ident == name,
        syn::Item::Union(u) => &u.ident == name,
        _ => false,
    })
}

/// Whether tokens hold `Self::..`.
fn names_self_path(tokens: TokenStream) -> bool {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    trees.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(ident) => {
            ident == "Self"
                && matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        }
        TokenTree::Group(g) => names_self_path(g.stream()),
        _ => false,
    })
}

#[cfg(test)]
mod tests;
