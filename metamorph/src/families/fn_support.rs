//! Text work shared by the families that move fns and their bodies (`extract_body`,
//! `inline_helper`, `move_helpers`, `fn_to_method`): which attributes and signatures can be
//! copied, copying with replacements, indentation, and mcp-lint's suppression directives
//! (`// mcp-lint: allow(..)` covers the line it is on, or the next line with code or the whole
//! item starting there; code moved in or out of what a directive covers changes what the linter
//! reports, so the families keep directives where they were or leave such code alone).

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use crate::edit::Chunk;
use crate::syntax;

/// Whether every attribute is one of `names` (by its last path segment).
pub(super) fn attrs_only(attrs: &[syn::Attribute], names: &[&str]) -> bool {
    attrs.iter().all(|a| {
        matches!(a.style, syn::AttrStyle::Outer)
            && syntax::last_segment(a.path()).is_some_and(|n| names.contains(&n.as_str()))
    })
}

/// Whether a signature is plain: not `const`, `extern` or variadic, no generics, no lifetime
/// and no `impl Trait` anywhere in it.
pub(super) fn plain_signature(sig: &syn::Signature) -> bool {
    sig.constness.is_none()
        && sig.abi.is_none()
        && sig.variadic.is_none()
        && sig.generics.params.is_empty()
        && sig.generics.where_clause.is_none()
        && !has_lifetime_or_impl(sig.to_token_stream())
}

fn has_lifetime_or_impl(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Punct(p) => p.as_char() == '\'',
        TokenTree::Ident(i) => i == "impl",
        TokenTree::Group(g) => has_lifetime_or_impl(g.stream()),
        TokenTree::Literal(_) => false,
    })
}

/// The text of `range` of `file` with some sub-ranges replaced: copied pieces keep their
/// origin.
pub(super) fn copy_with(
    file: &str,
    range: Range<usize>,
    mut edits: Vec<(Range<usize>, String)>,
) -> Vec<Chunk> {
    edits.sort_by_key(|(r, _)| r.start);
    let mut chunks = Vec::new();
    let mut at = range.start;
    for (r, text) in edits {
        if r.start < at || r.end > range.end {
            continue;
        }
        chunks.push(Chunk::copy(file, at..r.start));
        chunks.push(Chunk::text(text));
        at = r.end;
    }
    chunks.push(Chunk::copy(file, at..range.end));
    chunks
}

/// The whitespace that starts the line `offset` is on.
pub(super) fn indent_at(text: &str, offset: usize) -> String {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    text[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Whether a line of code is a `// mcp-lint: ..` suppression directive (or holds one).
fn is_directive(line: &str) -> bool {
    line.match_indices("mcp-lint:").any(|(i, _)| {
        let before = line[..i].trim_end();
        before.ends_with("//") || before.ends_with("//!")
    })
}

/// The start of the topmost suppression directive on the lines right above the item that
/// starts at `start` (own-line comments and blank lines in between). A directive there covers
/// the whole item: code moved out of the item, or put in front of it, changes what it covers.
pub(super) fn directive_above(text: &str, start: usize) -> Option<usize> {
    let start = start.min(text.len());
    let mut line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..start].trim().is_empty() {
        return None;
    }
    let mut found = None;
    while line_start > 0 {
        let prev = text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = text[prev..line_start - 1].trim();
        let plain_comment =
            line.starts_with("//") && !line.starts_with("///") && !line.starts_with("//!");
        if !line.is_empty() && !plain_comment {
            break;
        }
        if is_directive(line) {
            found = Some(prev);
        }
        line_start = prev;
    }
    found
}

/// Whether a suppression directive stands in `range` (between an item's attributes, say).
pub(super) fn directive_within(text: &str, range: Range<usize>) -> bool {
    text.get(range).is_some_and(|t| t.lines().any(is_directive))
}

/// Whether a file has a suppression directive that covers a line or an item (not the
/// whole file: `//! mcp-lint: ..` covers it all, wherever code moves within it).
pub(super) fn has_local_directive(text: &str) -> bool {
    text.lines()
        .any(|l| is_directive(l) && !l.trim_start().starts_with("//!"))
}

/// Whether a file has a `//! mcp-lint: ..` directive, which covers that file only.
pub(super) fn has_file_directive(text: &str) -> bool {
    text.lines()
        .any(|l| is_directive(l) && l.trim_start().starts_with("//!"))
}

/// Whether evaluating an expression makes no temporary that its value may borrow: it
/// reads places, calls with such arguments, or builds owned values from them.
pub(super) fn no_temporaries(e: &syn::Expr) -> bool {
    use syn::Expr as E;
    match e {
        E::Lit(_) | E::Path(_) => true,
        E::Paren(p) => no_temporaries(&p.expr),
        E::Reference(r) => is_place(&r.expr),
        E::Field(f) => no_temporaries(&f.base),
        E::Index(i) => is_place(&i.expr) && no_temporaries(&i.index),
        E::Cast(c) => no_temporaries(&c.expr),
        E::Unary(u) => no_temporaries(&u.expr),
        E::Binary(b) => no_temporaries(&b.left) && no_temporaries(&b.right),
        E::Try(t) => no_temporaries(&t.expr),
        E::Call(c) => matches!(&*c.func, E::Path(_)) && c.args.iter().all(no_temporaries),
        E::MethodCall(m) => is_place(&m.receiver) && m.args.iter().all(no_temporaries),
        E::Tuple(t) => t.elems.iter().all(no_temporaries),
        E::Array(a) => a.elems.iter().all(no_temporaries),
        E::Struct(s) => s.rest.is_none() && s.fields.iter().all(|f| no_temporaries(&f.expr)),
        E::Macro(m) if m.mac.path.is_ident("format") => syntax::macro_args(&m.mac)
            .is_some_and(|args| args.iter().all(|a| no_temporaries(&a.expr))),
        _ => false,
    }
}

/// A place expression: a path, or a field, an index or a dereference of one.
fn is_place(e: &syn::Expr) -> bool {
    use syn::Expr as E;
    match e {
        E::Path(_) => true,
        E::Paren(p) => is_place(&p.expr),
        E::Field(f) => is_place(&f.base),
        E::Index(i) => is_place(&i.expr) && no_temporaries(&i.index),
        E::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && is_place(&u.expr),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directive_above_an_item_or_between_its_attributes_covers_it() {
        let text = "fn a() {}\n// mcp-lint: allow(panic_in_tool, reason = \"x\")\n\n// note\n/// Doc.\n#[tool]\nfn b() {}\nlet x = 1; // mcp-lint: allow(x)\nfn c() {}\n";
        let b = text.find("/// Doc.").expect("b");
        assert_eq!(directive_above(text, b), text.find("// mcp-lint"));
        assert_eq!(directive_above(text, text.find("fn c").expect("c")), None);
        assert_eq!(directive_above(text, 0), None);
        assert!(!directive_within(text, b..text.find("fn b").expect("b")));
        assert!(has_local_directive(text) && !has_file_directive(text));
        assert!(has_file_directive(
            "//! mcp-lint: allow(stdout_in_stdio_server)\n"
        ));
        assert!(!has_local_directive(
            "//! mcp-lint: allow(stdout_in_stdio_server)\n"
        ));
    }
}
