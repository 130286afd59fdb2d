//! Measures how much stack syn needs per level of nesting, for the constants in
//! `src/source.rs`. `stack_probe SHAPE LEVELS STACK_KIB` parses (and drops) one generated file
//! on a thread with that stack and exits 0, or dies of the overflow; `stack_probe measure`
//! bisects the smallest stack per shape at two depths in child processes and prints the
//! bytes per level and per token of the depth bound.

use std::process::Command;

/// (name, text before, one level's opening, innermost, one level's closing, text after)
const SHAPES: &[(&str, &str, &str, &str, &str, &str)] = &[
    ("neg", "fn f() { let _ = ", "- ", "1", "", "; }"),
    ("not", "fn f() { let _ = ", "!", "true", "", "; }"),
    ("deref", "fn f() { let _ = ", "*", "x", "", "; }"),
    ("ref", "fn f() { let _ = ", "& ", "x", "", "; }"),
    ("return", "fn f() { ", "return ", "1", "", "; }"),
    ("closure", "fn f() { let _ = ", "|| ", "1", "", "; }"),
    ("paren", "fn f() { let _ = ", "(", "1", ")", "; }"),
    ("array", "fn f() { let _ = ", "[", "1", "]", "; }"),
    ("block", "fn f() { let _ = ", "{", "1", "}", "; }"),
    ("call", "fn f() { let _ = ", "f(", "1", ")", "; }"),
    (
        "else_if",
        "fn f() { if a {} ",
        "else if a {} ",
        "",
        "",
        " }",
    ),
    ("assign", "fn f() { ", "a = ", "1", "", "; }"),
    ("type_generic", "type T = ", "Vec<", "u8", ">", ";"),
    ("type_ref", "type T = ", "&", "u8", "", ";"),
    ("type_ptr", "type T = ", "*const ", "u8", "", ";"),
    ("type_slice", "type T = ", "[", "u8", "]", ";"),
    ("type_fn", "type T = ", "fn() -> ", "u8", "", ";"),
    ("pat_ref", "fn f() { let ", "&", "x", "", " = y; }"),
    ("pat_tuple", "fn f() { let ", "(", "x", ",)", " = y; }"),
    ("pat_struct", "fn f() { let ", "S(", "x", ")", " = y; }"),
    ("if", "fn f() { ", "if a { ", "1", "}", " }"),
    ("loop", "fn f() { ", "loop { ", "1", "}", " }"),
    ("match", "fn f() { ", "match a { _ => ", "1", "}", " }"),
    (
        "closure_block",
        "fn f() { let _ = ",
        "|| {",
        "1",
        "}",
        "; }",
    ),
    (
        "async_block",
        "fn f() { let _ = ",
        "async {",
        "1",
        "}",
        "; }",
    ),
    (
        "unsafe_block",
        "fn f() { let _ = ",
        "unsafe {",
        "1",
        "}",
        "; }",
    ),
    (
        "struct_lit",
        "fn f() { let _ = ",
        "S { a: ",
        "1",
        "}",
        "; }",
    ),
    ("method_arg", "fn f() { let _ = ", "x.f(", "1", ")", "; }"),
    ("index", "fn f() { let _ = ", "a[", "1", "]", "; }"),
    ("range", "fn f() { let _ = ", "..", "1", "", "; }"),
    ("let_chain", "fn f() { if ", "let a = ", "1", "", " {} }"),
    ("impl_trait", "fn f() -> ", "impl Fn() -> ", "u8", "", " {}"),
    ("dyn_trait", "type T = ", "Box<dyn Fn() -> ", "u8", ">", ";"),
    ("qself", "type T = ", "<", "u8", " as A>::B", ";"),
    ("type_tuple", "type T = ", "(", "u8", ",)", ";"),
    ("pat_slice", "fn f() { let ", "[", "x", "]", " = y; }"),
    ("pat_at", "fn f() { let ", "x @ ", "y", "", " = y; }"),
    ("mod", "", "mod a { ", "", "}", ""),
    ("use", "use ", "a::{", "b", "}", ";"),
];

fn text(shape: &(&str, &str, &str, &str, &str, &str), levels: usize) -> String {
    let (_, before, open, inner, close, after) = shape;
    format!(
        "{before}{}{inner}{}{after}",
        open.repeat(levels),
        close.repeat(levels)
    )
}

fn runs(shape: &str, levels: usize, kib: usize) -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    Command::new(exe)
        .args([shape, &levels.to_string(), &kib.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The smallest stack (KiB, to 1%) on which `shape` at `levels` parses.
fn smallest(shape: &str, levels: usize) -> usize {
    let (mut lo, mut hi) = (16usize, 4 * 1024 * 1024);
    while hi - lo > lo / 100 + 1 {
        let mid = (lo + hi) / 2;
        if runs(shape, levels, mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

fn measure() {
    let (small, large) = (2_000, 6_000);
    for shape in SHAPES {
        let name = shape.0;
        let a = smallest(name, small);
        let b = smallest(name, large);
        let per_level = (b.saturating_sub(a) * 1024) / (large - small);
        let bound_a = max_bound(&text(shape, small));
        let bound_b = max_bound(&text(shape, large));
        let per_token = (b.saturating_sub(a) * 1024) / (bound_b - bound_a).max(1);
        println!(
            "{name:<14} {per_level:>6} B/level  {per_token:>6} B/bound-token  (bound {bound_b} at {large})"
        );
    }
}

fn max_bound(text: &str) -> usize {
    mcp_lint::nesting::segments(text)
        .iter()
        .map(|s| s.bound)
        .max()
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [m] if m == "measure" => measure(),
        [shape, levels, kib] => {
            let (Some(shape), Ok(levels), Ok(kib)) = (
                SHAPES.iter().find(|s| s.0 == shape),
                levels.parse::<usize>(),
                kib.parse::<usize>(),
            ) else {
                std::process::exit(2);
            };
            let source = text(shape, levels);
            let parsed = std::thread::Builder::new()
                .stack_size(kib * 1024)
                .spawn(move || mcp_lint::source::parse(&source).is_ok())
                .map(|t| t.join().unwrap_or(false));
            std::process::exit(if parsed.unwrap_or(false) { 0 } else { 1 });
        }
        _ => {
            eprintln!("usage: stack_probe measure | stack_probe SHAPE LEVELS STACK_KIB");
            std::process::exit(2);
        }
    }
}
