//! `fn_to_method`: a private free fn whose every mention is a plain call in its own file
//! becomes a method of a new unit struct, and each call `f(args)` becomes `MmFns0.f(args)`.
//!
//! The fn stays where it was, wrapped: `struct MmFns0;\nimpl MmFns0 {\n` + the fn with `self, `
//! as its first parameter + `\n}`. The receiver is `self` by value, not `&self`: a `&self`
//! would take part in lifetime elision and give an elided output lifetime (`fn f(s: &str) ->
//! &str`) the receiver's instead of the parameter's. Calls inside the arguments of macros
//! that take expressions (`format!`, `println!`, ...) are followed; a fn mentioned any other
//! way (as a value, by a longer path, imported, in a macro's tokens or an attribute's, by a
//! local of the same name) is left alone, as are `main`, attributed, generic, `const` and
//! `extern` fns.

use super::Family;
use super::fn_refs::{RefIndex, RefKind, free_fns};
use super::fn_support::{attrs_only, directive_above};
use crate::edit::{Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct FnToMethod;

impl Family for FnToMethod {
    fn name(&self) -> &'static str {
        "fn_to_method"
    }

    fn about(&self) -> &'static str {
        "a private free fn becomes a method of a new unit struct, its calls method calls"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let index = RefIndex::of(tree);
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, _, parsed) in crate::syntax::parsed_files(tree) {
            for f in free_fns(&parsed.ast.items) {
                if convertible(f.item, path, &index) {
                    convert(f.item, path, &parsed, &index, &mut names, &mut rewriter);
                }
            }
        }
        rewriter.finish()
    }
}

fn convertible(f: &syn::ItemFn, path: &str, index: &RefIndex) -> bool {
    let sig = &f.sig;
    let name = sig.ident.to_string();
    let plain = matches!(f.vis, syn::Visibility::Inherited)
        && name != "main"
        && sig.constness.is_none()
        && sig.abi.is_none()
        && sig.variadic.is_none()
        && sig.generics.params.is_empty()
        && sig.generics.where_clause.is_none()
        && attrs_only(&f.attrs, &["doc", "allow", "inline", "must_use"]);
    plain
        && index.defined_once(&name)
        && !index.bound_in(path, &name)
        && index
            .refs(&name)
            .iter()
            .all(|r| r.file == path && matches!(r.kind, RefKind::Call(_)))
}

