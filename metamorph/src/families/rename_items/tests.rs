use super::*;
use crate::families::testing;

const MAIN: &str = r#"
mod store;
use store::{Store, Kind, open_store};
use crate::store::LIMIT;

trait Tool {
    fn apply_args(&self, args: &str) -> Result<String, String>;
    fn describe(&self) -> String { format!("tool {}", self.apply_args("?").is_ok()) }
}

struct Reader { store: Store }

impl Reader {
    const PREFIX: &'static str = "r:";
    fn make(store: Store) -> Self { Reader { store } }
    fn lookup(&self, key: &str) -> Option<String> {
        self.store.fetch_note(key).map(|v| format!("{}{v}", Self::PREFIX))
    }
}

impl Tool for Reader {
    fn apply_args(&self, args: &str) -> Result<String, String> {
        self.lookup(args).ok_or_else(|| format!("no note {args}"))
    }
}

fn run_tool(tool: &dyn Tool, args: &str) -> String {
    match tool.apply_args(args) {
        Ok(text) => text,
        Err(e) => format!("error: {e}"),
    }
}

static GREETING: &str = "hello";
type Answer = Result<String, String>;

fn answer(x: usize) -> Answer {
    if x > LIMIT { Err("too big".into()) } else { Ok(GREETING.repeat(x)) }
}

impl std::fmt::Display for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "reader of {}", self.store.len())
    }
}

fn main() {
    let reader = Reader::make(open_store());
    println!("{}", run_tool(&reader, "a"));
    println!("{}", run_tool(&reader, "zzz"));
    println!("{}", reader.describe());
    println!("{reader} {:?} {:?} {}", answer(2), answer(9), Kind::Note as u8);
    let len = reader.store.len();
    println!("{len}");
}
"#;

const STORE: &str = r#"
use std::collections::HashMap;

pub const LIMIT: usize = 3;

#[derive(Debug)]
pub enum Kind { Note = 7 }

pub struct Store { notes: HashMap<String, String> }

impl Store {
    pub fn fetch_note(&self, key: &str) -> Option<&String> { self.notes.get(key) }
    pub fn len(&self) -> usize { self.notes.len() }
}

pub fn open_store() -> Store {
    let mut notes = HashMap::new();
    notes.insert("a".to_string(), "first".to_string());
    Store { notes }
}
"#;

#[test]
fn a_program_does_the_same_with_its_items_renamed_across_files() {
    let out = testing::same_behaviour(
        &RenameItems,
        &[("src/main.rs", MAIN), ("src/store.rs", STORE)],
    );
    let main = &out.tree.files["src/main.rs"];
    let store = &out.tree.files["src/store.rs"];
    for gone in [
        "fn lookup",
        "fn run_tool",
        "struct Reader",
        "trait Tool",
        "fn apply_args",
        "GREETING",
        "type Answer",
        "PREFIX",
    ] {
        assert!(!main.contains(gone), "{gone} is still there:\n{main}");
    }
    for gone in ["fn fetch_note", "fn open_store", "struct Store", "LIMIT"] {
        assert!(!store.contains(gone), "{gone} is still there:\n{store}");
    }
    // Kept: a std method's name, an external trait's method, main, enum variants, modules.
    for kept in ["fn len", "Note = 7"] {
        assert!(
            store.contains(kept) || main.contains(kept),
            "{kept} was renamed"
        );
    }
    assert!(main.contains("fn fmt(") && main.contains("fn main()") && main.contains("mod store;"));
}

