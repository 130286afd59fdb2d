//! `move_helpers`: a file's private free fns move into a new child module in a new file, which
//! the file declares and imports them from.
//!
//! Each moved fn's place gets its import (`use self::mm_moved0::f;`, the first one after
//! `mod mm_moved0;`), and the new file (in the module's folder for children, from
//! `Tree::crates()`) holds `use super::*;` and each fn, copied, with `pub(super)` after its
//! attributes. The glob import gives the moved bodies every name the parent has, its private
//! items and imports included, and what named `f` in the parent and its children (by `use
//! super::*`) now names the import. A fn stays when the move could change what a name means:
//! it is `main`, public, attributed (other than docs, `#[allow]`, `#[inline]`), mentioned
//! anywhere by a longer path or a `use` (`self::f`, `crate::m::f`), or it says `self`/`super`
//! (they would name other modules) or asks where it stands (`file!`, `line!`,
//! `module_path!`, `include_str!`), or an mcp-lint suppression directive stands above it (it
//! would cover the next item instead). A file that defines macros (their textual scope would
//! not reach the new module), has a file-wide directive (`//! mcp-lint: ..`, which would not
//! cover the new file) or is in no crate's module tree is left alone.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;

use super::Family;
use super::fn_refs::{RefIndex, RefKind};
use super::fn_support::{attrs_only, directive_above, has_file_directive};
use crate::edit::{Chunk, Origin, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::{Crate, Tree};

pub struct MoveHelpers;

impl Family for MoveHelpers {
    fn name(&self) -> &'static str {
        "move_helpers"
    }

    fn about(&self) -> &'static str {
        "a file's private free fns moved into a new child module file and imported back"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let index = RefIndex::of(tree);
        let crates = tree.crates();
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, text) in tree.rust_files() {
            let Some(child_dir) = child_dir(&crates, path) else {
                continue;
            };
            let Some(parsed) = Parsed::new(text) else {
                continue;
            };
            // A `//! mcp-lint:` directive covers its file only, not the new one.
            if defines_macros(&parsed.ast) || has_file_directive(text) {
                continue;
            }
            let fns: Vec<&syn::ItemFn> = parsed
                .ast
                .items
                .iter()
                .filter_map(|item| match item {
                    syn::Item::Fn(f)
                        if movable(f, &index)
                            && directive_above(text, parsed.node(f).start).is_none() =>
                    {
                        Some(f)
                    }
                    _ => None,
                })
                .collect();
            if fns.is_empty() {
                continue;
            }
            let module = names.fresh("mm_moved");
            let file = format!("{child_dir}{module}.rs");
            move_fns(&fns, path, &parsed, &module, &file, &mut rewriter);
        }
        rewriter.finish()
    }
}

fn move_fns(
    fns: &[&syn::ItemFn],
    path: &str,
    parsed: &Parsed,
    module: &str,
    file: &str,
    rewriter: &mut Rewriter<'_>,
) {
    let nodes: Vec<_> = fns.iter().map(|f| parsed.node(*f)).collect();
    let mut chunks = vec![Chunk::text("use super::*;\n")];
    for (f, node) in fns.iter().zip(&nodes) {
        let sig = parsed.node(&f.sig).start;
        chunks.extend([
            Chunk::text("\n"),
            Chunk::copy(path, node.start..sig),
            Chunk::placed("pub(super) ", path, sig),
            Chunk::copy(path, sig..node.end),
            Chunk::text("\n"),
        ]);
    }
    let anchor = Origin {
        file: path.to_string(),
        offset: nodes[0].start,
    };
    if !rewriter.add_file(file, anchor, chunks) {
        return;
    }
    // Each fn's place gets its import (the first one the module too): written text stands
    // for the place of its edit, so what the linter says of an import is said where the fn
    // stood; the name is a copy of the fn's own.
    for (i, (f, node)) in fns.iter().zip(&nodes).enumerate() {
        let module_line = if i == 0 {
            format!("mod {module};\n")
        } else {
            String::new()
        };
        let import = vec![
            Chunk::text(format!("{module_line}use self::{module}::")),
            Chunk::copy(path, parsed.range(f.sig.ident.span())),
            Chunk::text(";"),
        ];
        // The fns are distinct top-level items and this family edits nothing else in the
        // file.
        rewriter.replace(path, node.clone(), import);
    }
}

