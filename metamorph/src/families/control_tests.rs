//! Tests of `match_if_let` and `let_else` (control.rs).

use super::*;
use crate::families::testing;

const BRANCHES: &str = r#"
use std::collections::HashMap;

fn greet(args: &HashMap<String, String>) -> Result<String, String> {
    if let Some(name) = args.get("name") {
        Ok(format!("hello {name}"))
    } else if let Some(id) = args.get("id") {
        Ok(format!("hello #{id}"))
    } else {
        Err("missing name".to_string())
    }
}

fn count(args: &HashMap<String, String>) -> Result<String, String> {
    let n = match args.get("n") {
        Some(text) => text.parse::<u32>().map_err(|e| e.to_string())?,
        None => 1,
    };
    let size = match n.checked_mul(2) {
        Some(d) if d > 10 => "big",
        _ => "small",
    };
    let key = match { let k = "unit"; args.get(k) } {
        Some(unit) => unit.as_str(),
        _ => "items",
    };
    let many = match args.contains_key("unit") && n > 1 {
        true => "many",
        _ => "one",
    };
    Ok(format!("{n} {key} ({size}, {many})"))
}

fn dispatch(registry: &HashMap<&str, fn(&HashMap<String, String>) -> Result<String, String>>, name: &str, args: &HashMap<String, String>) -> String {
    let result = match registry.get(name) {
        Some(tool) => tool(args),
        None => Err(format!("unknown tool {name}")),
    };
    match result {
        Ok(text) => { format!("ok: {text}") }
        Err(_) => "error".to_string(),
    }
}

fn main() {
    let mut registry: HashMap<&str, fn(&HashMap<String, String>) -> Result<String, String>> = HashMap::new();
    registry.insert("greet", greet);
    registry.insert("count", count);
    let mut args = HashMap::new();
    for (name, key, value) in [("greet", "", ""), ("greet", "id", "7"), ("greet", "name", "ann"),
                               ("count", "n", "x"), ("count", "n", "9"), ("count", "unit", "files"), ("nope", "", "")] {
        if !key.is_empty() {
            args.insert(key.to_string(), value.to_string());
        }
        println!("{name}: {}", dispatch(&registry, name, &args));
        if let ("count", true) = (name, args.contains_key("n")) {
            println!("  counted");
        }
    }
}
"#;

