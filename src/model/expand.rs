//! The file's own `macro_rules!`, expanded where they are called, so that the code they hold
//! (a `return`, a `?`, an `unwrap()`) is lowered like code written at the call, repetitions
//! (`$(..),*`) included; a call no rule matches keeps being a macro call whose callees are
//! known by name. Bounded: expansions nest at most [`MAX_NESTED`] deep and a
//! file expands at most [`MAX_TOKENS`] tokens in all.

use std::cell::Cell;
use std::collections::HashMap;

use proc_macro2::{TokenStream, TokenTree};

mod bind;
use bind::{Binds, matches, transcribe};

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
            let mut binds = Binds::new();
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
    fn repetitions_are_expanded_once_per_item() {
        let m = rules("macro_rules! all { ($($e:expr),*) => { vec![$($e.unwrap()),*] }; }");
        let out = expand(&m, "all", "a(1), b(2)").expect("expands");
        let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(
            compact.contains("a(1)") && compact.contains("b(2)"),
            "{out}"
        );
        assert_eq!(compact.matches(".unwrap()").count(), 2, "{out}");
        assert_eq!(
            expand(&m, "all", "").map(|o| o.matches("unwrap").count()),
            Some(0)
        );
    }

    #[test]
    fn repetitions_without_a_separator_split_after_their_last_token() {
        let m = rules(
            "macro_rules! tools { ($($name:ident => $f:ident;)+) => { $(fn $name() { $f() })+ }; }",
        );
        let out = expand(&m, "tools", "read => do_read; write => do_write;").expect("expands");
        let compact: String = out.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(compact.contains("fnread(){do_read()}"), "{out}");
        assert!(compact.contains("fnwrite(){do_write()}"), "{out}");
        // `+` needs one item at least.
        assert!(expand(&m, "tools", "").is_none());
    }

    #[test]
    fn the_file_budget_bounds_repetitions_that_double_their_input() {
        let m = rules("macro_rules! twice { ($($t:tt)*) => { ($($t)* $($t)*) }; }");
        let mut input = "x y".to_string();
        let mut expanded = 0;
        for _ in 0..64 {
            match expand(&m, "twice", &input) {
                Some(out) => {
                    // The output is one group; its contents are the next input.
                    input = out
                        .trim()
                        .trim_start_matches('(')
                        .trim_end_matches(')')
                        .to_string();
                    expanded += 1;
                }
                None => break,
            }
        }
        assert!(expanded < 20, "expanded {expanded} times");
    }

    #[test]
    fn sequences_of_different_lengths_do_not_expand() {
        let m = rules("macro_rules! zip { ($($a:ident),* ; $($b:ident),*) => { $( $a + $b )* }; }");
        assert!(expand(&m, "zip", "x, y ; z").is_none());
        assert!(expand(&m, "zip", "x, y ; z, w").is_some());
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