/// The folder of the file's child modules, when every crate that has the file agrees on it.
fn child_dir(crates: &[Crate], path: &str) -> Option<String> {
    let dirs: BTreeSet<&str> = crates
        .iter()
        .filter_map(|c| c.module_of(path))
        .map(|m| m.child_dir.as_str())
        .collect();
    match dirs.len() {
        1 => dirs.into_iter().next().map(str::to_string),
        _ => None,
    }
}

fn movable(f: &syn::ItemFn, index: &RefIndex) -> bool {
    let name = f.sig.ident.to_string();
    matches!(f.vis, syn::Visibility::Inherited)
        && name != "main"
        && attrs_only(&f.attrs, &["doc", "allow", "inline"])
        && !index
            .refs(&name)
            .iter()
            .any(|r| matches!(r.kind, RefKind::Path))
        && !says_where_it_is(f.to_token_stream())
}

/// Whether tokens name `self` or `super` (paths relative to the module), or call a macro
/// whose value depends on the file or module it is in.
fn says_where_it_is(tokens: TokenStream) -> bool {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    trees.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(ident) => {
            let bang = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            ident == "self"
                || ident == "super"
                || (bang
                    && matches!(
                        ident.to_string().as_str(),
                        "file"
                            | "line"
                            | "column"
                            | "module_path"
                            | "include"
                            | "include_str"
                            | "include_bytes"
                    ))
        }
        TokenTree::Group(g) => says_where_it_is(g.stream()),
        _ => false,
    })
}

/// Whether a file defines `macro_rules!` macros or takes some in with `#[macro_use]`.
fn defines_macros(file: &syn::File) -> bool {
    let mut found = MacroDefs(false);
    found.visit_file(file);
    found.0
}

struct MacroDefs(bool);

impl<'ast> Visit<'ast> for MacroDefs {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.0 |= mac.path.is_ident("macro_rules");
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        self.0 |= attr.path().is_ident("macro_use");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const MAIN: &str = r#"mod tools;

use std::collections::HashMap;
use std::fmt::Write as _;

#[derive(Debug)]
pub enum ToolError {
    Invalid(String),
    Unknown(String),
}

type Handler = fn(&str) -> Result<String, ToolError>;

const MAX_LEN: usize = 12;

struct Registry {
    handlers: HashMap<String, Handler>,
}

/// Builds the registry.
fn registry() -> Registry {
    let mut handlers: HashMap<String, Handler> = HashMap::new();
    handlers.insert("shout".to_string(), tools::shout);
    handlers.insert("count".to_string(), count_words);
    Registry { handlers }
}

fn count_words(input: &str) -> Result<String, ToolError> {
    if input.trim().is_empty() {
        return Err(ToolError::Invalid("empty input".into()));
    }
    Ok(input.split_whitespace().count().to_string())
}

#[inline]
fn clip(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(MAX_LEN) {
        write!(out, "{c}").unwrap();
    }
    out
}

fn dispatch(reg: &Registry, method: &str, name: &str, arg: &str) -> Result<String, ToolError> {
    match method {
        "tools/call" => {
            let handler = reg.handlers.get(name).ok_or_else(|| ToolError::Unknown(name.to_string()))?;
            handler(arg).map(|s| clip(&s))
        }
        other => Err(ToolError::Unknown(format!("method {other}"))),
    }
}

fn pinned() -> &'static str {
    "pinned"
}

fn main() {
    let reg = registry();
    for (method, name, arg) in [
        ("tools/call", "count", "one two three"),
        ("tools/call", "count", "   "),
        ("tools/call", "shout", "hello there general"),
        ("tools/call", "shout", "this input is much too long"),
        ("tools/call", "whisper", "x"),
        ("prompts/list", "", ""),
    ] {
        match dispatch(&reg, method, name, arg) {
            Ok(out) => println!("{method} {name}: {out}"),
            Err(e) => println!("{method} {name}: {e:?}"),
        }
    }
    println!("{}", self::pinned());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips() {
        assert_eq!(clip("abc"), "abc");
    }
}
"#;

    const TOOLS: &str = r#"use super::*;

pub fn shout(input: &str) -> Result<String, ToolError> {
    if input.len() > 20 {
        return Err(ToolError::Invalid(format!("too long: {}", input.len())));
    }
    Ok(exclaim(&clip(&input.to_uppercase())))
}

