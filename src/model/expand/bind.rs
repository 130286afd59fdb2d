//! Matching a call's tokens against a rule's matcher, and writing the rule's transcriber
//! with what the metavariables matched, repetitions (`$( .. ),*`) included: a repetition in
//! the matcher binds each of its metavariables to a sequence, one item per iteration, and a
//! repetition in the transcriber is written once per item of the sequences it uses.
//!
//! Each level of recursion goes into a group of both token streams (or into one iteration of
//! a repetition, which is a part of one), so it is as deep as the input's own nesting; the
//! tokens written are counted against the file's budget.

use std::collections::HashMap;
use std::rc::Rc;

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};

use super::MAX_TOKENS;

/// What a metavariable matched: its tokens, whether it is an expression-like fragment (kept
/// in an invisible group, so `$e * 2` keeps `$e`'s precedence), and its size in tokens, groups'
/// contents included.
pub(super) struct Bound {
    tokens: Vec<TokenTree>,
    grouped: bool,
    size: usize,
}

/// A metavariable's value: one match, or one per iteration of the repetition it is in.
pub(super) enum Binding {
    One(Bound),
    Many(Vec<Rc<Binding>>),
}

pub(super) type Binds = HashMap<String, Rc<Binding>>;

/// Tokens in `tokens`, the contents of groups included.
fn deep_len(tokens: &[TokenTree]) -> usize {
    let mut n = 0;
    let mut stack: Vec<TokenStream> = Vec::new();
    for t in tokens {
        n += 1;
        if let TokenTree::Group(g) = t {
            stack.push(g.stream());
        }
    }
    while let Some(s) = stack.pop() {
        for t in s {
            n += 1;
            if let TokenTree::Group(g) = &t {
                stack.push(g.stream());
            }
        }
    }
    n
}

/// A `$name:fragment` at `pat[i..]`: its name and fragment.
fn metavar(pat: &[TokenTree], i: usize) -> Option<(String, String)> {
    match (pat.get(i), pat.get(i + 1), pat.get(i + 2), pat.get(i + 3)) {
        (
            Some(TokenTree::Punct(d)),
            Some(TokenTree::Ident(name)),
            Some(TokenTree::Punct(c)),
            Some(TokenTree::Ident(frag)),
        ) if d.as_char() == '$' && c.as_char() == ':' => Some((name.to_string(), frag.to_string())),
        _ => None,
    }
}

fn same_token(a: &TokenTree, b: &TokenTree) -> bool {
    match (a, b) {
        (TokenTree::Ident(x), TokenTree::Ident(y)) => x == y,
        (TokenTree::Punct(x), TokenTree::Punct(y)) => x.as_char() == y.as_char(),
        (TokenTree::Literal(x), TokenTree::Literal(y)) => x.to_string() == y.to_string(),
        _ => false,
    }
}

fn is_dollar(t: Option<&TokenTree>) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '$')
}

fn is_op(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '*' | '+' | '?'))
}

/// A repetition `$( inner ) sep? op` at `tokens[i..]`: its inner tokens, separator, operator
/// and the index after it.
fn repetition(
    tokens: &[TokenTree],
    i: usize,
) -> Option<(Vec<TokenTree>, Option<TokenTree>, char, usize)> {
    if !is_dollar(tokens.get(i)) {
        return None;
    }
    let TokenTree::Group(g) = tokens.get(i + 1)? else {
        return None;
    };
    if g.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    let mut k = i + 2;
    let sep = match tokens.get(k) {
        Some(t) if !is_op(t) && !matches!(t, TokenTree::Group(_)) => {
            k += 1;
            Some(t.clone())
        }
        _ => None,
    };
    let op = match tokens.get(k) {
        Some(TokenTree::Punct(p)) if is_op(&tokens[k]) => p.as_char(),
        _ => return None,
    };
    Some((inner, sep, op, k + 1))
}

