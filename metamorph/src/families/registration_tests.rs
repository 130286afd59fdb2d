use super::*;
use crate::families::testing;

/// A server with a registry of fn pointers, one of boxed closures, plain-data maps, and a
/// dispatcher over `tools/call` that reports Ok, Err and unknown names.
const PROGRAM: &str = r#"
use std::collections::{BTreeMap, HashMap};

type Handler = Box<dyn Fn(&str) -> Result<String, String>>;
type ToolFn = fn(&str) -> Result<String, String>;

fn read_file(path: &str) -> Result<String, String> {
    if path.starts_with('/') {
        Ok(format!("contents of {path}"))
    } else {
        Err(format!("relative path: {path}"))
    }
}

fn echo(text: &str) -> Result<String, String> {
    Ok(text.to_string())
}

fn word_count(text: &str) -> Result<String, String> {
    if text.is_empty() {
        Err("empty input".to_string())
    } else {
        Ok(text.split_whitespace().count().to_string())
    }
}

struct Server {
    tools: HashMap<&'static str, ToolFn>,
    boxed: HashMap<String, Handler>,
    descriptions: BTreeMap<&'static str, &'static str>,
}

impl Server {
    fn shout(text: &str) -> Result<String, String> {
        Ok(text.to_uppercase())
    }

    fn new(prefix: String) -> Server {
        let mut tools: HashMap<&'static str, fn(&str) -> Result<String, String>> = HashMap::new();
        tools.insert("read_file", read_file);
        tools.insert("echo", echo);
        tools.insert("shout", Self::shout);
        tools.insert("words", |t| word_count(t));
        let mut boxed: HashMap<String, Handler> = HashMap::with_capacity(4);
        boxed.insert("prefixed".to_string(), Box::new(move |t: &str| Ok(format!("{prefix}{t}"))));
        boxed.insert(String::from("read"), Box::new(read_file));
        boxed.insert("fail".into(), Box::new(|t: &str| Err(format!("refused: {t}"))));
        let mut descriptions = BTreeMap::new();
        descriptions.insert("read_file", "Reads a file");
        descriptions.insert("echo", "Echoes its input");
        descriptions.insert("words", "Counts words");
        Server { tools, boxed, descriptions }
    }

    fn call(&self, name: &str, arg: &str) -> String {
        let result = match (self.tools.get(name), self.boxed.get(name)) {
            (Some(f), _) => f(arg),
            (None, Some(h)) => h(arg),
            (None, None) => return format!("unknown tool: {name}"),
        };
        match result {
            Ok(text) => format!("ok: {text}"),
            Err(e) => format!("error: {e}"),
        }
    }
}

fn limits() -> HashMap<&'static str, u32> {
    let mut limits = std::collections::HashMap::new();
    limits.insert("read_file", 4096);
    limits.insert("echo", 128);
    if limits.len() > 1 {
        limits.insert("extra", 1);
    }
    limits
}

fn alias_answers() -> Vec<String> {
    let mut only = HashMap::new();
    only.insert("cat", echo);
    only.insert("print", echo);
    let mut names: Vec<&str> = only.keys().copied().collect();
    names.sort();
    names.iter().map(|n| format!("{n}={:?}", only[n](n))).collect()
}

fn dispatch(server: &Server, method: &str, params: &[(&str, &str)]) -> String {
    match method {
        "tools/call" => params
            .iter()
            .map(|(name, arg)| server.call(name, arg))
            .collect::<Vec<_>>()
            .join("; "),
        "tools/list" => server
            .descriptions
            .iter()
            .map(|(name, about)| format!("{name}: {about}"))
            .collect::<Vec<_>>()
            .join(", "),
        other => format!("method not found: {other}"),
    }
}

