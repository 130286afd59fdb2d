//! `result_alias`: a fn's `-> Result<T, E>` becomes `-> MmResult0<T>` with
//! `type MmResult0<T> = Result<T, E>;` added to its module before the first item that uses it
//! (and above the comments over that item, so a `// mcp-lint: allow(..)` directive there still
//! covers the item).
//!
//! The alias sits in the module of the fn (an inline `mod` gets its own), spells `Result` as the
//! return type did and copies `E` verbatim, so both resolve as they did. Skipped: files that
//! declare or import a `Result` of their own; an `E` that mentions a generic parameter of the
//! fn, its impl or its trait, `Self`, a lifetime, a reference, `impl`/`_`/a macro or a
//! qualified path; a `T` with `impl Trait`; fns and impls with attributes other than the
//! built-in ones we know (`#[tool]`, `#[instrument]`, `#[async_trait]` read the return type's
//! tokens). A fn's `cfg`s go onto its alias, which is shared only by fns with the same `cfg`s.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use syn::visit::Visit;

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct ResultAlias;

impl Family for ResultAlias {
    fn name(&self) -> &'static str {
        "result_alias"
    }

    fn about(&self) -> &'static str {
        "`Result<T, E>` return types spelled through a module-level type alias"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, text, parsed) in crate::syntax::parsed_files(tree) {
            let mut declared = TreeNames::default();
            declared.visit_file(&parsed.ast);
            if declared.items.contains("Result") {
                continue;
            }
            let mut scope = Scope {
                path,
                text,
                parsed: &parsed,
                names: &mut names,
                rewriter: &mut rewriter,
                aliases: BTreeMap::new(),
            };
            scope.items(&parsed.ast.items);
        }
        rewriter.finish()
    }
}

/// One module's items, and the aliases made in it so far (by `Result` path, `E` and `cfg`s).
struct Scope<'a, 'r, 't> {
    path: &'a str,
    text: &'a str,
    parsed: &'a Parsed,
    names: &'a mut TreeNames,
    rewriter: &'r mut Rewriter<'t>,
    aliases: BTreeMap<String, String>,
}

/// A fn signature with the generic parameters in scope and the `cfg`s of its item(s).
struct FnSite<'a> {
    sig: &'a syn::Signature,
    outer: Option<&'a syn::Generics>,
    cfgs: Vec<Range<usize>>,
    /// Where its module-level item starts: the alias goes before it.
    item_start: usize,
}

impl Scope<'_, '_, '_> {
    fn items(&mut self, items: &[syn::Item]) {
        for item in items {
            let start = self.parsed.node(item).start;
            match item {
                syn::Item::Fn(f) => self.fn_site(&f.attrs, &f.sig, None, &[], start),
                syn::Item::Impl(i) if known_attrs(&i.attrs) => {
                    let cfgs = self.cfgs(&i.attrs);
                    for member in &i.items {
                        if let syn::ImplItem::Fn(f) = member {
                            self.fn_site(&f.attrs, &f.sig, Some(&i.generics), &cfgs, start);
                        }
                    }
                }
                syn::Item::Trait(t) if known_attrs(&t.attrs) => {
                    let cfgs = self.cfgs(&t.attrs);
                    for member in &t.items {
                        if let syn::TraitItem::Fn(f) = member {
                            self.fn_site(&f.attrs, &f.sig, Some(&t.generics), &cfgs, start);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        let outer = std::mem::take(&mut self.aliases);
                        self.items(inner);
                        self.aliases = outer;
                    }
                }
                _ => {}
            }
        }
    }

    fn cfgs(&self, attrs: &[syn::Attribute]) -> Vec<Range<usize>> {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .map(|a| self.parsed.node(a))
            .collect()
    }

    fn fn_site(
        &mut self,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        outer: Option<&syn::Generics>,
        outer_cfgs: &[Range<usize>],
        item_start: usize,
    ) {
        if !known_attrs(attrs) {
            return;
        }
        let mut cfgs = outer_cfgs.to_vec();
        cfgs.extend(self.cfgs(attrs));
        self.rewrite(FnSite {
            sig,
            outer,
            cfgs,
            item_start,
        });
    }

    fn rewrite(&mut self, site: FnSite<'_>) {
        let syn::ReturnType::Type(_, ty) = &site.sig.output else {
            return;
        };
        let Some((result_path, ok, err)) = result_args(ty) else {
            return;
        };
        let mut generics = crate::syntax::generic_names(&site.sig.generics);
        if let Some(outer) = site.outer {
            generics.extend(crate::syntax::generic_names(outer));
        }
        if !nameable_in_module(err, &generics) || mentions_impl(ok) {
            return;
        }
        // The path as spelled, without its arguments.
        let Some(last) = result_path.segments.last() else {
            return;
        };
        let path_range =
            self.parsed.node(result_path).start..self.parsed.range(last.ident.span()).end;
        let err_range = self.parsed.node(err);
        let mut key = format!(
            "{}|{}",
            &self.text[path_range.clone()],
            &self.text[err_range.clone()]
        );
        for cfg in &site.cfgs {
            key.push('|');
            key.push_str(&self.text[cfg.clone()]);
        }
        let alias = match self.aliases.get(&key) {
            Some(alias) => alias.clone(),
            None => self.new_alias(&site, path_range, err_range),
        };
        let chunks = vec![
            Chunk::text(format!("{alias}<")),
            Chunk::copy(self.path, self.parsed.node(ok)),
            Chunk::text(">"),
        ];
        if self
            .rewriter
            .replace(self.path, self.parsed.node(&**ty), chunks)
        {
            self.aliases.insert(key, alias);
        }
    }

    /// `type MmResult0<T> = Result<T, E>;` before the item, on a line of its own.
    fn new_alias(&mut self, site: &FnSite<'_>, result: Range<usize>, err: Range<usize>) -> String {
        let alias = self.names.fresh("MmResult");
        // Above the comments over the item: a directive there is about the item.
        let at = super::noise::above_comments(self.text, site.item_start);
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &self.text[line_start..at];
        let after = if indent.trim().is_empty() {
            format!("\n{indent}")
        } else {
            " ".to_string()
        };
        let mut chunks = Vec::new();
        for cfg in &site.cfgs {
            chunks.push(Chunk::copy(self.path, cfg.clone()));
            chunks.push(Chunk::text(" "));
        }
        chunks.push(Chunk::text(format!("type {alias}<T> = ")));
        chunks.push(Chunk::copy(self.path, result));
        chunks.push(Chunk::text("<T, "));
        chunks.push(Chunk::copy(self.path, err));
        chunks.push(Chunk::text(format!(">;{after}")));
        self.rewriter.insert(self.path, at, chunks);
        alias
    }
}