/// The metavariable names a matcher binds, in repetitions too.
fn bound_names(pat: &[TokenTree], out: &mut Vec<String>) {
    for (i, t) in pat.iter().enumerate() {
        if let Some((name, _)) = metavar(pat, i) {
            out.push(name);
        } else if let TokenTree::Group(g) = t {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            bound_names(&inner, out);
        }
    }
}

/// Whether `input` matches `pat`, binding the metavariables.
pub(super) fn matches(pat: &[TokenTree], input: &[TokenTree], binds: &mut Binds) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < pat.len() {
        if let Some((inner, sep, op, after)) = repetition(pat, i) {
            let end = match pat.get(after) {
                None => input.len(),
                Some(next @ (TokenTree::Punct(_) | TokenTree::Ident(_)))
                    if !is_dollar(Some(next)) =>
                {
                    match input[j..].iter().position(|t| same_token(t, next)) {
                        Some(p) => j + p,
                        None => return false,
                    }
                }
                Some(_) => return false,
            };
            if !match_repetition(&inner, sep.as_ref(), op, &input[j..end], binds) {
                return false;
            }
            i = after;
            j = end;
            continue;
        }
        if let Some((name, frag)) = metavar(pat, i) {
            i += 4;
            let taken = match frag.as_str() {
                "ident" | "tt" | "lifetime" | "literal" | "block" => usize::from(j < input.len()),
                _ => {
                    // Up to the next literal token of the matcher, at this level (the first
                    // of a repetition that follows: `$first:expr $(, $rest:expr)*`).
                    let next = match repetition(pat, i) {
                        Some((inner, ..)) => inner.first().cloned(),
                        None => pat.get(i).cloned(),
                    };
                    let end = match next.as_ref() {
                        Some(next @ (TokenTree::Punct(_) | TokenTree::Ident(_))) => input[j..]
                            .iter()
                            .position(|t| same_token(t, next))
                            .map_or(input.len(), |p| j + p),
                        Some(_) => return false,
                        None => input.len(),
                    };
                    end - j
                }
            };
            if taken == 0 {
                return false;
            }
            let grouped = matches!(frag.as_str(), "expr" | "ty" | "path");
            let tokens = input[j..j + taken].to_vec();
            let size = deep_len(&tokens);
            binds.insert(
                name,
                Rc::new(Binding::One(Bound {
                    tokens,
                    grouped,
                    size,
                })),
            );
            j += taken;
            continue;
        }
        match &pat[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => return false,
            TokenTree::Group(g) => {
                let Some(TokenTree::Group(h)) = input.get(j) else {
                    return false;
                };
                if g.delimiter() != h.delimiter() {
                    return false;
                }
                let gp: Vec<TokenTree> = g.stream().into_iter().collect();
                let hi: Vec<TokenTree> = h.stream().into_iter().collect();
                if !matches(&gp, &hi, binds) {
                    return false;
                }
            }
            t => match input.get(j) {
                Some(u) if same_token(t, u) => {}
                _ => return false,
            },
        }
        i += 1;
        j += 1;
    }
    j == input.len()
}

/// Matches `region` as iterations of a repetition: split at the separator, or after each
/// of the inner matcher's last literal token, or one token an iteration for a lone `$x:tt`.
fn match_repetition(
    inner: &[TokenTree],
    sep: Option<&TokenTree>,
    op: char,
    region: &[TokenTree],
    binds: &mut Binds,
) -> bool {
    let mut chunks: Vec<&[TokenTree]> = Vec::new();
    if let Some(sep) = sep {
        if !region.is_empty() {
            chunks.extend(region.split(|t| same_token(t, sep)));
        }
        // A trailing separator leaves an empty last chunk.
        if chunks.last().is_some_and(|c| c.is_empty()) {
            chunks.pop();
        }
    } else if let Some(last) = inner.last().filter(|t| !matches!(t, TokenTree::Group(_))) {
        if metavar(inner, inner.len().saturating_sub(4)).is_some() && inner.len() == 4 {
            chunks.extend(region.chunks(1));
        } else {
            chunks.extend(region.split_inclusive(|t| same_token(t, last)));
        }
    } else {
        return region.is_empty();
    }
    if (op == '?' && chunks.len() > 1) || (op == '+' && chunks.is_empty()) {
        return false;
    }
    let mut iterations: Vec<Binds> = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let mut b = Binds::new();
        if !matches(inner, chunk, &mut b) {
            return false;
        }
        iterations.push(b);
    }
    let mut names = Vec::new();
    bound_names(inner, &mut names);
    for name in names {
        let items = iterations
            .iter()
            .filter_map(|b| b.get(&name).cloned())
            .collect();
        binds.insert(name, Rc::new(Binding::Many(items)));
    }
    true
}