fn main() {
    let server = Server::new("> ".to_string());
    println!("{}", dispatch(&server, "tools/list", &[]));
    let calls = [("read_file", "/etc/motd"), ("read_file", "notes.txt"), ("echo", "hi"), ("shout", "hey")];
    println!("{}", dispatch(&server, "tools/call", &calls));
    let calls = [("words", "a b c"), ("words", ""), ("prefixed", "x"), ("read", "/x"), ("fail", "y"), ("nope", "z")];
    println!("{}", dispatch(&server, "tools/call", &calls));
    println!("{}", dispatch(&server, "resources/list", &[]));
    let limits = limits();
    let mut named: Vec<_> = limits.iter().collect();
    named.sort();
    println!("{named:?} {:?}", limits.get("missing"));
    println!("{:?}", alias_answers());
}
"#;

#[test]
fn a_server_answers_the_same_with_its_registries_built_from_arrays() {
    let out = testing::same_behaviour(&RegistrationFromArray, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    assert_eq!(out.sites, 4, "tools, boxed, descriptions, limits:\n{text}");
    assert!(
        text.contains("(\"read_file\", read_file as fn(&str) -> Result<String, String>),"),
        "{text}"
    );
    assert!(
        text.contains("(\"shout\", Self::shout as fn(&str)"),
        "{text}"
    );
    assert!(
        text.contains("(\"words\", (|t| word_count(t)) as fn(&str)"),
        "{text}"
    );
    assert!(
        text.contains("(String::from(\"read\"), Box::new(read_file) as Handler),"),
        "{text}"
    );
    assert!(
        text.contains("let mut descriptions = BTreeMap::from(["),
        "{text}"
    );
    assert!(
        text.contains("let mut limits = std::collections::HashMap::from(["),
        "{text}"
    );
    assert!(!text.contains("with_capacity"), "{text}");
}

#[test]
fn a_server_answers_the_same_with_its_registries_collected() {
    let out = testing::same_behaviour(&RegistrationCollect, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    assert_eq!(out.sites, 4, "{text}");
    assert!(
        text.contains("].into_iter().collect::<BTreeMap<_, _>>();"),
        "{text}"
    );
    assert!(
        text.contains("].into_iter().collect::<std::collections::HashMap<_, _>>();"),
        "{text}"
    );
}

#[test]
fn a_server_answers_the_same_with_its_inserted_fns_cast_to_pointers() {
    let out = testing::same_behaviour(&RegistrationFnCast, &[("src/main.rs", PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    assert!(
        text.contains("tools.insert(\"echo\", echo as fn(&str) -> Result<String, String>);"),
        "{text}"
    );
    assert!(
        text.contains(
            "tools.insert(\"shout\", Self::shout as fn(&str) -> Result<String, String>);"
        ),
        "{text}"
    );
    // A map whose value type was the fn item's own now holds pointers.
    assert!(
        text.contains("only.insert(\"cat\", echo as fn(&str)"),
        "{text}"
    );
    assert_eq!(out.sites, 5, "{text}");
}

const FN_MAP: &str = "use std::collections::HashMap;
type ToolFn = fn(&str) -> String;
fn a(s: &str) -> String { s.to_string() }
fn b(s: &str) -> String { s.to_uppercase() }
fn registry() -> HashMap<&'static str, ToolFn> {
    let mut tools: HashMap<&'static str, ToolFn> = HashMap::new();
    tools.insert(\"a\", a);
    tools.insert(\"b\", b);
    tools
}
";

#[test]
fn fn_values_of_an_annotated_map_are_cast_to_its_value_type_in_the_array() {
    let text = testing::rewritten(&RegistrationFromArray, FN_MAP);
    let expected = "    let mut tools: HashMap<&'static str, ToolFn> = HashMap::from([
        (\"a\", a as ToolFn),
        (\"b\", b as ToolFn),
    ]);
    tools
";
    assert!(text.contains(expected), "{text}");
}

#[test]
fn an_unannotated_map_of_data_is_collected_with_a_turbofish_of_its_own_spelling() {
    let text = testing::rewritten(
        &RegistrationCollect,
        "use std::collections::{BTreeMap, HashMap};
fn f() -> usize {
    let mut m = BTreeMap::new();
    m.insert(\"x\", 1);
    m.insert(\"y\", 2);
    let mut n = HashMap::<&str, u8>::new();
    n.insert(\"z\", 3);
    n.insert(\"w\", 4);
    m.len() + n.len()
}",
    );
    assert!(
        text.contains(
            "    let mut m = [
        (\"x\", 1),
        (\"y\", 2),
    ].into_iter().collect::<BTreeMap<_, _>>();
"
        ),
        "{text}"
    );
    assert!(
        text.contains("].into_iter().collect::<HashMap::<&str, u8>>();"),
        "{text}"
    );
}

#[test]
fn a_fn_cast_spells_the_signature_and_leaves_out_a_unit_return() {
    let text = testing::rewritten(
        &RegistrationFnCast,
        "use std::collections::HashMap;
fn log(line: &str) {}
fn count(a: u32, b: Vec<u8>) -> usize { 0 }
fn f() {
    let mut m = HashMap::new();
    m.insert(\"log\", log);
    let mut n = HashMap::new();
    n.insert(1, count);
}",
    );
    assert!(
        text.contains("m.insert(\"log\", log as fn(&str));"),
        "{text}"
    );
    assert!(
        text.contains("n.insert(1, count as fn(u32, Vec<u8>) -> usize);"),
        "{text}"
    );
}

fn sites(family: &dyn Family, main: &str) -> usize {
    testing::rewrite(family, main).sites
}

fn in_fn(body: &str) -> String {
    format!(
        "use std::collections::HashMap;
type Handler = Box<dyn Fn(&str) -> String>;
fn a(s: &str) -> String {{ s.to_string() }}
fn b(s: &str) -> String {{ s.to_uppercase() }}
fn n() -> usize {{ 4 }}
fn f() {{
{body}
}}"
    )
}

#[test]
fn maps_whose_entries_need_a_coercion_no_cast_can_spell_are_skipped() {
    let cases = [
        // Distinct fn items do not unify in an array, and no type says what they become.
        "let mut m = HashMap::new(); m.insert(\"a\", a); m.insert(\"b\", a);",
        "let mut m = HashMap::new(); m.insert(\"a\", |s: &str| a(s)); m.insert(\"b\", |s: &str| b(s));",
        "let mut m = HashMap::new(); m.insert(\"a\", Box::new(a)); m.insert(\"b\", Box::new(b));",
        // A cast through `Box::new` gives an untyped closure param no type.
        "let mut m: HashMap<&str, Handler> = HashMap::new(); m.insert(\"a\", Box::new(|s| a(s))); m.insert(\"b\", Box::new(b));",
        // `Some(f)` coerces inside; `Some(f) as T` would not.
        "let mut m: HashMap<&str, Option<fn(&str) -> String>> = HashMap::new(); m.insert(\"a\", Some(a)); m.insert(\"b\", None);",
    ];
    for case in cases {
        for family in [&RegistrationFromArray as &dyn Family, &RegistrationCollect] {
            assert_eq!(sites(family, &in_fn(case)), 0, "{}: {case}", family.name());
        }
    }
}

#[test]
fn runs_that_are_not_plain_fills_of_a_std_map_are_skipped() {
    let cases = [
        // An entry reads the map being filled.
        "let mut m = HashMap::new(); m.insert(\"a\", 1); m.insert(\"b\", m.len());",
        // One insert only, or a statement in between.
        "let mut m = HashMap::new(); m.insert(\"a\", 1);",
        "let mut m = HashMap::new(); n(); m.insert(\"a\", 1); m.insert(\"b\", 2);",
        // A capacity with effects, a hasher of its own, a key given twice.
        "let mut m = HashMap::with_capacity(n()); m.insert(\"a\", 1); m.insert(\"b\", 2);",
        "let mut m: HashMap<&str, u8, std::hash::RandomState> = HashMap::new(); m.insert(\"a\", 1); m.insert(\"b\", 2);",
        "let mut m = HashMap::new(); m.insert(\"a\", 1); m.insert(\"a\", 2);",
    ];
    for case in cases {
        assert_eq!(sites(&RegistrationFromArray, &in_fn(case)), 0, "{case}");
    }
    let other_crate = "use hashbrown::HashMap;
fn f() { let mut m = HashMap::new(); m.insert(1, 2); m.insert(3, 4); }";
    assert_eq!(sites(&RegistrationFromArray, other_crate), 0);
}

#[test]
fn arrays_are_not_collected_by_value_before_edition_2021() {
    let main = "use std::collections::HashMap;
fn f() { let mut m = HashMap::new(); m.insert(1, 2); m.insert(3, 4); }";
    let manifest = "[package]\nname = \"old\"\nedition = \"2018\"\n";
    let tree = Tree::new([
        ("Cargo.toml".to_string(), manifest.to_string()),
        ("src/main.rs".to_string(), main.to_string()),
    ]);
    assert_eq!(RegistrationCollect.rewrite(&tree).sites, 0);
    assert_eq!(RegistrationFromArray.rewrite(&tree).sites, 1);
}

#[test]
fn fns_whose_pointer_type_cannot_be_spelled_at_the_insert_are_not_cast() {
    let main = "use std::collections::HashMap;
fn generic<T: Default>(s: &str) -> T { T::default() }
async fn later(s: &str) -> String { String::new() }
fn borrowed<'a>(s: &'a str) -> &'a str { s }
fn taken(s: impl AsRef<str>) -> usize { 0 }
mod handlers { pub fn read(s: &str) -> String { String::new() } }
struct S;
impl S { fn run(&self, s: &str) -> String { String::new() } }
fn plain(s: &str) -> String { String::new() }
fn f() {
    let mut m = HashMap::new();
    m.insert(\"g\", generic::<String>);
    m.insert(\"l\", later);
    m.insert(\"b\", borrowed);
    m.insert(\"t\", taken);
    m.insert(\"r\", handlers::read);
    m.insert(\"s\", S::run);
    let plain = |s: &str| String::new();
    m.insert(\"p\", plain);
}";
    assert_eq!(sites(&RegistrationFnCast, main), 0);
}

/// Local registries read only by `get`, with keys looked up as `&&str`, `&String`, `&str`
/// and a literal, a closure among the fns, and a map the family must leave alone (read by
/// `keys`).
const LOOKUP_PROGRAM: &str = r#"
use std::collections::HashMap;

fn up(s: &str) -> String {
    s.to_uppercase()
}

fn rev(s: &str) -> String {
    s.chars().rev().collect()
}

fn run(requests: &[(&str, &str)]) -> Vec<String> {
    let mut tools: HashMap<&'static str, fn(&str) -> String> = HashMap::new();
    tools.insert("up", up);
    tools.insert("rev", rev);
    tools.insert("len", |s| s.len().to_string());
    let mut out = Vec::new();
    for (name, arg) in requests {
        match tools.get(name) {
            Some(f) => out.push(f(arg)),
            None => out.push(format!("unknown tool {name}")),
        }
        let owned = name.to_string();
        if let Some(f) = tools.get(owned.as_str()) {
            out.push(f("again"));
        }
        if tools.get(*name).is_none() {
            out.push("missing".into());
        }
    }
    out.push(tools.get("up").map_or("none".to_string(), |f| f("literal")));
    out
}

fn listed() -> Vec<&'static str> {
    let mut all: HashMap<&'static str, u32> = HashMap::new();
    all.insert("a", 1);
    all.insert("b", 2);
    let mut keys: Vec<&'static str> = all.keys().copied().collect();
    keys.sort();
    keys
}

fn main() {
    println!("{:?}", run(&[("up", "a"), ("rev", "abc"), ("len", "xyz"), ("nope", "q")]));
    println!("{:?}", listed());
}
"#;

#[test]
fn a_registry_read_by_get_answers_the_same_as_a_vector_searched_by_key() {
    let out = testing::same_behaviour(&RegistrationVec, &[("src/main.rs", LOOKUP_PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    // The run and its four lookups; the map read by `keys` is left alone.
    assert_eq!(out.sites, 5, "{text}");
    assert!(
        text.contains("let tools: Vec<MmEntry")
            && text.contains("<&'static str, fn(&str) -> String>> = vec!["),
        "{text}"
    );
    assert!(
        text.contains(
            " { key: \"len\", handler: (|s| s.len().to_string()) as fn(&str) -> String },"
        ),
        "{text}"
    );
    assert!(
        text.contains("AsRef::<str>::as_ref(owned.as_str())"),
        "{text}"
    );
    assert!(text.contains("all.insert(\"a\", 1);"), "{text}");
}

#[test]
fn a_registry_with_another_use_or_a_key_that_is_not_str_is_left_alone() {
    let moved = "use std::collections::HashMap;
fn main() {
    let mut m: HashMap<&'static str, u8> = HashMap::new();
    m.insert(\"a\", 1);
    m.insert(\"b\", 2);
    println!(\"{:?} {}\", m.get(\"a\"), m.len());
}
";
    assert_eq!(testing::rewrite(&RegistrationVec, moved).sites, 0);
    let numbers = "use std::collections::HashMap;
fn main() {
    let mut m: HashMap<u8, u8> = HashMap::new();
    m.insert(1, 1);
    m.insert(2, 2);
    println!(\"{:?}\", m.get(&1));
}
";
    assert_eq!(testing::rewrite(&RegistrationVec, numbers).sites, 0);
    let computed_key = "use std::collections::HashMap;
fn main() {
    let mut m: HashMap<&'static str, u8> = HashMap::new();
    m.insert(\"a\", 1);
    m.insert(\"b\", 2);
    println!(\"{:?}\", m.get(&*format!(\"a\")));
}
";
    assert_eq!(testing::rewrite(&RegistrationVec, computed_key).sites, 0);
}

/// A registry of fn pointers whose found values are only called (in a `match` and an `if
/// let`), with a fn, an associated fn and closures (one untyped) among them; and one whose
/// found value is copied out, which must stay pointers.
const BOXED_PROGRAM: &str = r#"
use std::collections::HashMap;

fn up(s: &str) -> String {
    s.to_uppercase()
}

struct Tools;

impl Tools {
    fn rev(s: &str) -> String {
        s.chars().rev().collect()
    }
}

fn run(requests: &[(&str, &str)]) -> Vec<String> {
    let suffix = "!".to_string();
    let mut tools: HashMap<&'static str, fn(&str) -> String> = HashMap::new();
    tools.insert("up", up);
    tools.insert("rev", Tools::rev);
    tools.insert("len", |s| s.len().to_string());
    tools.insert("twice", |s: &str| format!("{s}{s}"));
    let mut out = Vec::new();
    for (name, arg) in requests {
        match tools.get(name) {
            Some(f) => {
                let answer = f(arg);
                out.push(answer + &suffix)
            }
            None => out.push(format!("unknown tool {name}")),
        }
        if let Some(f) = tools.get(name) {
            out.push(f(&f("x")));
        }
    }
    out
}

fn copied() -> String {
    let mut only: HashMap<&'static str, fn(&str) -> String> = HashMap::new();
    only.insert("up", up);
    only.insert("rev", Tools::rev);
    let f = *only.get("up").unwrap();
    f("copied")
}

fn main() {
    println!("{:?}", run(&[("up", "a"), ("rev", "abc"), ("len", "xyz"), ("twice", "t"), ("no", "q")]));
    println!("{}", copied());
}
"#;

#[test]
fn a_registry_whose_tools_are_only_called_answers_the_same_with_boxed_closures() {
    let out = testing::same_behaviour(&RegistrationBoxed, &[("src/main.rs", BOXED_PROGRAM)]);
    let text = &out.tree.files["src/main.rs"];
    assert!(
        text.contains(
            "let mut tools: HashMap<&'static str, Box<dyn Fn(&str) -> String>> = HashMap::new();"
        ),
        "{text}"
    );
    assert!(
        text.contains("tools.insert(\"rev\", Box::new(Tools::rev));"),
        "{text}"
    );
    assert!(
        text.contains("tools.insert(\"len\", Box::new(|s| s.len().to_string()));"),
        "{text}"
    );
    // The registry whose value is copied out keeps its pointers.
    assert!(
        text.contains("let mut only: HashMap<&'static str, fn(&str) -> String>"),
        "{text}"
    );
    assert!(text.contains("only.insert(\"up\", up);"), "{text}");
}