/// Attributes that neither read the item's tokens nor change its meaning here.
fn known_attrs(attrs: &[syn::Attribute]) -> bool {
    crate::syntax::inert_attributes(attrs, &["test"])
}

/// `Result<T, E>` (or `std::result::Result` / `core::result::Result`): the path without its
/// arguments, `T` and `E`.
fn result_args(ty: &syn::Type) -> Option<(&syn::Path, &syn::Type, &syn::Type)> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    if p.qself.is_some() {
        return None;
    }
    let segments: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let spelled = match segments.as_slice() {
        [r] => r == "Result" && p.path.leading_colon.is_none(),
        [root, m, r] => (root == "std" || root == "core") && m == "result" && r == "Result",
        _ => false,
    };
    let last = p.path.segments.last()?;
    let before_last = p.path.segments.iter().rev().skip(1);
    if !spelled || before_last.into_iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let types: Vec<&syn::Type> = args
        .args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    match (types.as_slice(), args.args.len()) {
        ([ok, err], 2) => Some((&p.path, ok, err)),
        _ => None,
    }
}

/// Whether `E` means the same at module level as in the signature, for sure.
fn nameable_in_module(err: &syn::Type, generics: &BTreeSet<String>) -> bool {
    if !matches!(err, syn::Type::Path(_)) {
        return false;
    }
    let mut check = ModuleLevel { generics, ok: true };
    check.visit_type(err);
    check.ok
}

struct ModuleLevel<'a> {
    generics: &'a BTreeSet<String>,
    ok: bool,
}

impl<'ast> Visit<'ast> for ModuleLevel<'_> {
    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        // `T` is the alias's own parameter.
        if ident == "Self" || ident == "T" || self.generics.contains(&ident.to_string()) {
            self.ok = false;
        }
    }
    fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {
        self.ok = false;
    }
    fn visit_qself(&mut self, _: &'ast syn::QSelf) {
        self.ok = false;
    }
    fn visit_type(&mut self, ty: &'ast syn::Type) {
        match ty {
            syn::Type::Path(_)
            | syn::Type::Paren(_)
            | syn::Type::Tuple(_)
            | syn::Type::Slice(_)
            | syn::Type::Array(_)
            | syn::Type::TraitObject(_) => syn::visit::visit_type(self, ty),
            _ => self.ok = false,
        }
    }
}

fn mentions_impl(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
        fn visit_type_macro(&mut self, _: &'ast syn::TypeMacro) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const PROGRAM: &str = r#"
use std::collections::HashMap;
use std::fmt;

#[derive(Debug)]
pub struct MyError {
    code: i32,
}

impl fmt::Display for MyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {}", self.code)
    }
}

/// Echoes its argument.
fn echo(args: &HashMap<String, String>) -> Result<String, MyError> {
    args.get("text").cloned().ok_or(MyError { code: -32602 })
}

fn add(args: &HashMap<String, String>) -> std::result::Result<i64, MyError> {
    let a: i64 = args.get("a").and_then(|v| v.parse().ok()).ok_or(MyError { code: 1 })?;
    let b: i64 = args.get("b").and_then(|v| v.parse().ok()).ok_or(MyError { code: 2 })?;
    Ok(a + b)
}

struct Server {
    calls: usize,
}