fn exclaim(s: &str) -> String {
    format!("{s}!")
}
"#;

    #[test]
    fn a_tool_layer_does_the_same_with_its_helpers_in_child_module_files() {
        let out = testing::same_behaviour(
            &MoveHelpers,
            &[("src/main.rs", MAIN), ("src/tools.rs", TOOLS)],
        );
        let files = &out.tree.files;
        let main = &files["src/main.rs"];
        assert!(
            main.contains("mod mm_moved0;\nuse self::mm_moved0::registry;")
                && main.contains("\nuse self::mm_moved0::dispatch;"),
            "{main}"
        );
        // Named by a longer path, `pinned` stays; so do `main` and the test.
        assert!(
            main.contains("fn pinned()") && main.contains("fn clips()"),
            "{main}"
        );
        let moved = &files["src/mm_moved0.rs"];
        assert!(moved.starts_with("use super::*;\n"), "{moved}");
        assert!(
            moved.contains("/// Builds the registry.\npub(super) fn registry()"),
            "{moved}"
        );
        assert!(moved.contains("#[inline]\npub(super) fn clip("), "{moved}");
        assert!(files["src/tools.rs"].contains("mod mm_moved1;\nuse self::mm_moved1::exclaim;"));
        assert!(files["src/tools/mm_moved1.rs"].contains("pub(super) fn exclaim("));
    }

    #[test]
    fn the_moved_text_maps_back_to_the_fns_it_came_from() {
        let main = "fn helper() -> u8 {\n    1\n}\nfn main() {\n    helper();\n}\n";
        let out = testing::rewrite(&MoveHelpers, main);
        assert_eq!(
            out.tree.files["src/main.rs"],
            "mod mm_moved0;\nuse self::mm_moved0::helper;\nfn main() {\n    helper();\n}\n"
        );
        let moved = &out.tree.files["src/mm_moved0.rs"];
        assert_eq!(
            moved,
            "use super::*;\n\npub(super) fn helper() -> u8 {\n    1\n}\n"
        );
        let at = moved.find("1\n").expect("the body");
        assert_eq!(
            out.origin("src/mm_moved0.rs", at).map(|o| o.offset),
            main.find("1\n")
        );
    }

    #[test]
    fn the_visibility_written_before_a_moved_fn_stands_for_that_fn() {
        // Where the linter says a moved fn is, the `pub(super)` the move wrote in front of
        // it, is where the fn was: the second fn's, not the first's.
        let main =
            "fn first() {}\n\nfn second() {}\n\nfn main() {\n    first();\n    second();\n}\n";
        let out = testing::rewrite(&MoveHelpers, main);
        let moved = &out.tree.files["src/mm_moved0.rs"];
        let at = moved.find("pub(super) fn second").expect("the second fn");
        assert_eq!(
            out.origin("src/mm_moved0.rs", at).map(|o| o.offset),
            main.find("fn second")
        );
    }

    #[test]
    fn fns_whose_names_would_mean_something_else_in_a_child_module_stay() {
        for kept in [
            "fn h() {}\nfn main() { self::h(); }",
            "fn h() {}\nmod m { pub fn g() { crate::h(); } }",
            "fn h() { super::x(); }",
            "fn h() -> u32 { line!() }",
            "fn h() -> &'static str { include_str!(\"a.txt\") }",
            "pub fn h() {}",
            "#[test]\nfn h() {}",
            "#[tokio::main]\nasync fn serve() {}",
            "macro_rules! m { () => {} }\nfn h() {}",
            "#[macro_use]\nmod a {}\nfn h() {}",
            "// mcp-lint: allow(panic_in_tool, reason = \"checked\")\nfn h(v: &[u8]) -> u8 { v[0] }",
            "//! mcp-lint: allow(stdout_in_stdio_server, reason = \"a tool of its own\")\nfn h() {}",
        ] {
            let out = testing::rewrite(&MoveHelpers, kept);
            assert_eq!(out.sites, 0, "{kept}");
        }
        let orphan = testing::tree(&[("src/main.rs", "fn main() {}"), ("src/old.rs", "fn h() {}")]);
        assert_eq!(
            MoveHelpers.rewrite(&orphan).sites,
            0,
            "a file no crate declares"
        );
    }
}
