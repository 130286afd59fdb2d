//! `rename_locals`: every local and parameter of a fn gets an opaque name (`name` → `v3`).
//!
//! Within one fn, every binding of one name gets the same new name, so shadowing stays as it
//! was. A name is left alone when renaming it could change what code means: it is also an
//! item's or an import's name, it starts upper-case (a pattern may name a constant), or it
//! occurs in a macro whose tokens are not expressions (`select!`, `matches!`), or inside a
//! string a macro may read as a format string without being one we know.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

use super::Family;
use crate::edit::{Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::{self, Parsed};
use crate::tree::Tree;

pub struct RenameLocals;

impl Family for RenameLocals {
    fn name(&self) -> &'static str {
        "rename_locals"
    }

    fn about(&self) -> &'static str {
        "locals and parameters renamed within their fn"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, _, parsed) in crate::syntax::parsed_files(tree) {
            let mut fns = Vec::new();
            FnBodies(&mut fns).visit_file(&parsed.ast);
            for f in fns {
                rename_in_fn(&f, &parsed, path, &mut names, &mut rewriter);
            }
        }
        rewriter.finish()
    }
}

/// A fn's parameters and body, whatever kind of fn it is.
struct FnParts {
    inputs: Vec<syn::Pat>,
    /// Parameters under an attribute (`#[tool(param)] a: i32` in rmcp 0.1): a macro may read
    /// their names (a tool's argument names), so they stay.
    attributed: Vec<syn::Pat>,
    body: syn::Block,
}

/// The outermost fns of a file (a fn nested in a body is renamed with its outer fn).
struct FnBodies<'a>(&'a mut Vec<FnParts>);

impl FnBodies<'_> {
    fn push(&mut self, sig: &syn::Signature, body: &syn::Block) {
        let (mut inputs, mut attributed) = (Vec::new(), Vec::new());
        for arg in &sig.inputs {
            if let syn::FnArg::Typed(t) = arg {
                let list = if t.attrs.is_empty() {
                    &mut inputs
                } else {
                    &mut attributed
                };
                list.push((*t.pat).clone());
            }
        }
        self.0.push(FnParts {
            inputs,
            attributed,
            body: body.clone(),
        });
    }
}

impl<'ast> Visit<'ast> for FnBodies<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.push(&f.sig, &f.block);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.push(&f.sig, &f.block);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.push(&f.sig, body);
        }
    }
}

fn rename_in_fn(
    f: &FnParts,
    parsed: &Parsed,
    path: &str,
    names: &mut TreeNames,
    rewriter: &mut Rewriter<'_>,
) {
    let mut found = Bindings::default();
    for input in &f.inputs {
        found.visit_pat(input);
    }
    found.visit_block(&f.body);
    let mut fixed = Bindings::default();
    for input in &f.attributed {
        fixed.visit_pat(input);
    }
    found.unsafe_names.extend(fixed.names);
    let kept: Vec<&String> = found
        .names
        .iter()
        .filter(|n| renamable(n, names) && !found.unsafe_names.contains(*n))
        .collect();
    let map: BTreeMap<String, String> = kept
        .into_iter()
        .map(|n| (n.clone(), names.fresh("v")))
        .collect();
    if map.is_empty() {
        return;
    }
    let mut renamer = Renamer {
        map: &map,
        parsed,
        path,
        rewriter,
    };
    for input in &f.inputs {
        renamer.visit_pat(input);
    }
    renamer.visit_block(&f.body);
}

fn renamable(name: &str, names: &TreeNames) -> bool {
    name != "self" && !name.starts_with(|c: char| c.is_uppercase()) && !names.items.contains(name)
}

/// Macros whose first positional argument is a format string (or whose nth, below).
fn format_string_index(mac: &str) -> Option<usize> {
    match mac {
        "format" | "format_args" | "print" | "println" | "eprint" | "eprintln" | "panic"
        | "unreachable" | "todo" | "unimplemented" | "anyhow" | "bail" | "error" | "warn"
        | "info" | "debug" | "trace" | "event" => Some(0),
        "write" | "writeln" | "assert" | "debug_assert" | "ensure" => Some(1),
        "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => Some(2),
        _ => None,
    }
}

/// Macros whose tokens are JSON with Rust expressions as values.
fn is_json(mac: &str) -> bool {
    mac == "json"
}