#[test]
fn tool_branches_print_the_same_as_match_and_as_if_let() {
    let out = testing::same_behaviour(&MatchIfLet, &[("src/main.rs", BRANCHES)]);
    let text = &out.tree.files["src/main.rs"];
    for expected in [
        "match args.get(\"name\") { Some(name) => {",
        "}, _ => match args.get(\"id\") { Some(id) => {",
        "if let Some(text) = args.get(\"n\") {",
        "if let Some(unit) = { let k = \"unit\"; args.get(k) } {",
        "if let true = (args.contains_key(\"unit\") && n > 1) {",
        "if let Ok(text) = result {",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    // A guarded arm is no `if let`.
    assert!(text.contains("Some(d) if d > 10 => \"big\""), "{text}");
}

#[test]
fn an_if_let_becomes_a_match_that_keeps_each_branch_verbatim() {
    let text = testing::rewritten(
        &MatchIfLet,
        "fn f(o: Option<u8>) -> u8 {\n    if let Some(v) = o {\n        v\n    } else {\n        0\n    }\n}\n",
    );
    assert_eq!(
        text,
        "fn f(o: Option<u8>) -> u8 {\n    match o { Some(v) => {\n        v\n    }, _ => {\n        0\n    } }\n}\n"
    );
}

#[test]
fn a_two_arm_match_becomes_an_if_let_with_the_match_braces_as_its_blocks() {
    let text = testing::rewritten(
        &MatchIfLet,
        "fn f(r: Result<u8, E>) -> u8 {\n    match r {\n        Ok(v) => v + 1,\n        Err(_) => 0,\n    }\n}\n",
    );
    assert_eq!(
        text,
        "fn f(r: Result<u8, E>) -> u8 {\n    if let Ok(v) = r {\n         v + 1\n        } else { 0\n    }\n}\n"
    );
}

#[test]
fn branches_whose_scrutinee_holds_a_lock_or_that_bind_in_the_fallback_are_left() {
    let main = "fn f(m: &Mutex<Vec<u8>>, o: Option<u8>, r: Result<u8, u8>) {\n\
    if let Some(x) = m.lock().unwrap().first() { a(x) } else { b() }\n\
    match r { Ok(v) => a(v), Err(e) => a(e) }\n\
    match o { Some(v) if v > 1 => a(v), _ => b() }\n\
    if let Some(x) = o { a(x) }\n\
    if let Some(x) = o && x > 1 { a(x) } else { b() }\n\
    if let x = o { a(x) } else { b() }\n\
    match fut.await { Some(v) => a(v), None => b() }\n\
}\n";
    assert_eq!(testing::rewrite(&MatchIfLet, main).sites, 0);
}

#[test]
fn a_tree_with_a_drop_of_its_own_keeps_branches_on_calls() {
    let main = "struct G;\nimpl Drop for G { fn drop(&mut self) { println!(\"drop\"); } }\n\
fn f(o: Option<u8>) { if let Some(x) = make(o) { a(x) } else { b() } }\n";
    assert_eq!(testing::rewrite(&MatchIfLet, main).sites, 0);
    let main = main.replace("make(o)", "o");
    assert!(testing::rewrite(&MatchIfLet, &main).sites > 0);
}

const LETS: &str = r#"
use std::collections::HashMap;

fn limit(args: &HashMap<String, String>) -> Result<u32, String> {
    let Some(text) = args.get("limit") else { return Err("no limit".into()) };
    let Ok(n) = text.parse::<u32>() else {
        return Err(format!("bad limit {text}"));
    };
    Ok(n)
}

fn sum(args: &HashMap<String, String>) -> Result<u32, String> {
    let mut total = 0;
    for key in ["a", "b", "c"] {
        let value = match args.get(key) {
            Some(v) => v,
            None => continue,
        };
        let n = match value.parse::<u32>() {
            Err(e) => {
                println!("skipping {key}");
                return Err(format!("bad {key}"));
            }
            Ok(n) => n,
        };
        total += n;
    }
    Ok(total)
}

fn words(text: &str) -> Vec<String> {
    let mut parts = text.split(' ');
    let mut out = Vec::new();
    loop {
        let mut word = match parts.next() {
            Some(w) => w,
            None => break,
        };
        if word.is_empty() {
            word = "_";
        }
        out.push(word.to_uppercase());
    }
    out
}

fn main() {
    let mut args = HashMap::new();
    println!("{:?} {:?}", limit(&args), sum(&args));
    args.insert("limit".to_string(), "x".to_string());
    args.insert("a".to_string(), "4".to_string());
    println!("{:?} {:?}", limit(&args), sum(&args));
    args.insert("limit".to_string(), "12".to_string());
    args.insert("b".to_string(), "oops".to_string());
    println!("{:?} {:?}", limit(&args), sum(&args));
    args.insert("b".to_string(), "5".to_string());
    println!("{:?} {:?} {:?}", sum(&args), words("tools  call"), words(""));
}
"#;

#[test]
fn lets_that_give_up_early_print_the_same_as_let_else_and_as_match() {
    let out = testing::same_behaviour(&LetElse, &[("src/main.rs", LETS)]);
    let text = &out.tree.files["src/main.rs"];
    for expected in [
        "let text = match args.get(\"limit\") { Some(text) => text, _ => { return Err(\"no limit\".into()) } };",
        "let n = match text.parse::<u32>() { Ok(n) => n, _ => {",
        "let Some(value) = args.get(key) else {",
        "let Ok(n) = value.parse::<u32>() else {",
        "let Some(mut word) = parts.next() else {",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
}

#[test]
fn a_let_of_a_match_becomes_a_let_else_with_the_match_braces_as_its_block() {
    let text = testing::rewritten(
        &LetElse,
        "fn f(s: &str) -> Result<u32, String> {\n    let n = match s.parse::<u32>() {\n        Ok(v) => v,\n        Err(_) => return Err(s.into()),\n    };\n    Ok(n)\n}\n",
    );
    assert_eq!(
        text,
        "fn f(s: &str) -> Result<u32, String> {\n    let Ok(n) = s.parse::<u32>() else {\n        \n         return Err(s.into())\n    };\n    Ok(n)\n}\n"
    );
}

#[test]
fn a_let_else_becomes_a_match_with_its_else_block_as_the_fallback_arm_unless_it_binds_mut() {
    let text = testing::rewritten(
        &LetElse,
        "fn f(o: Option<u8>) -> u8 {\n    let Some(v) = o else { return 0 };\n    let Some(mut w) = o else { return 1 };\n    v + w\n}\n",
    );
    assert_eq!(
        text,
        "fn f(o: Option<u8>) -> u8 {\n    let v = match o { Some(v) => v, _ => { return 0 } };\n    let Some(mut w) = o else { return 1 };\n    v + w\n}\n"
    );
}

#[test]
fn lets_that_do_not_surely_give_up_or_use_the_error_are_left() {
    let main = "fn f(o: Option<u8>, r: Result<u8, E>) {\n\
    let a = match o { Some(v) => v, None => 0 };\n\
    let b = match r { Ok(v) => v, Err(e) => return Err(e) };\n\
    let c: u8 = match o { Some(v) => v, None => return };\n\
    let d = match o { Some(v) => v + 1, None => return };\n\
    let mut e = match o { Some(v) => v, None => return };\n\
    let g = match m.lock().unwrap().get(0) { Some(v) => v, None => return };\n\
    let Some((x, y)) = o else { return };\n\
    let Foo(x) = o else { return };\n\
    let h = match o { Some(v) => v, None => { log(); 0 } };\n\
    let i = match r { Ok(v) => v, Err(e) => return Err(format!(\"bad: {e}\")) };\n\
    let j = match o { Some(v) => v, None => { #[cfg(unix)] return; } };\n\
}\n";
    let out = testing::rewrite(&LetElse, main);
    assert_eq!(out.sites, 0, "{}", out.tree.files["src/main.rs"]);
}

#[test]
fn a_scrutinee_ending_in_a_brace_gets_parentheses() {
    let text = testing::rewritten(
        &LetElse,
        "fn f() { let v = match unsafe { get() } { Some(v) => v, None => return }; }\n",
    );
    assert_eq!(
        text,
        "fn f() { let Some(v) = (unsafe { get() }) else {   return }; }\n"
    );
}

#[test]
fn an_else_if_let_stays_an_if_let_unless_its_else_became_a_match_arm() {
    let plain = "fn f(c: bool, o: Option<u8>) -> u8 { if c { 1 } else if let Some(v) = o { v } else { 0 } }\n";
    assert_eq!(testing::rewrite(&MatchIfLet, plain).sites, 0);
    let locked = "fn f(m: &M, o: Option<u8>) -> u8 {\n\
    if let Some(v) = m.lock().unwrap().get() { v } else if let Some(v) = o { v } else { 0 }\n}\n";
    assert_eq!(testing::rewrite(&MatchIfLet, locked).sites, 0);
}

#[test]
fn a_struct_literal_in_a_let_else_scrutinee_gets_parentheses_in_a_match() {
    let text = testing::rewritten(
        &LetElse,
        "fn f() { let Some(v) = Args { n: 1 }.get() else { return }; }\n",
    );
    assert_eq!(
        text,
        "fn f() { let v = match (Args { n: 1 }.get()) { Some(v) => v, _ => { return } }; }\n"
    );
}

const SHAPES: &str = r#"#![allow(dead_code)]
use std::collections::HashMap;

fn a(o: Option<u8>) -> u8 { if let Some(v) = o { v } else { 0 } }
fn b(r: Result<u8, String>) -> u8 {
    match r {
        Ok(v) => v + 1,
        Err(_) => 0,
    }
}
fn c(r: Result<u8, String>) -> u8 {
    match r {
        Ok(v) => { v + 1 }
        Err(_) => { 0 }
    }
}
fn d(m: &HashMap<String, String>, on: bool) -> Result<u32, String> {
    let n = match m.get("n") { Some(v) => v, None => return Err("no n".into()) };
    let Ok(k) = n.parse::<u32>() else { return Err("bad n".into()) };
    let x = match { let k = "x"; m.get(k) } { Some(v) => v.len(), _ => 0 };
    let y = match on && k > 1 { true => 1, _ => { 2 } };
    let z = match m.get("z") {
        None => { eprintln!("no z"); return Err("no z".into()) }
        Some(z) => z,
    };
    Ok(k + x as u32 + y + z.len() as u32)
}
"#;

static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Builds `text` as a library with every warning an error (`#![deny(warnings)]` servers).
fn assert_warning_free(text: &str) {
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("mm-control-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("lib.rs"), text).expect("write");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-D",
            "warnings",
        ])
        .arg("-o")
        .arg(dir.join("lib.rmeta"))
        .arg(dir.join("lib.rs"))
        .output()
        .expect("rustc runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn rewritten_branches_draw_no_warning_of_braces_parentheses_or_patterns() {
    assert_warning_free(SHAPES);
    let branches = testing::rewritten(&MatchIfLet, SHAPES);
    assert!(
        branches.contains(
            "fn c(r: Result<u8, String>) -> u8 {\n    if let Ok(v) = r { v + 1 } else { 0 }\n}"
        ),
        "{branches}"
    );
    assert!(
        branches.contains("if let true = (on && k > 1) {  1 } else { 2 };"),
        "{branches}"
    );
    assert_warning_free(&branches);
    let lets = testing::rewritten(&LetElse, SHAPES);
    assert!(
        lets.contains(
            "let Some(z) = m.get(\"z\") else { eprintln!(\"no z\"); return Err(\"no z\".into()) };"
        ),
        "{lets}"
    );
    assert_warning_free(&lets);
}