fn convert(
    f: &syn::ItemFn,
    path: &str,
    parsed: &Parsed,
    index: &RefIndex,
    names: &mut TreeNames,
    rewriter: &mut Rewriter<'_>,
) {
    let name = f.sig.ident.to_string();
    let holder = names.fresh("MmFns");
    let node = parsed.node(f);
    let open = parsed.range(f.sig.paren_token.span.open());
    let receiver = if f.sig.inputs.is_empty() {
        "self"
    } else {
        "self, "
    };
    // A suppression directive above the fn must stay right above it, inside the impl: put
    // before the struct, it would cover the struct instead.
    let start = directive_above(&rewriter.tree().files[path], node.start).unwrap_or(node.start);
    // Insertions at points no other edit of this family covers: the fn's own edges (its
    // directives included) and the inside of its `(`.
    rewriter.insert_text(path, start, format!("struct {holder};\nimpl {holder} {{\n"));
    rewriter.insert_text(path, open.end, receiver);
    rewriter.insert_text(path, node.end, "\n}");
    for r in index.refs(&name) {
        if let RefKind::Call(call) = &r.kind {
            rewriter.replace_text(path, call.func.clone(), format!("{holder}.{name}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const PROGRAM: &str = r#"
use std::collections::HashMap;

#[derive(Debug)]
struct CallError {
    code: i32,
    message: String,
}

/// Reads a required string argument.
fn required(args: &HashMap<String, String>, key: &str) -> Result<String, CallError> {
    args.get(key).cloned().ok_or_else(|| invalid(format!("missing {key}")))
}

fn invalid(message: String) -> CallError {
    CallError { code: -32602, message }
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

fn depth(n: u32) -> u32 {
    if n == 0 { 0 } else { 1 + depth(n / 2) }
}

async fn fetch(uri: String) -> Result<String, CallError> {
    if let Some(rest) = uri.strip_prefix("mem://") {
        return Ok(format!("contents of {rest}"));
    }
    Err(invalid(format!("unsupported uri {uri}")))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn tool_word(args: &HashMap<String, String>) -> Result<String, CallError> {
    let text = required(args, "text")?;
    Ok(first_word(&text).to_string())
}

fn tool_depth(args: &HashMap<String, String>) -> Result<String, CallError> {
    let n: u32 = required(args, "n")?.parse().map_err(|e| invalid(format!("n: {e}")))?;
    Ok(format!("depth {}", depth(n)))
}

fn tool_read(args: &HashMap<String, String>) -> Result<String, CallError> {
    block_on(fetch(required(args, "uri")?))
}

fn call_tool(name: &str, args: &HashMap<String, String>) -> Result<String, CallError> {
    match name {
        "word" => tool_word(args),
        "depth" => tool_depth(args),
        "read" => tool_read(args),
        _ => Err(CallError { code: -32601, message: format!("unknown tool {name}") }),
    }
}

fn main() {
    let cases: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("word", vec![("text", "hello big world")]),
        ("word", vec![]),
        ("depth", vec![("n", "40")]),
        ("depth", vec![("n", "-1")]),
        ("read", vec![("uri", "mem://notes")]),
        ("read", vec![("uri", "file:///etc")]),
        ("nope", vec![]),
    ];
    for (name, args) in cases {
        let args: HashMap<String, String> = args.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        match call_tool(name, &args) {
            Ok(text) => println!("{name}: {text}"),
            Err(e) => println!("{name}: error {} {} / {e:?}", e.code, e.message),
        }
    }
    println!("{}", first_word("  spaced out "));
}
"#;

    #[test]
    fn a_tool_layer_does_the_same_with_its_helpers_as_methods_of_unit_structs() {
        let out = testing::same_behaviour(&FnToMethod, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        for expected in [
            "fn first_word(self, text: &str) -> &str",
            "async fn fetch(self, uri: String)",
            ".depth(n / 2)",
            "invalid(format!(\"missing {key}\"))",
            ".call_tool(name, &args)",
        ] {
            assert!(text.contains(expected), "{expected} missing:\n{text}");
        }
        // Called inside a closure, `invalid` is a method there too; `main` and the generic
        // `block_on` stay free fns.
        assert!(!text.contains("|| invalid("), "{text}");
        assert!(
            text.contains("fn main()") && text.contains("\nfn block_on<"),
            "{text}"
        );
    }

    #[test]
    fn the_fn_is_wrapped_where_it_stands_and_its_calls_go_through_the_struct() {
        let text = testing::rewritten(
            &FnToMethod,
            "/// Doc.\nfn label(id: u64) -> String {\n    format!(\"#{id}\")\n}\nfn main() {\n    println!(\"{}\", label(7));\n}\n",
        );
        assert_eq!(
            text,
            "struct MmFns0;\nimpl MmFns0 {\n/// Doc.\nfn label(self, id: u64) -> String {\n    format!(\"#{id}\")\n}\n}\nfn main() {\n    println!(\"{}\", MmFns0.label(7));\n}\n"
        );
    }

    #[test]
    fn a_suppression_directive_above_the_fn_stays_right_above_it() {
        let text = testing::rewritten(
            &FnToMethod,
            "// mcp-lint: allow(panic_in_tool, reason = \"checked\")\nfn first(v: &[u8]) -> u8 {\n    v[0]\n}\nfn main() { first(&[1]); }\n",
        );
        assert!(
            text.starts_with("struct MmFns0;\nimpl MmFns0 {\n// mcp-lint: allow(panic_in_tool, reason = \"checked\")\nfn first(self, v: &[u8])"),
            "{text}"
        );
    }

    #[test]
    fn fns_mentioned_other_than_by_a_plain_call_in_their_file_stay() {
        for kept in [
            "fn h() {}\nfn main() { let f = h; f(); }",
            "fn h() {}\nfn main() { self::h(); }",
            "fn h() {}\nfn main() { json!({\"a\": h()}); }",
            "fn h() -> u8 { 1 }\n#[derive(Deserialize)] struct S { #[serde(default = \"h\")] a: u8 }",
            "fn h() {}\nfn main() { let h = || 1; h(); }",
            "fn h() {}\nmod m { fn h() {} }",
            "fn h<T>(t: T) {}\nfn main() { h(1); }",
            "const fn h() -> u8 { 1 }\nfn main() { h(); }",
            "pub fn h() {}\nfn main() { h(); }",
            "#[test]\nfn h() {}",
            "fn main() {}",
        ] {
            let out = testing::rewrite(&FnToMethod, kept);
            assert_eq!(out.sites, 0, "{kept}\n{}", out.tree.files["src/main.rs"]);
        }
    }

    #[test]
    fn a_fn_the_manifest_names_for_the_linter_stays() {
        let mut tree = testing::tree(&[(
            "src/main.rs",
            "fn tool_failure() {}\nfn main() { tool_failure(); }",
        )]);
        tree.files
            .get_mut("Cargo.toml")
            .expect("a manifest")
            .push_str("[package.metadata.mcp-lint]\nerror-builders = [\"tool_failure\"]\n");
        assert_eq!(FnToMethod.rewrite(&tree).sites, 0);
    }

    #[test]
    fn a_fn_called_from_another_file_stays() {
        let tree = testing::tree(&[
            ("src/main.rs", "mod a;\nfn h() {}\nfn main() { h(); }"),
            ("src/a.rs", "use super::*;\nfn g() { h(); }"),
        ]);
        let out = FnToMethod.rewrite(&tree);
        assert_eq!(out.tree.files["src/main.rs"], tree.files["src/main.rs"]);
    }
}
