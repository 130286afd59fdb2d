//! `noise`: statements that touch no failure path, at the start of every fn body and before
//! its tail expression.
//!
//! At the start: `let _ = "mm".len();`, `if p.is_none() {}` for each `Option` parameter,
//! `let _ = p.len();` for each `&str`, `String`, `Vec<..>` or `&[..]` parameter (both borrow,
//! so nothing is moved), and `eprintln!("mm: noise");` (stderr, never the protocol's stdout).
//! Before the tail: `let _ = "mm".is_empty();` (above the comments over the tail: a
//! `// mcp-lint: allow(..)` directive there stays next to the code it covers). Each goes on a
//! line of its own.
//!
//! Skipped: `const fn`s (none of this is const), fns with inner attributes (a statement may not
//! precede them), bodies with no statement, parameters with attributes or patterns other than a
//! name, and parameter types the tree names itself (its own `String` may have no `len`). A tree
//! that is `no_std` or defines its own `eprintln` is left alone.

use quote::ToTokens;
use syn::visit::Visit;

use super::Family;
use crate::edit::{Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct Noise;

impl Family for Noise {
    fn name(&self) -> &'static str {
        "noise"
    }

    fn about(&self) -> &'static str {
        "statements with no effect on any path at the start and before the tail of every fn"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        let no_std = tree.rust_files().any(|(_, text)| text.contains("no_std"));
        if no_std || names.items.contains("eprintln") {
            return rewriter.finish();
        }
        for (path, text, parsed) in crate::syntax::parsed_files(tree) {
            let mut bodies = Bodies {
                path,
                text,
                parsed: &parsed,
                names: &names,
                rewriter: &mut rewriter,
            };
            bodies.visit_file(&parsed.ast);
        }
        rewriter.finish()
    }
}

struct Bodies<'a, 'r, 't> {
    path: &'a str,
    text: &'a str,
    parsed: &'a Parsed,
    names: &'a TreeNames,
    rewriter: &'r mut Rewriter<'t>,
}

impl<'ast> Visit<'ast> for Bodies<'_, '_, '_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.fill(&f.attrs, &f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.fill(&f.attrs, &f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.fill(&f.attrs, &f.sig, body);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

