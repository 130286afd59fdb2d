use super::*;

fn bound(text: &str) -> usize {
    segments(text).iter().map(|s| s.bound).max().unwrap_or(0)
}

#[test]
fn comments_strings_and_chars_hide_their_delimiters() {
    let nested = format!("/* /* */ {} */ fn main() {{}}", "(".repeat(300));
    assert!(bound(&nested) < 10, "{}", bound(&nested));
    let quote_char = format!("fn f() {{ let c = '\"'; {} }}", "- ".repeat(50));
    assert!(bound(&quote_char) >= 50);
    let raw = format!(
        "fn f() {{ let s = r#\"\" ((( \"#; let t = br\"x\"; {} }}",
        "! ".repeat(40)
    );
    assert!(bound(&raw) >= 40, "{}", bound(&raw));
    let lifetimes = format!("fn f<'a>(x: &'a u8) {{ {} }}", "* ".repeat(30));
    assert!(bound(&lifetimes) >= 30);
    assert!(bound("fn f() { let s = \"((((((((\"; }") < 10);
    assert!(bound("fn f() { let c = '('; let d = b'('; }") < 10);
}

#[test]
fn every_prefix_operator_counts() {
    for op in ["-", "!", "*", "&", "return ", "|x| ", "|| ", "move || "] {
        let text = format!("fn f() {{ {} 1 }}", op.repeat(1000));
        assert!(bound(&text) >= 1000, "{op}: {}", bound(&text));
    }
}

#[test]
fn commas_inside_generics_and_closure_params_keep_their_depth() {
    let generics = format!("type T = {}u8{};", "A<u8, ".repeat(500), ">".repeat(500));
    assert!(bound(&generics) >= 1000, "{}", bound(&generics));
    let closures = format!("fn f() {{ {} 1 }}", "|a, b| ".repeat(500));
    assert!(bound(&closures) >= 500, "{}", bound(&closures));
}

#[test]
fn lists_statements_and_items_reset() {
    let array = format!("static A: [u8; 100000] = [{}];", "1, ".repeat(100_000));
    assert!(bound(&array) < 10);
    let statements = format!("fn f() {{ {} }}", "if a {} ".repeat(10_000));
    assert!(bound(&statements) < 10);
    let items = "fn a() {} fn b() {}\n#[test] fn c() {}";
    let segs = segments(items);
    assert_eq!(segs.len(), 3);
    assert_eq!(&items[segs[1].start..segs[1].end], "fn b() {}\n");
}

#[test]
fn const_items_with_blocks_stay_one_segment() {
    assert_eq!(segments("const X: u8 = { 1 }; fn f() {}").len(), 2);
    assert_eq!(segments("static A: S = S { a: 1 }.b(); fn f() {}").len(), 2);
}

fn test_only(text: &str) -> Vec<&str> {
    segments(text)
        .iter()
        .filter(|s| s.test_only)
        .map(|s| text[s.start..s.end].trim())
        .collect()
}

#[test]
fn test_modules_and_test_fns_are_told_apart_from_the_items_around_them() {
    let text = "use a::b;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert!(f()); }\n}\nfn f() -> bool { true }\n";
    assert_eq!(
        test_only(text),
        [
            "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert!(f()); }\n}"
        ]
    );
    let attributes =
        "/// Docs.\n#[allow(unused)]\n#[cfg(test)]\n#[doc = \"]\"]\nmod t {}\nfn g() {}";
    assert_eq!(test_only(attributes).len(), 1);
    assert!(test_only(attributes)[0].ends_with("mod t {}"));
    assert_eq!(
        test_only(
            "#[test]\nfn a() {}\n#[tokio::test(flavor = \"multi_thread\")]\nasync fn b() {}\n#[cfg(test)] use x::y;"
        ),
        [
            "#[test]\nfn a() {}",
            "#[tokio::test(flavor = \"multi_thread\")]\nasync fn b() {}",
            "#[cfg(test)] use x::y;"
        ]
    );
}

#[test]
fn only_certain_test_items_are_test_only() {
    for text in [
        "#[cfg(not(test))]\nmod real {}",
        "#[cfg(any(test, feature = \"x\"))]\nmod maybe {}",
        "#[cfg_attr(test, derive(Debug))]\nstruct S {}",
        "#[testing]\nfn f() {}",
        "#[test::other]\nfn f() {}",
        "#[doc = \"#[cfg(test)]\"]\nfn f() {}",
        "fn f() {}\n// #[cfg(test)]\n",
        // A block in an initializer, then more: not one item ending at its braces.
        "#[cfg(test)]\nconst X: u8 = { 1 } + 1;",
        // Unbalanced: the segment would swallow what follows.
        "#[cfg(test)]\nmod t { } } fn real() {}",
        "#[cfg(test)]\nmod t { fn unclosed() {",
    ] {
        assert!(test_only(text).is_empty(), "{text}: {:?}", test_only(text));
    }
}

#[test]
fn doc_comments_are_found_and_an_unclosed_one_is_left() {
    let text = "//! Crate.\n/// Item.\n// plain\n/** Block. */\n/* plain */ fn f() {\n    let s = \"/// in a string\";\n} /*! inner\n";
    let docs: Vec<&str> = scan(text).docs.iter().map(|&(s, e)| &text[s..e]).collect();
    assert_eq!(docs, ["//! Crate.", "/// Item.", "/** Block. */"]);
    // `/**/` and `/***` are plain comments.
    assert!(scan("/**/ /*** x */ fn f() {}").docs.is_empty());
}