/// The binding names of a fn, and the names that must stay.
#[derive(Default)]
struct Bindings {
    names: BTreeSet<String>,
    unsafe_names: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Bindings {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.names.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = syntax::last_segment(&mac.path).unwrap_or_default();
        match syntax::macro_args(mac) {
            Some(args) => {
                let format_at = format_string_index(&name);
                let positional: Vec<&syntax::MacroArg> =
                    args.iter().filter(|a| a.name.is_none()).collect();
                for (i, arg) in positional.iter().enumerate() {
                    if Some(i) != format_at {
                        self.strings_stay(&arg.expr);
                    }
                }
                for arg in &args {
                    self.visit_expr(&arg.expr);
                }
            }
            // A `json!` value may hold a `format!` whose string captures a name: that name
            // stays (its nested format strings are not rewritten).
            None if is_json(&name) => {
                let mut strings = Vec::new();
                syntax::string_literals(&mac.tokens, &mut strings);
                for s in strings {
                    self.unsafe_names.extend(placeholders(&s.to_string()));
                }
            }
            None => {
                let mut idents = Vec::new();
                syntax::idents(&mac.tokens, &mut idents);
                self.unsafe_names
                    .extend(idents.into_iter().map(|i| i.ident.to_string()));
                let mut strings = Vec::new();
                syntax::string_literals(&mac.tokens, &mut strings);
                for s in strings {
                    self.unsafe_names.extend(placeholders(&s.to_string()));
                }
            }
        }
    }
}

impl Bindings {
    /// A string given to a macro but not as its format string may still be read as one (a
    /// macro we do not know): the names it could capture are not renamed.
    fn strings_stay(&mut self, expr: &syn::Expr) {
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = expr
        {
            self.unsafe_names.extend(placeholders(&s.value()));
        }
    }
}

/// The names a format string captures: `{name}`, `{name:?}`, `{name:>width$}` (not `{{`).
fn placeholders(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_placeholder(text, |_, name| out.push(name.to_string()));
    out
}

/// Calls `f(offset, name)` for each captured name of a format string's source text.
fn for_each_placeholder(text: &str, mut f: impl FnMut(usize, &str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let start = i + 1;
            let end = text[start..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(text.len(), |n| start + n);
            let name = &text[start..end];
            if !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && matches!(bytes.get(end), Some(b'}' | b':'))
            {
                f(start, name);
            }
            i = end;
        } else {
            i += 1;
        }
    }
}

struct Renamer<'a, 'r, 't> {
    map: &'a BTreeMap<String, String>,
    parsed: &'a Parsed,
    path: &'a str,
    rewriter: &'r mut Rewriter<'t>,
}

impl Renamer<'_, '_, '_> {
    fn rename(&mut self, ident: &proc_macro2::Ident) {
        if let Some(new) = self.map.get(&ident.to_string()) {
            let range = self.parsed.range(ident.span());
            self.rewriter.replace_text(self.path, range, new.clone());
        }
    }

    fn local_path(&self, expr: &syn::Expr) -> Option<(syn::Ident, String)> {
        let syn::Expr::Path(p) = expr else {
            return None;
        };
        let ident = p.path.get_ident()?;
        if p.qself.is_some() {
            return None;
        }
        let new = self.map.get(&ident.to_string())?;
        Some((ident.clone(), new.clone()))
    }

    /// `{name}` in a format string's source text → `{new}`, unless the macro names an
    /// argument so (`format!("{x}", x = ..)`).
    fn rename_in_format_string(&mut self, lit: &syn::LitStr, named: &BTreeSet<String>) {
        let range = self.parsed.range(lit.span());
        let Some(source) = self.rewriter.tree().files[self.path].get(range.clone()) else {
            return;
        };
        let mut edits = Vec::new();
        for_each_placeholder(source, |at, name| {
            if let Some(new) = self.map.get(name)
                && !named.contains(name)
            {
                edits.push((range.start + at..range.start + at + name.len(), new.clone()));
            }
        });
        for (r, new) in edits {
            self.rewriter.replace_text(self.path, r, new);
        }
    }
}

