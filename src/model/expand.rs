//! The file's own `macro_rules!`, expanded where they are called, so that the code they hold
//! (a `return`, a `?`, an `unwrap()`) is lowered like code written at the call. Only rules
//! without repetitions (`$(..)*`) are expanded; the others keep the call as a macro call whose
//! callees are known by name. Bounded: expansions nest at most [`MAX_NESTED`] deep and a
//! file expands at most [`MAX_TOKENS`] tokens in all.

use std::cell::Cell;
use std::collections::HashMap;

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};

/// Expansions inside expansions.
pub const MAX_NESTED: u32 = 4;
/// Tokens a file's expansions may produce in all.
const MAX_TOKENS: usize = 1 << 18;
/// Rules read from one `macro_rules!`.
const MAX_RULES: usize = 64;

struct Rule {
    matcher: Vec<TokenTree>,
    transcriber: TokenStream,
}

#[derive(Default)]
pub struct MacroRules {
    rules: HashMap<String, Vec<Rule>>,
    spent: Cell<usize>,
}

impl MacroRules {
    /// The `macro_rules!` of a file, in inline modules too.
    pub fn collect(items: &[syn::Item]) -> MacroRules {
        let mut out = MacroRules::default();
        let mut stack: Vec<&[syn::Item]> = vec![items];
        while let Some(items) = stack.pop() {
            for item in items {
                match item {
                    syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                        if let Some(name) = &m.ident {
                            let rules = parse_rules(m.mac.tokens.clone());
                            if !rules.is_empty() {
                                out.rules.insert(name.to_string(), rules);
                            }
                        }
                    }
                    syn::Item::Mod(m) => {
                        if let Some((_, inner)) = &m.content {
                            stack.push(inner);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The tokens a call of macro `name` with `input` expands to, when a rule without
    /// repetitions matches and the budget allows.
    pub fn expand(&self, name: &str, input: TokenStream) -> Option<TokenStream> {
        let rules = self.rules.get(name)?;
        let input: Vec<TokenTree> = input.into_iter().collect();
        for rule in rules {
            let mut binds = HashMap::new();
            if !matches(&rule.matcher, &input, &mut binds) {
                continue;
            }
            let mut count = 0;
            let out = transcribe(rule.transcriber.clone(), &binds, &mut count)?;
            let spent = self.spent.get().saturating_add(count);
            if spent > MAX_TOKENS {
                return None;
            }
            self.spent.set(spent);
            return Some(out);
        }
        None
    }
}

/// `(matcher) => { transcriber };` pairs.
fn parse_rules(tokens: TokenStream) -> Vec<Rule> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < tokens.len() && out.len() < MAX_RULES {
        let (TokenTree::Group(m), TokenTree::Punct(eq), TokenTree::Punct(gt), TokenTree::Group(t)) =
            (&tokens[i], &tokens[i + 1], &tokens[i + 2], &tokens[i + 3])
        else {
            return out;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            return out;
        }
        out.push(Rule {
            matcher: m.stream().into_iter().collect(),
            transcriber: t.stream(),
        });
        i += 4;
        if matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
            i += 1;
        }
    }
    out
}

/// What a metavariable matched: its tokens, whether it is an expression-like fragment (kept
/// in an invisible group, so `$e * 2` keeps `$e`'s precedence), and its size in tokens, groups'
/// contents included.
struct Bound {
    tokens: Vec<TokenTree>,
    grouped: bool,
    size: usize,
}

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

/// Whether `input` matches `pat` (no repetitions), binding the metavariables. Each level of
/// recursion goes into a group of both, so it is as deep as the input's own nesting.
fn matches(pat: &[TokenTree], input: &[TokenTree], binds: &mut HashMap<String, Bound>) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < pat.len() {
        if let Some((name, frag)) = metavar(pat, i) {
            i += 4;
            let taken = match frag.as_str() {
                "ident" | "tt" | "lifetime" | "literal" | "block" => usize::from(j < input.len()),
                _ => {
                    // Up to the next literal token of the matcher, at this level.
                    let end = match pat.get(i) {
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
                Bound {
                    tokens,
                    grouped,
                    size,
                },
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

/// The transcriber with the metavariables replaced; `None` for repetitions or unbound names.
fn transcribe(
    tokens: TokenStream,
    binds: &HashMap<String, Bound>,
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
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tokens.get(i + 1) {
                Some(TokenTree::Ident(name)) if name == "crate" => {
                    out.push(TokenTree::Ident(Ident::new("crate", name.span())));
                    i += 2;
                }
                Some(TokenTree::Ident(name)) => {
                    let bound = binds.get(&name.to_string())?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(src: &str) -> MacroRules {
        let file = syn::parse_file(src).expect("test source parses");
        MacroRules::collect(&file.items)
    }

    fn expand(m: &MacroRules, name: &str, input: &str) -> Option<String> {
        let input: TokenStream = input.parse().expect("tokens");
        m.expand(name, input).map(|t| t.to_string())
    }

    #[test]
    fn expressions_and_idents_are_substituted() {
        let m = rules(
            "macro_rules! get { ($s:expr, $f:ident) => {{ if $s.$f.is_empty() { return err(); } $s.$f }}; }",
        );
        let out = expand(&m, "get", "self.cfg, name").expect("expands");
        let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(compact.contains("ifself.cfg.name.is_empty()"), "{out}");
        assert!(compact.contains("returnerr();"), "{out}");
    }

    #[test]
    fn later_rules_and_literal_tokens_pick_the_match() {
        let m = rules(
            "macro_rules! m { (one $e:expr) => { first($e) }; (two $e:expr) => { second($e) }; }",
        );
        assert!(expand(&m, "m", "two 5").is_some_and(|o| o.contains("second")));
        assert!(expand(&m, "m", "three 5").is_none());
    }

    #[test]
    fn repetitions_are_not_expanded() {
        let m = rules("macro_rules! all { ($($e:expr),*) => { vec![$($e),*] }; }");
        assert!(expand(&m, "all", "1, 2").is_none());
    }

    #[test]
    fn the_file_budget_bounds_self_multiplying_macros() {
        let m = rules("macro_rules! big { ($e:expr) => { ($e, $e, $e, $e, $e, $e, $e, $e) }; }");
        let mut input = "x".to_string();
        let mut expanded = 0;
        for _ in 0..64 {
            match expand(&m, "big", &input) {
                Some(out) => {
                    input = out;
                    expanded += 1;
                }
                None => break,
            }
        }
        assert!(expanded < 10, "expanded {expanded} times");
    }
}