impl Server {
    fn call(&mut self, name: &str, args: &HashMap<String, String>) -> Result<String, MyError> {
        self.calls += 1;
        match name {
            "echo" => echo(args),
            "add" => add(args).map(|n| n.to_string()),
            _ => Err(MyError { code: -32601 }),
        }
    }

    fn parse<V: std::str::FromStr>(&self, text: &str) -> Result<V, V::Err> {
        text.parse()
    }

    fn dyn_error(&self) -> Result<(), Box<dyn std::error::Error>> {
        Err("boxed".into())
    }
}

mod inner {
    pub fn check(n: u8) -> Result<u8, String> {
        if n > 3 { Err(format!("{n} is too big")) } else { Ok(n) }
    }
}

fn main() {
    let mut server = Server { calls: 0 };
    let mut args = HashMap::new();
    args.insert("text".to_string(), "hello".to_string());
    args.insert("a".to_string(), "2".to_string());
    for name in ["echo", "add", "missing"] {
        match server.call(name, &args) {
            Ok(text) => println!("{name}: {text}"),
            Err(e) => println!("{name}: {e}"),
        }
    }
    args.insert("b".to_string(), "40".to_string());
    println!("{:?}", server.call("add", &args).map_err(|e| e.code));
    println!("{:?} {:?}", server.parse::<u8>("7"), server.parse::<u8>("x").is_err());
    println!("{:?} {}", server.dyn_error().map_err(|e| e.to_string()), server.calls);
    println!("{:?} {:?}", inner::check(2), inner::check(9));
}
"#;

    #[test]
    fn tool_results_keep_their_meaning_through_one_alias_per_error_type() {
        let out = testing::same_behaviour(&ResultAlias, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        for expected in [
            "type MmResult0<T> = Result<T, MyError>;\n/// Echoes its argument.\nfn echo(",
            "-> MmResult0<String> {\n    args.get",
            "type MmResult1<T> = std::result::Result<T, MyError>;\nfn add(",
            "-> MmResult1<i64> {",
            "-> MmResult0<String> {\n        self.calls",
            "type MmResult2<T> = Result<T, Box<dyn std::error::Error>>;\nimpl Server {",
            "-> MmResult2<()> {",
            "    type MmResult3<T> = Result<T, String>;\n    pub fn check(n: u8) -> MmResult3<u8>",
        ] {
            assert!(text.contains(expected), "{expected}:\n{text}");
        }
        // The error type is the fn's generic parameter's: it is not nameable at module level.
        assert!(text.contains("-> Result<V, V::Err>"), "{text}");
    }

    #[test]
    fn generic_self_lifetime_and_macro_read_errors_are_left_alone() {
        let main = "struct S;\n\
fn a<E>() -> Result<(), E> { todo!() }\n\
impl<X> S { fn b() -> Result<(), Vec<X>> { todo!() } }\n\
impl S { fn c() -> Result<(), Self> { todo!() } }\n\
fn d<'a>() -> Result<(), &'a str> { todo!() }\n\
fn e() -> Result<impl Sized, String> { Ok(1) }\n\
#[tool(description = \"x\")]\n\
fn f() -> Result<u8, String> { Ok(1) }\n\
#[async_trait]\n\
impl S { fn g() -> Result<u8, String> { Ok(1) } }\n\
fn h() -> Result<u8, T> { todo!() }\n\
fn i() -> io::Result<u8> { todo!() }\n";
        let out = testing::rewrite(&ResultAlias, main);
        assert_eq!(out.sites, 0, "{}", out.tree.files["src/main.rs"]);
    }

    #[test]
    fn the_alias_goes_above_a_directive_over_the_fn_so_the_directive_still_covers_the_fn() {
        let text = testing::rewritten(
            &ResultAlias,
            "fn a() {}\n\n// mcp-lint: allow(panic_in_tool, reason = \"checked\")\n\n/// Docs.\nfn f() -> Result<u8, String> { Ok(1) }\n",
        );
        assert_eq!(
            text,
            "fn a() {}\n\ntype MmResult0<T> = Result<T, String>;\n// mcp-lint: allow(panic_in_tool, reason = \"checked\")\n\n/// Docs.\nfn f() -> MmResult0<u8> { Ok(1) }\n"
        );
    }

    #[test]
    fn a_file_with_its_own_result_is_left_alone() {
        let out = testing::rewrite(
            &ResultAlias,
            "use anyhow::Result;\nfn f() -> Result<u8, String> { Ok(1) }\n",
        );
        assert_eq!(out.sites, 0);
    }

    #[test]
    fn a_cfg_gated_fn_gets_an_alias_under_the_same_cfg() {
        let text = testing::rewritten(
            &ResultAlias,
            "#[cfg(feature = \"http\")]\nfn serve() -> Result<(), hyper::Error> { Ok(()) }\n",
        );
        assert_eq!(
            text,
            "#[cfg(feature = \"http\")] type MmResult0<T> = Result<T, hyper::Error>;\n\
#[cfg(feature = \"http\")]\nfn serve() -> MmResult0<()> { Ok(()) }\n"
        );
    }
}
