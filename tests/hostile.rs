//! mcp-lint on a hostile pull request: every class of attack from its own generated input,
//! each run bounded (a clean exit 0/1/2, no signal, under 10 s and 1 GiB peak), nothing
//! leaked, nothing run, nothing outside the tree changed, nothing hidden.
//!
//! These run the binary of the build under test: `cargo test` checks the debug build, and
//! `.ci/run` runs them again with `--release`, whose larger nesting budget analyses what the
//! debug build leaves out. Each run prints a `hostile:` line with its time and peak memory.

mod common;
#[path = "hostile_support/inputs.rs"]
mod inputs;
#[path = "hostile_support/mod.rs"]
mod support;

use std::path::Path;

use common::scratch_crate;
use inputs::{SHAPES, STDIO_SERVER, nested, tool};
use support::{FORMATS, bounded};

fn rmcp() -> Vec<String> {
    vec!["rmcp = \"3.11\"".to_string()]
}

fn short(label: &str, dir: &Path) -> support::Run {
    bounded(label, dir, &[".", "--message-format", "short"], &[])
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Asserts the stdio server's `println!` in `src/main.rs` was reported: the rest of the run
/// went on.
fn main_reported(run: &support::Run) {
    assert!(
        run.stdout
            .contains("src/main.rs:6:5: error[mcp_lint::stdout_in_stdio_server]"),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 1);
}

#[test]
fn every_shape_at_100_000_levels_is_reported_and_the_rest_linted() {
    for shape in SHAPES {
        let deep = nested(shape, 100_000);
        let files = [
            ("src/main.rs", STDIO_SERVER),
            ("src/deep.rs", deep.as_str()),
        ];
        let dir = scratch_crate(&format!("deep_{}", shape.0), &rmcp(), &files);
        let run = short(&format!("{} x100,000", shape.0), &dir);
        main_reported(&run);
        assert!(
            run.stdout
                .contains("src/deep.rs:1:1: warning[mcp_lint::analysis_incomplete]"),
            "{}: {}",
            shape.0,
            run.stdout
        );
        assert!(!run.stdout.contains("internal_error"), "{}", run.stdout);
    }
}

#[test]
fn every_shape_at_the_deepest_admitted_level_is_analysed_without_overflow() {
    for shape in SHAPES {
        let levels = inputs::deepest_admitted(shape);
        let deep = nested(shape, levels);
        assert!(mcp_lint::source::prepare(&deep).too_deep.is_empty());
        let files = [
            ("src/main.rs", STDIO_SERVER),
            ("src/deep.rs", deep.as_str()),
        ];
        let dir = scratch_crate(&format!("admitted_{}", shape.0), &rmcp(), &files);
        let run = short(&format!("{} x{levels}", shape.0), &dir);
        main_reported(&run);
        assert!(!run.stdout.contains("internal_error"), "{}", run.stdout);
        assert!(
            !run.stdout.contains("not analysed"),
            "{}: {}",
            shape.0,
            run.stdout
        );
    }
}

/// A chain of `n` links ending in `.unwrap()`, in a tool: fully analysed when the budget
/// admits it (`per_link` findings per link, plus the final unwrap's), else reported as not
/// analysed.
fn chain_case(name: &str, link: &str, n: usize, per_link: usize) {
    let body = format!(
        "        let x: Option<u8> = None;\n        let _ = x{}.unwrap();",
        link.repeat(n)
    );
    let source = tool(&body);
    let dir = scratch_crate(name, &rmcp(), &[("src/lib.rs", &source)]);
    let run = short(&format!("{name} x{n}"), &dir);
    if mcp_lint::source::prepare(&source).too_deep.is_empty() {
        let findings = count(&run.stdout, "src/lib.rs:");
        assert_eq!(findings, n * per_link + 1, "{name}: {:.2000}", run.stdout);
    } else {
        assert_eq!(
            count(&run.stdout, "analysis_incomplete"),
            1,
            "{}",
            run.stdout
        );
    }
}

#[test]
fn ten_thousand_link_chains_are_linear() {
    chain_case("unwrap_chain", ".unwrap()", 10_000, 1);
    chain_case("try_chain", "?", 10_000, 1);
    chain_case("field_chain", ".a", 10_000, 0);
    chain_case("call_chain", ".f()", 10_000, 0);
}

/// A tool whose body is `body` and then an `unwrap`, with `items` after it: the one
/// `panic_in_tool` says the run got past `body` within the bounds.
fn linted_past(name: &str, label: &str, body: &str, items: &str) {
    let source = tool(&format!("{body}\n        None::<u8>.unwrap();")) + items;
    let dir = scratch_crate(name, &rmcp(), &[("src/lib.rs", &source)]);
    let run = short(label, &dir);
    let found = count(&run.stdout, "panic_in_tool");
    assert_eq!(found, 1, "{:.2000}", run.stdout);
}

#[test]
fn a_hundred_thousand_lets_in_one_fn() {
    // Each name is looked up among the bindings in scope: a linear search made this n².
    let lets: String = (0..100_000)
        .map(|i| format!("        let a{i} = b{i};\n"))
        .collect();
    linted_past("many_lets", "100,000 lets in one fn", &lets, "");
}

#[test]
fn eighty_thousand_named_format_arguments() {
    // Each placeholder found its argument by a search of all of them: n² in the lowering and
    // again in the analysis.
    let n = 80_000;
    let template: String = (0..n).map(|i| format!("{{a{i}}}")).collect();
    let args: String = (0..n).map(|i| format!(", a{i} = {i}")).collect();
    let body = format!("        let _ = format!(\"{template}\"{args});");
    linted_past(
        "named_format_args",
        "80,000 named format arguments",
        &body,
        "",
    );
}

#[test]
fn a_struct_of_forty_thousand_fields_read_one_by_one() {
    // Each field access searched the struct's fields: n² in the call resolution.
    let n = 40_000;
    let fields: String = (0..n).map(|i| format!("f{i}: u8, ")).collect();
    let values: String = (0..n).map(|i| format!("f{i}: 0, ")).collect();
    let reads: String = (0..n).map(|i| format!("let _ = s.f{i}; ")).collect();
    let body = format!("        let s = Big {{ {values} }};\n        {reads}");
    let items = format!("pub struct Big {{ {fields} }}\n");
    linted_past("many_fields", "a struct of 40,000 fields", &body, &items);
}

#[test]
fn ten_thousand_same_named_fns() {
    let fns: String = (0..10_000).map(|_| "fn f() { f(); }\n").collect();
    let source = tool("        f();") + &fns;
    let dir = scratch_crate("same_named", &rmcp(), &[("src/lib.rs", &source)]);
    let run = short("10,000 same-named fns", &dir);
    assert!(!run.stdout.contains("internal_error"), "{}", run.stdout);
}

#[test]
fn thousands_of_implementations_called_from_thousands_of_places() {
    let mut source = tool("        let x: Option<u8> = None;\n        x.unwrap();");
    source.push_str("pub trait Tr { fn call(&self); }\n");
    for i in 0..5_000 {
        source.push_str(&format!(
            "pub struct S{i};\nimpl Tr for S{i} {{ fn call(&self) {{ y.call(); }} }}\n"
        ));
    }
    for i in 0..5_000 {
        source.push_str(&format!("pub fn g{i}(t: &dyn Tr) {{ t.call(); }}\n"));
    }
    let dir = scratch_crate("edge_bomb", &rmcp(), &[("src/lib.rs", &source)]);
    let run = short("5,000 impls x 5,000 dyn calls", &dir);
    assert!(!run.stdout.contains("internal_error"), "{}", run.stdout);
    assert!(run.stdout.contains("panic_in_tool"), "{}", run.stdout);
    assert!(
        run.stdout.contains("call edges, so this call"),
        "{:.2000}",
        run.stdout
    );
}

#[test]
fn self_multiplying_macro_rules_are_expanded_within_a_budget() {
    // Each level expands to four copies of the one below: 4^30 tokens if nothing stopped it.
    let mut source = String::from("macro_rules! m0 { ($e:expr) => { ($e, $e, $e, $e) }; }\n");
    for i in 1..30 {
        source.push_str(&format!(
            "macro_rules! m{i} {{ ($e:expr) => {{ m{}!(m{}!($e)) }}; }}\n",
            i - 1,
            i - 1
        ));
    }
    source.push_str(&tool(
        "        let _ = m29!(1);\n        let x: Option<u8> = None;\n        x.unwrap();",
    ));
    let dir = scratch_crate("macro_bomb", &rmcp(), &[("src/lib.rs", &source)]);
    let run = short("macro_rules! x4 per level, 30 levels", &dir);
    assert!(!run.stdout.contains("internal_error"), "{}", run.stdout);
    assert!(run.stdout.contains("panic_in_tool"), "{}", run.stdout);
}

#[test]
fn nested_generic_aliases_are_expanded_within_a_budget() {
    let source = inputs::alias_bomb();
    assert!(source.len() < 1024);
    let dir = scratch_crate("alias_bomb", &rmcp(), &[("src/lib.rs", &source)]);
    let run = short("nested generic aliases", &dir);
    assert!(
        run.stdout.contains(
            "analysis_incomplete]: the analysis stopped here: its return type grows past"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("panic_in_tool"), "{}", run.stdout);
}

#[test]
fn a_deep_module_root_does_not_crash_the_formats_that_name_targets() {
    // Cargo JSON names each finding's target, found by following `mod NAME;` from the
    // target's root: that root is parsed on a sized stack too.
    let deep = format!(
        "mod a;\npub fn deep() -> u8 {{ {}1{} }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let finding = tool("        None::<u8>.unwrap();");
    let dir = scratch_crate(
        "deep_root",
        &rmcp(),
        &[("src/lib.rs", &deep), ("src/a.rs", &finding)],
    );
    for format in FORMATS {
        let run = bounded(
            &format!("deep module root, {format}"),
            &dir,
            &[".", "--message-format", format],
            &[],
        );
        assert!(
            run.stdout.contains("panic_in_tool"),
            "{format}: {:.2000}",
            run.stdout
        );
    }
}

#[test]
fn forty_thousand_findings_in_every_format() {
    let body: String = (0..40_000).map(|_| "        x.unwrap();\n").collect();
    let source = tool(&format!("        let x: Option<u8> = None;\n{body}"));
    let dir = scratch_crate("forty_thousand", &rmcp(), &[("src/lib.rs", &source)]);
    for format in FORMATS {
        let run = bounded(
            &format!("40,000 findings, {format}"),
            &dir,
            &[".", "--message-format", format],
            &[],
        );
        let pattern = match *format {
            "human" => "\nmcp_lint::panic_in_tool\n",
            "short" => "[mcp_lint::panic_in_tool]",
            "json" => "\"code\":{\"code\":\"mcp_lint::panic_in_tool\"",
            "sarif" => "\"ruleId\": \"mcp_lint::panic_in_tool\"",
            _ => "title=mcp_lint%3A%3Apanic_in_tool::",
        };
        let found = count(&format!("\n{}", run.stdout), pattern);
        assert_eq!(found, 40_000, "{format}");
    }
}

#[test]
fn forty_thousand_suppressions() {
    let body: String = (0..40_000)
        .map(|_| "        x.unwrap(); // mcp-lint: allow(panic_in_tool, reason = \"known\")\n")
        .collect();
    let source = tool(&format!("        let x: Option<u8> = None;\n{body}"));
    let dir = scratch_crate(
        "forty_thousand_allowed",
        &rmcp(),
        &[("src/lib.rs", &source)],
    );
    let run = short("40,000 suppressions", &dir);
    assert_eq!(run.stdout, "", "{}", run.stdout);
    assert!(run.stderr.contains("no findings"), "{}", run.stderr);
}

#[test]
fn a_file_rustc_compiles_cannot_hide_code_behind_comment_delimiters() {
    let hidden = format!(
        "/* /* */ {} */\n// (( [[ {{{{\nconst Q: char = '\"'; const R: &str = r#\"\" (((\"#;\n{STDIO_SERVER}",
        "(".repeat(300)
    );
    let dir = scratch_crate("hidden", &rmcp(), &[("src/main.rs", &hidden)]);
    let run = short("comment delimiters", &dir);
    assert!(
        run.stdout
            .contains("src/main.rs:9:5: error[mcp_lint::stdout_in_stdio_server]"),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 1);
}

#[test]
fn a_multi_byte_character_before_a_suppression_and_a_finding_past_column_65535() {
    let wide = format!(
        "        let c = 'é'; // mcp-lint: allow(panic_in_tool, reason = \"x\")\n        let x: Option<u8> = None; let _ = \"{}\"; x.unwrap();",
        "w".repeat(70_000)
    );
    let dir = scratch_crate("wide", &rmcp(), &[("src/lib.rs", &tool(&wide))]);
    for format in FORMATS {
        let run = bounded(
            &format!("wide line, {format}"),
            &dir,
            &[".", "--message-format", format],
            &[],
        );
        assert!(run.all().contains("panic_in_tool"), "{format}");
        assert!(!run.all().contains("internal_error"), "{format}");
    }
}

#[test]
fn deep_items_do_not_crash_fix_or_diff() {
    let deep = nested(&SHAPES[0], 100_000);
    let files = [
        ("src/main.rs", STDIO_SERVER),
        ("src/deep.rs", deep.as_str()),
    ];
    for flag in ["--fix", "--diff"] {
        let dir = scratch_crate("deep_fix", &rmcp(), &files);
        let run = bounded(&format!("deep item, {flag}"), &dir, &[".", flag], &[]);
        assert!(!run.all().contains("internal_error"), "{}", run.all());
        let main = std::fs::read_to_string(dir.join("src/main.rs")).expect("main");
        assert_eq!(main.contains("eprintln!(\"hello\")"), flag == "--fix");
    }
}

#[test]
fn fix_re_parses_a_deep_fixed_file_on_a_sized_stack() {
    let shape = &SHAPES[7];
    let admitted = inputs::deepest_admitted(shape);
    // Within the budget the fixed file is re-parsed (deep enough to overflow the main thread
    // of the old re-parse) and the fix applied; past it the fix is refused, never an abort.
    for (levels, applied) in [(admitted, true), (100_000, false)] {
        let main = format!("{STDIO_SERVER}{}", nested(shape, levels));
        let dir = scratch_crate("deep_fixed", &rmcp(), &[("src/main.rs", main.as_str())]);
        let run = bounded(
            &format!("fix, {} x{levels}", shape.0),
            &dir,
            &[".", "--fix"],
            &[],
        );
        let after = std::fs::read_to_string(dir.join("src/main.rs")).expect("main");
        assert_eq!(
            after.contains("eprintln!(\"hello\")"),
            applied,
            "{}",
            run.stderr
        );
        if !applied {
            assert!(run.stderr.contains("would not parse"), "{}", run.stderr);
        }
    }
}

#[path = "hostile_support/tree.rs"]
mod tree;

#[test]
fn analysis_incomplete_can_be_denied_or_allowed() {
    let deep = nested(&SHAPES[0], 100_000);
    let dir = scratch_crate("levels", &rmcp(), &[("src/lib.rs", deep.as_str())]);
    let warned = short("analysis_incomplete warned", &dir);
    assert_eq!(warned.code, 0, "{}", warned.stdout);
    assert!(
        warned
            .stdout
            .contains("warning[mcp_lint::analysis_incomplete]")
    );
    let denied = bounded(
        "analysis_incomplete denied",
        &dir,
        &[
            ".",
            "--message-format",
            "short",
            "-D",
            "analysis_incomplete",
        ],
        &[],
    );
    assert_eq!(denied.code, 1);
    assert!(
        denied
            .stdout
            .contains("error[mcp_lint::analysis_incomplete]")
    );
    let allowed = bounded(
        "analysis_incomplete allowed",
        &dir,
        &[
            ".",
            "--message-format",
            "short",
            "-A",
            "analysis_incomplete",
        ],
        &[],
    );
    assert_eq!((allowed.code, allowed.stdout.as_str()), (0, ""));
}

#[test]
fn errors_forwarded_through_a_wide_lattice_of_helpers_are_followed_once() {
    // Eight levels of ten helpers; each returns the result of every helper of the next level
    // (`return next_k(n)`): the paths through the lattice number 10^8, the helpers 80. The
    // contract follows each helper's exits once.
    const LEVELS: usize = 8;
    const WIDE: usize = 10;
    let mut src = String::from(
        "use rmcp::{tool, tool_router};\npub struct T;\n#[tool_router]\nimpl T {\n    \
         #[tool(description = \"x\")]\n    async fn run(&self) -> Result<String, String> {\n        \
         l0_0(1)\n    }\n}\n",
    );
    for level in 0..LEVELS {
        for k in 0..WIDE {
            src.push_str(&format!(
                "fn l{level}_{k}(n: u32) -> Result<String, String> {{\n"
            ));
            if level + 1 < LEVELS {
                for next in 0..WIDE {
                    src.push_str(&format!(
                        "    if n == {next} {{ return l{}_{next}(n + 1); }}\n",
                        level + 1
                    ));
                }
                src.push_str(&format!("    l{}_0(n)\n}}\n", level + 1));
            } else {
                src.push_str("    std::fs::read_to_string(\"x\").map_err(|e| e.to_string())\n}\n");
            }
        }
    }
    let dir = scratch_crate("forward_lattice", &rmcp(), &[("src/lib.rs", &src)]);
    let run = bounded("forward lattice", &dir, &["contract", "."], &[]);
    assert_eq!(run.code, 0, "{}", run.all());
    // The one place an `Err` is made, reached by every path, is one path per helper that
    // makes it, not one per route through the lattice.
    let paths = count(&run.stdout, "is_error");
    assert!(
        (1..=WIDE).contains(&paths),
        "{paths} isError paths: {:.3000}",
        run.stdout
    );
}