#[test]
fn a_renamed_rmcp_tool_keeps_its_wire_name_in_the_attribute() {
    let files = [
        (
            "Cargo.toml",
            "[package]\nname = \"srv\"\n[dependencies]\nrmcp = \"1\"\n",
        ),
        (
            "src/main.rs",
            "struct S;\n#[tool_router]\nimpl S {\n    #[tool(description = \"Read\")]\n    async fn read_note(&self) -> String { self.helper() }\n    #[tool]\n    async fn list(&self) -> String { String::new() }\n    #[tool(name = \"wire\")]\n    async fn named(&self) {}\n    fn helper(&self) -> String { String::new() }\n}\n",
        ),
    ];
    let tree = Tree::new(files.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let text = RenameItems.rewrite(&tree).tree.files["src/main.rs"].clone();
    assert!(
        text.contains("#[tool(name = \"read_note\", description = \"Read\")]\n    async fn mm_m"),
        "{text}"
    );
    assert!(
        text.contains("#[tool(name = \"list\")]\n    async fn mm_m"),
        "{text}"
    );
    assert!(
        text.contains("#[tool(name = \"wire\")]\n    async fn mm_m"),
        "{text}"
    );
    assert!(!text.contains("helper"), "{text}");
    assert!(!text.contains("impl S"), "{text}");
}

#[test]
fn a_tool_of_an_sdk_whose_attribute_we_cannot_name_keeps_its_fn_name() {
    let text = testing::rewritten(
        &RenameItems,
        "#[mcp_server]\nimpl McpServer for S {}\nimpl S {\n    #[tool]\n    async fn read(&self) -> String { String::new() }\n}\n",
    );
    assert!(text.contains("async fn read("), "{text}");
}

#[test]
fn names_read_by_attributes_and_names_of_locals_stay() {
    let text = testing::rewritten(
        &RenameItems,
        "#[derive(Deserialize)]\nstruct Args { #[serde(default = \"default_limit\")] limit: u32 }\nfn default_limit() -> u32 { 3 }\nfn config() -> u8 { 1 }\nfn other() { let config = config(); }\n",
    );
    assert!(text.contains("fn default_limit()"), "{text}");
    assert!(text.contains("fn config()"), "{text}");
    assert!(!text.contains("fn other()"), "{text}");
    assert!(!text.contains("struct Args"), "{text}");
}

#[test]
fn a_name_a_file_takes_from_a_library_is_not_the_crates_there() {
    let files = [
        ("src/main.rs", "mod a;\nmod b;\nfn main() {}\n"),
        (
            "src/a.rs",
            "pub struct Error;\npub fn make() -> Error { Error }\n",
        ),
        (
            "src/b.rs",
            "use std::io::Error;\npub fn io() -> Error { Error::other(\"x\") }\n",
        ),
    ];
    let out = RenameItems.rewrite(&testing::tree(&files));
    assert!(
        out.tree.files["src/b.rs"].contains("-> Error { Error::other"),
        "{}",
        out.tree.files["src/b.rs"]
    );
    assert!(
        !out.tree.files["src/a.rs"].contains("Error"),
        "{}",
        out.tree.files["src/a.rs"]
    );
}

const COMMON: &str = r#"
struct Notes { items: Vec<String> }

impl Notes {
    fn fetch_all(&self) -> Vec<String> { self.items.clone() }
    fn first_upper(&self) -> Option<String> {
        self.items.iter().map(|s| s.to_uppercase()).next()
    }
    fn note_count(&self) -> usize { self.fetch_all().len() }
}

fn main() {
    let notes = Notes { items: vec!["a".into(), "b".into()] };
    let lens: Vec<usize> = notes.fetch_all().iter().map(|s| s.len()).collect();
    println!("{lens:?} {:?} {}", notes.first_upper(), notes.note_count());
}
"#;

#[test]
fn methods_take_names_std_also_uses_and_calls_stay_the_crates() {
    let out = testing::same_behaviour(&RenameMethodsCommon, &[("src/main.rs", COMMON)]);
    let text = &out.tree.files["src/main.rs"];
    assert!(text.contains("fn map(&self) -> Option<String>"), "{text}");
    assert!(text.contains("notes.map()"), "{text}");
    // `fetch_all` is a library method's name (sqlx): it keeps it.
    assert!(text.contains("fn fetch_all"), "{text}");
}

#[test]
fn a_trait_of_an_inline_module_is_not_the_one_the_file_imports() {
    let text = testing::rewritten(
        &RenameItems,
        "use lib::Handler;\nstruct S;\nimpl Handler for S {}\nmod local {\n    pub trait Handler {}\n    struct T;\n    impl Handler for T {}\n}\n",
    );
    assert!(text.starts_with("use lib::Handler;\nstruct MmT"), "{text}");
    assert!(text.contains("impl Handler for MmT"), "{text}");
    assert!(!text.contains("pub trait Handler"), "{text}");
}