impl<'ast> Visit<'ast> for Renamer<'_, '_, '_> {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.rename(&p.ident);
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_expr_path(&mut self, e: &'ast syn::ExprPath) {
        if e.qself.is_none()
            && let Some(ident) = e.path.get_ident()
        {
            self.rename(ident);
        }
    }

    fn visit_field_value(&mut self, fv: &'ast syn::FieldValue) {
        // `S { name }` → `S { name: new }`.
        if fv.colon_token.is_none()
            && let Some((ident, new)) = self.local_path(&fv.expr)
        {
            let range = self.parsed.range(ident.span());
            self.rewriter
                .replace_text(self.path, range, format!("{ident}: {new}"));
            return;
        }
        syn::visit::visit_field_value(self, fv);
    }

    fn visit_field_pat(&mut self, fp: &'ast syn::FieldPat) {
        // `S { ref mut name }` → `S { name: ref mut new }`.
        if fp.colon_token.is_none()
            && let syn::Pat::Ident(p) = &*fp.pat
            && let Some(new) = self.map.get(&p.ident.to_string())
        {
            let range = self.parsed.node(&*fp.pat);
            let by_ref = if p.by_ref.is_some() { "ref " } else { "" };
            let mutable = if p.mutability.is_some() { "mut " } else { "" };
            let text = format!("{}: {by_ref}{mutable}{new}", p.ident);
            self.rewriter.replace_text(self.path, range, text);
            return;
        }
        syn::visit::visit_field_pat(self, fp);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = syntax::last_segment(&mac.path).unwrap_or_default();
        if let Some(args) = syntax::macro_args(mac) {
            let format_at = format_string_index(&name);
            let named: BTreeSet<String> = args
                .iter()
                .filter_map(|a| a.name.as_ref().map(ToString::to_string))
                .collect();
            let positional = args.iter().filter(|a| a.name.is_none());
            for (i, arg) in positional.enumerate() {
                if Some(i) == format_at
                    && let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &arg.expr
                {
                    self.rename_in_format_string(s, &named);
                }
            }
            for arg in &args {
                self.visit_expr(&arg.expr);
            }
        } else if is_json(&name) {
            let mut idents = Vec::new();
            syntax::idents(&mac.tokens, &mut idents);
            for i in idents {
                if !i.after_dot_or_path && !i.before_bang_or_path && !i.before_colon {
                    self.rename(&i.ident);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const PROGRAM: &str = r#"
struct Point { x: i32, y: i32 }
const LIMIT: i32 = 10;
fn area(p: &Point, scale: i32) -> i32 {
    let Point { x, ref y } = *p;
    let total = x * y * scale;
    let label = format!("{total:>4} {x} {{x}}", x = x + 1);
    println!("{label} {}", total.min(LIMIT));
    let shifted = Point { x, y: *y };
    let items: Vec<i32> = vec![x; 2].iter().map(|v| v + shifted.y).collect();
    match items.first() {
        Some(first) if *first > 0 => *first,
        Some(_) | None => total,
    }
}
fn main() {
    let p = Point { x: 2, y: 3 };
    let x = area(&p, 2);
    let x = x + 1;
    println!("{x} {}", area(&Point { x, y: 1 }, 1));
    eprintln!("{}", serde(x));
}
fn serde(x: i32) -> String { format!("{x}") }
"#;

    #[test]
    fn a_program_does_the_same_with_its_locals_renamed() {
        let out = testing::same_behaviour(&RenameLocals, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        for gone in [
            "let total",
            "let label",
            "let shifted",
            "|v|",
            "Some(first)",
            "p: &Point",
        ] {
            assert!(!text.contains(gone), "{gone} still there:\n{text}");
        }
        // The struct literal and pattern shorthands keep their field names.
        assert!(text.contains("Point { x: v"), "{text}");
        assert!(text.contains(": ref v"), "{text}");
        // The named format argument is a name of the macro, not a local.
        assert!(text.contains("x = v"), "{text}");
        // Items keep their names.
        assert!(
            text.contains("LIMIT") && text.contains("fn area("),
            "{text}"
        );
    }

    #[test]
    fn names_a_macro_may_capture_stay() {
        let text = testing::rewritten(
            &RenameLocals,
            "fn f(a: u8, b: u8, c: u8) { my_macro!(\"{a}\"); matches!(b, x if x > 0); tracing::info!(\"{c}\"); }",
        );
        assert!(text.contains("fn f(a: u8, b: u8, v"), "{text}");
        assert!(
            text.contains("\"{v"),
            "the format string of a known macro follows: {text}"
        );
    }

    #[test]
    fn json_values_are_renamed_and_keys_are_not() {
        let text = testing::rewritten(
            &RenameLocals,
            "fn f(id: u64, result: String) { let _ = json!({\"id\": id, \"result\": { \"text\": result }}); }",
        );
        assert!(!text.contains(": id,"), "{text}");
        assert!(text.contains("\"id\": v"), "{text}");
    }

    #[test]
    fn a_name_a_format_string_in_a_json_value_captures_stays() {
        let text = testing::rewritten(
            &RenameLocals,
            "fn f(e: u8, n: u8) { let _ = json!({\"error\": format!(\"bad: {e}\"), \"n\": n}); }",
        );
        assert!(text.contains("fn f(e: u8, v"), "{text}");
        assert!(text.contains("{e}"), "{text}");
    }

    #[test]
    fn parameters_under_an_attribute_keep_their_names() {
        let text = testing::rewritten(
            &RenameLocals,
            "#[tool]\nasync fn add(&self, #[tool(param)] a: i32, b: i32) -> String { format!(\"{}\", a + b) }",
        );
        assert!(text.contains("#[tool(param)] a: i32, v"), "{text}");
        assert!(text.contains("a + v"), "{text}");
    }

    #[test]
    fn placeholders_skip_escaped_braces_and_positions() {
        assert_eq!(placeholders("{a} {{b}} {0} {c:?} {d:>w$}"), ["a", "c", "d"]);
    }

    #[test]
    fn a_fn_without_locals_is_left_as_it_is() {
        let out = testing::rewrite(&RenameLocals, "fn f() -> u8 { 1 }");
        assert_eq!(out.sites, 0);
    }
}