/// The metavariable names a transcriber uses, in nested groups and repetitions too.
fn used_names(tokens: &[TokenTree], out: &mut Vec<String>) {
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Ident(name) if is_dollar(i.checked_sub(1).and_then(|p| tokens.get(p))) => {
                out.push(name.to_string());
            }
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                used_names(&inner, out);
            }
            _ => {}
        }
    }
}

/// The transcriber with the metavariables replaced; `None` for unbound names, a repetition
/// over sequences of different lengths, or past the budget.
pub(super) fn transcribe(
    tokens: TokenStream,
    binds: &Binds,
    count: &mut usize,
) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        *count += 1;
        if *count > MAX_TOKENS {
            return None;
        }
        if let Some((inner, sep, _, after)) = repetition(&tokens, i) {
            transcribe_repetition(&inner, sep.as_ref(), binds, count, &mut out)?;
            i = after;
            continue;
        }
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tokens.get(i + 1) {
                Some(TokenTree::Ident(name)) if name == "crate" => {
                    out.push(TokenTree::Ident(Ident::new("crate", name.span())));
                    i += 2;
                }
                Some(TokenTree::Ident(name)) => {
                    let Binding::One(bound) = &**binds.get(&name.to_string())? else {
                        return None;
                    };
                    *count = count.saturating_add(bound.size);
                    if *count > MAX_TOKENS {
                        return None;
                    }
                    if bound.grouped {
                        let stream: TokenStream = bound.tokens.iter().cloned().collect();
                        out.push(TokenTree::Group(Group::new(Delimiter::None, stream)));
                    } else {
                        out.extend(bound.tokens.iter().cloned());
                    }
                    i += 2;
                }
                _ => return None,
            },
            TokenTree::Group(g) => {
                let inner = transcribe(g.stream(), binds, count)?;
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
                i += 1;
            }
            t => {
                out.push(t.clone());
                i += 1;
            }
        }
    }
    Some(out.into_iter().collect())
}

/// Writes `inner` once per item of the sequences it uses, separated by `sep`.
fn transcribe_repetition(
    inner: &[TokenTree],
    sep: Option<&TokenTree>,
    binds: &Binds,
    count: &mut usize,
    out: &mut Vec<TokenTree>,
) -> Option<()> {
    let mut names = Vec::new();
    used_names(inner, &mut names);
    let sequences: Vec<(&String, &Vec<Rc<Binding>>)> = names
        .iter()
        .filter_map(|n| match binds.get(n).map(|b| &**b) {
            Some(Binding::Many(items)) => Some((n, items)),
            _ => None,
        })
        .collect();
    let len = sequences.first()?.1.len();
    if sequences.iter().any(|(_, items)| items.len() != len) {
        return None;
    }
    let stream: TokenStream = inner.iter().cloned().collect();
    for k in 0..len {
        let mut scope = binds.clone();
        for (name, items) in &sequences {
            scope.insert((*name).clone(), items[k].clone());
        }
        if k > 0
            && let Some(sep) = sep
        {
            out.push(sep.clone());
        }
        out.extend(transcribe(stream.clone(), &scope, count)?);
    }
    Some(())
}
