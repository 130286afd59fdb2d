//! Reading a macro's tokens without expanding it: top-level separators, string literals,
//! `name = value` arguments, and which token chunks can be parsed as expressions.

use super::*;
use smol_str::ToSmolStr;

/// Splits a token stream at top-level separators: `,`, and `=>` when `arrows` is set.
pub(super) fn split(tokens: TokenStream, arrows: bool) -> Vec<Vec<TokenTree>> {
    let mut out: Vec<Vec<TokenTree>> = vec![Vec::new()];
    // Tokens move into their chunk: cloning one (an identifier is a boxed string) is an
    // allocation.
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(Vec::new()),
            TokenTree::Punct(p)
                if arrows
                    && p.as_char() == '='
                    && p.spacing() == Spacing::Joint
                    && matches!(tokens.peek(), Some(TokenTree::Punct(q)) if q.as_char() == '>') =>
            {
                out.push(Vec::new());
                tokens.next();
            }
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push(token);
                }
            }
        }
    }
    if out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    out
}

/// Keywords that are not expressions on their own, or that the parser reads differently
/// (`self` and `true` are expressions but parse as such anyway).
pub(super) fn is_keyword(name: &proc_macro2::Ident) -> bool {
    let name = name.to_smolstr();
    matches!(
        name.as_str(),
        "as" | "async"
            | "await"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "yield"
    ) || name == "_"
        || name.starts_with("r#")
}

pub(super) fn stream(tokens: &[TokenTree]) -> TokenStream {
    tokens.iter().cloned().collect()
}

/// A chunk that is one string literal: its value and span.
pub(super) fn string_literal(chunk: &[TokenTree]) -> Option<(String, Sp)> {
    let [TokenTree::Literal(l)] = chunk else {
        return None;
    };
    match syn::Lit::new(l.clone()) {
        syn::Lit::Str(s) => Some((s.value(), sp(l.span()))),
        _ => None,
    }
}

/// Whether a chunk is one string literal, without unescaping it.
pub(super) fn is_string_literal(chunk: &[TokenTree]) -> bool {
    let [TokenTree::Literal(l)] = chunk else {
        return false;
    };
    let repr = l.to_string();
    repr.starts_with('"') || repr.starts_with("r\"") || repr.starts_with("r#")
}

/// `name = value` (a named format argument or a `tracing` field): the name and the value's
/// tokens. Also strips `tracing`'s `%` and `?` sigils.
pub(super) fn named(chunk: &[TokenTree]) -> (Option<Name>, &[TokenTree]) {
    if let [TokenTree::Ident(name), TokenTree::Punct(eq), rest @ ..] = chunk
        && eq.as_char() == '='
        && eq.spacing() == Spacing::Alone
    {
        return (Some(name.to_smolstr()), strip_sigil(rest));
    }
    (None, strip_sigil(chunk))
}

pub(super) fn strip_sigil(chunk: &[TokenTree]) -> &[TokenTree] {
    match chunk {
        [TokenTree::Punct(p), rest @ ..]
            if matches!(p.as_char(), '%' | '?') && !rest.is_empty() =>
        {
            rest
        }
        _ => chunk,
    }
}