impl Bodies<'_, '_, '_> {
    fn fill(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, body: &syn::Block) {
        let inner_attr = attrs
            .iter()
            .any(|a| matches!(a.style, syn::AttrStyle::Inner(_)) || a.path().is_ident("naked"));
        if sig.constness.is_some() || inner_attr || body.stmts.is_empty() {
            return;
        }
        let open = self.parsed.range(body.brace_token.span.open()).end;
        let indent = self.indent(open, body);
        let mut stmts = vec!["let _ = \"mm\".len();".to_string()];
        stmts.extend(sig.inputs.iter().filter_map(|a| self.param_noise(a)));
        stmts.push("eprintln!(\"mm: noise\");".to_string());
        let head: String = stmts.iter().map(|s| format!("\n{indent}{s}")).collect();
        self.rewriter.insert_text(self.path, open, head);
        if let Some(tail) = tail(body) {
            let at = above_comments(self.text, self.parsed.node(tail).start);
            let before = &self.text[line_start(self.text, at)..at];
            let text = if before.trim().is_empty() {
                format!("let _ = \"mm\".is_empty();\n{before}")
            } else {
                format!("\n{indent}let _ = \"mm\".is_empty();\n{indent}")
            };
            self.rewriter.insert_text(self.path, at, text);
        }
    }

    /// The indentation of the body's statements: the first one's when it starts a line, else
    /// one level deeper than the line of the `{`.
    fn indent(&self, open: usize, body: &syn::Block) -> String {
        let first = body
            .stmts
            .first()
            .map_or(open, |s| self.parsed.node(s).start);
        let before = &self.text[line_start(self.text, first)..first];
        if first > open && before.trim().is_empty() && self.text[open..first].contains('\n') {
            return before.to_string();
        }
        let brace_line = &self.text[line_start(self.text, open)..open];
        let outer: String = brace_line
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        format!("{outer}    ")
    }

    /// A statement that reads a parameter without moving it, for the types we know.
    fn param_noise(&self, arg: &syn::FnArg) -> Option<String> {
        let syn::FnArg::Typed(param) = arg else {
            return None;
        };
        let syn::Pat::Ident(binding) = &*param.pat else {
            return None;
        };
        if !param.attrs.is_empty() || binding.subpat.is_some() {
            return None;
        }
        let name = &binding.ident;
        let (behind_ref, ty) = match &*param.ty {
            syn::Type::Reference(r) => (true, &*r.elem),
            ty => (false, ty),
        };
        match ty {
            syn::Type::Slice(_) if behind_ref => Some(format!("let _ = {name}.len();")),
            syn::Type::Path(p) if p.qself.is_none() => {
                let last = self.std_type(&p.path)?;
                match last.as_str() {
                    "Option" => Some(format!("if {name}.is_none() {{}}")),
                    "String" | "Vec" => Some(format!("let _ = {name}.len();")),
                    "str" if behind_ref && p.path.segments.len() == 1 => {
                        Some(format!("let _ = {name}.len();"))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The last segment of a path that names a std type surely: `Option` (not declared by the
    /// tree), or spelled from `std`/`core`/`alloc`.
    fn std_type(&self, path: &syn::Path) -> Option<String> {
        let last = path.segments.last()?.ident.to_string();
        let root = path.segments.first()?.ident.to_string();
        let from_std = path.segments.len() > 1 && matches!(root.as_str(), "std" | "core" | "alloc");
        let bare = path.segments.len() == 1 && !self.names.items.contains(&last);
        (from_std || bare).then_some(last)
    }
}

/// The body's tail expression, if it has one and it has no attribute: a `#[cfg(windows)]`
/// tail may be cfg'd out, and then the statement before it is the tail (`#[cfg(unix)] { .. }`),
/// which a statement put between them would end.
fn tail(body: &syn::Block) -> Option<&syn::Stmt> {
    let last = body.stmts.last()?;
    let attribute = last
        .to_token_stream()
        .into_iter()
        .next()
        .is_some_and(|t| matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == '#'));
    if attribute {
        return None;
    }
    match last {
        syn::Stmt::Expr(_, None) => Some(last),
        syn::Stmt::Macro(m) if m.semi_token.is_none() => Some(last),
        _ => None,
    }
}

/// Where the `//` comments right above the line of `at` start (blank lines may sit between
/// them), or `at`: a directive such as `// mcp-lint: allow(..)` there is about the code at
/// `at`, so new code goes above the comments, not between them and that code.
pub(super) fn above_comments(text: &str, at: usize) -> usize {
    let mut cursor = line_start(text, at);
    if !text[cursor..at].trim().is_empty() {
        return at;
    }
    let mut first = None;
    while cursor > 0 {
        let start = line_start(text, cursor - 1);
        let line = &text[start..cursor - 1];
        let code = line.trim_start();
        if code.starts_with("//") && !code.starts_with("//!") {
            first = Some(start + line.len() - code.len());
        } else if !code.is_empty() {
            break;
        }
        cursor = start;
    }
    first.unwrap_or(at)
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const PROGRAM: &str = r#"
use std::collections::HashMap;

type Handler = fn(&[String], Option<&str>) -> Result<String, String>;

fn join(args: &[String], sep: Option<&str>) -> Result<String, String> {
    if args.is_empty() {
        return Err("no arguments".to_string());
    }
    Ok(args.join(sep.unwrap_or(" ")))
}

fn shout(args: &[String], _sep: Option<&str>) -> Result<String, String> { Ok(args.concat().to_uppercase()) }

struct Registry {
    tools: HashMap<String, Handler>,
}

impl Registry {
    fn call(&self, name: String, args: Vec<String>, sep: Option<&str>) -> String {
        match self.tools.get(&name) {
            Some(tool) => match tool(&args, sep) {
                Ok(text) => text,
                Err(e) => format!("error: {e}"),
            },
            None => format!("unknown tool {name} ({} args)", args.len()),
        }
    }
}

const fn limit() -> usize { 3 }

fn main() {
    let mut tools: HashMap<String, Handler> = HashMap::new();
    tools.insert("join".into(), join);
    tools.insert("shout".into(), shout);
    let registry = Registry { tools };
    let args = vec!["a".to_string(), "b".to_string()];
    for (name, sep) in [("join", Some("-")), ("join", None), ("shout", None), ("nope", None)] {
        println!("{}", registry.call(name.to_string(), args.clone(), sep));
    }
    println!("{}", registry.call("join".to_string(), Vec::new(), None));
    println!("{}", limit());
}
"#;

    #[test]
    fn tools_answer_the_same_with_noise_in_every_body() {
        let out = testing::same_behaviour(&Noise, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        for expected in [
            "fn join(args: &[String], sep: Option<&str>) -> Result<String, String> {\n    let _ = \"mm\".len();\n    let _ = args.len();\n    if sep.is_none() {}\n    eprintln!(\"mm: noise\");\n    if args",
            "    let _ = \"mm\".is_empty();\n    Ok(args.join",
            "        let _ = name.len();\n        let _ = args.len();\n        if sep.is_none() {}\n",
            "const fn limit() -> usize { 3 }",
        ] {
            assert!(text.contains(expected), "{expected}:\n{text}");
        }
    }

    #[test]
    fn a_one_line_body_gets_each_statement_on_a_line_of_its_own() {
        let text = testing::rewritten(&Noise, "fn f(s: String) -> usize { s.len() }\n");
        assert_eq!(
            text,
            "fn f(s: String) -> usize {\n    let _ = \"mm\".len();\n    let _ = s.len();\n    eprintln!(\"mm: noise\"); \n    let _ = \"mm\".is_empty();\n    s.len() }\n"
        );
    }

    #[test]
    fn empty_const_and_bodiless_fns_unknown_types_and_cfg_tails_are_left() {
        let main = "struct String;\n\
trait T { fn f(&self); }\n\
fn a() {}\n\
const fn b() -> u8 { 1 }\n\
fn c() { #![allow(unused)] let x = 1; }\n";
        assert_eq!(testing::rewrite(&Noise, main).sites, 0);
        let text = testing::rewritten(
            &Noise,
            &format!("{main}fn d(s: String, (a, b): (u8, u8)) {{ g(); }}\n"),
        );
        assert!(
            !text.contains("s.len()") && !text.contains("a.len()"),
            "{text}"
        );
        let cfg_tails = "fn mode() -> u32 {\n    #[cfg(unix)]\n    {\n        1\n    }\n    #[cfg(not(unix))]\n    {\n        2\n    }\n}\n";
        let text = testing::rewritten(&Noise, cfg_tails);
        assert!(
            text.contains("eprintln!") && !text.contains("is_empty"),
            "{text}"
        );
    }

    #[test]
    fn the_statement_before_the_tail_goes_above_a_directive_over_the_tail() {
        let text = testing::rewritten(
            &Noise,
            "fn f(v: &[u8]) -> u8 {\n    let i = 1;\n    // mcp-lint: allow(panic_in_tool)\n    v[i]\n}\n",
        );
        assert!(
            text.ends_with("    let i = 1;\n    let _ = \"mm\".is_empty();\n    // mcp-lint: allow(panic_in_tool)\n    v[i]\n}\n"),
            "{text}"
        );
    }

    #[test]
    fn a_no_std_tree_gets_no_noise() {
        let out = testing::rewrite(&Noise, "#![no_std]\nfn f() -> u8 { 1 }\n");
        assert_eq!(out.sites, 0);
    }
}
