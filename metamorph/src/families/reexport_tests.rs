//! Tests of `reexport` (reexport.rs).

use super::*;
use crate::families::testing;

const PROGRAM: &str = r#"
use std::collections::HashMap;
use std::fmt::{Debug, Display as Disp};
use std::io::{self, Write};
use std::fmt::Write as _;

mod tools;

#[derive(Debug)]
struct Reply {
text: String,
}

fn show(item: &dyn Disp) -> String {
format!("<{item}>")
}

fn main() {
let mut registry: HashMap<String, fn(&str) -> Result<String, String>> = HashMap::new();
registry.insert("echo".into(), tools::echo);
registry.insert("count".into(), tools::count);
let mut out = io::stdout();
for (name, arg) in [("echo", "hi"), ("count", "a b c"), ("count", ""), ("nope", "x")] {
    let reply = match registry.get(name) {
        Some(tool) => tool(arg).map(|text| Reply { text }),
        None => Err(format!("unknown tool {name}")),
    };
    writeln!(out, "{name}: {reply:?}").unwrap();
}
let mut line = String::new();
write!(line, "{}", show(&42)).unwrap();
println!("{line} {}", tools::sorted_keys(&registry).join(","));
}
"#;

const TOOLS: &str = r#"
use std::collections::{BTreeSet, HashMap};

pub fn echo(arg: &str) -> Result<String, String> {
Ok(arg.to_string())
}

pub fn count(arg: &str) -> Result<String, String> {
if arg.is_empty() {
    return Err("nothing to count".into());
}
Ok(arg.split(' ').count().to_string())
}

pub fn sorted_keys<V>(map: &HashMap<String, V>) -> Vec<String> {
map.keys().cloned().collect::<BTreeSet<_>>().into_iter().collect()
}

#[cfg(test)]
mod tests {
use std::collections::VecDeque;
}
"#;

#[test]
fn std_imports_renamed_grouped_and_anonymous_work_through_the_new_module() {
    let out = testing::same_behaviour(
        &Reexport,
        &[("src/main.rs", PROGRAM), ("src/tools.rs", TOOLS)],
    );
    let main = &out.tree.files["src/main.rs"];
    for line in [
        "use crate::mm_reexports::u0::HashMap;",
        "use crate::mm_reexports::u1::{Debug, Disp};",
        "use crate::mm_reexports::u2::{io, Write};",
        "use crate::mm_reexports::u3::*;",
        "    pub mod u1 { pub use ::std::fmt::{Debug, Display as Disp}; }",
        "    pub mod u3 { pub use ::std::fmt::Write as _; }",
        "    pub mod u4 { pub use ::std::collections::{BTreeSet, HashMap}; }",
        "    #[cfg(test)] pub mod u5 { pub use ::std::collections::VecDeque; }",
    ] {
        assert!(main.contains(line), "{line}:\n{main}");
    }
    let tools = &out.tree.files["src/tools.rs"];
    assert!(
        tools.contains("use crate::mm_reexports::u4::{BTreeSet, HashMap};"),
        "{tools}"
    );
}

const RMCP: &str = "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
pub use ::serde::Deserialize;\n\
#[cfg(feature = \"http\")]\n\
use axum::Router;\n\
\n\
#[tool_router]\n\
impl Server {}\n";

const MANIFEST: &str = "[package]\nname = \"srv\"\n\n[dependencies]\n\
rmcp = { version = \"0.12\", features = [\n    \"server\",\n] }\n\
\"serde\".workspace = true\n\
[target.'cfg(unix)'.dependencies]\naxum = \"0.8\"\n\
[dev-dependencies.serde-json]\nversion = \"1\"\n[workspace.dependencies]\ntokio = \"1\"\n";

fn with_manifest(main: &str) -> Tree {
    Tree::new([
        ("Cargo.toml".to_string(), MANIFEST.to_string()),
        ("src/main.rs".to_string(), main.to_string()),
    ])
}

#[test]
fn dependencies_of_every_kind_and_target_are_crates_and_workspace_ones_are_not() {
    let deps = dependencies(&with_manifest(""), "src/main.rs");
    let deps: Vec<&str> = deps.iter().map(String::as_str).collect();
    assert_eq!(
        deps,
        [
            "alloc",
            "axum",
            "core",
            "proc_macro",
            "rmcp",
            "serde",
            "serde_json",
            "std"
        ]
    );
}

#[test]
fn an_rmcp_import_keeps_its_names_explicit_and_brings_its_glob_along() {
    let out = Reexport.rewrite(&with_manifest(RMCP));
    let text = &out.tree.files["src/main.rs"];
    assert_eq!(
        text,
        "use crate::mm_reexports::u0::{McpError, tool, tool_router, *};\n\
pub use crate::mm_reexports::u1::Deserialize;\n\
#[cfg(feature = \"http\")]\n\
use crate::mm_reexports::u2::Router;\n\
\n\
#[tool_router]\n\
impl Server {}\n\
\n\
pub(crate) mod mm_reexports {\n    \
pub mod u0 { pub use ::rmcp::{ErrorData as McpError, model::*, tool, tool_router}; }\n    \
pub mod u1 { pub use ::serde::Deserialize; }\n    \
#[cfg(feature = \"http\")] pub mod u2 { pub use ::axum::Router; }\n\
}\n"
    );
}

#[test]
fn paths_that_may_not_start_with_a_crate_are_left_alone() {
    let main = "extern crate alloc;\n\
use alloc::vec::Vec;\n\
use crate::tools::run;\n\
use self::inner::X;\n\
use tools::helper;\n\
use srv::Thing;\n\
use Kind::*;\n\
use tokio::sync::Mutex;\n\
use std::cmp::Ordering::*;\n\
use std::{io::*, fmt::*};\n\
use serde_json;\n\
#[cfg_attr(test, allow(unused))]\n\
use std::mem;\n\
mod tools;\n\
fn f() { use std::rc::Rc; }\n";
    let out = Reexport.rewrite(&with_manifest(main));
    assert_eq!(out.sites, 0, "{}", out.tree.files["src/main.rs"]);
    // `model` is rmcp's, brought by the glob: not a crate.
    let out = Reexport.rewrite(&with_manifest("use rmcp::*;\nuse model::Tool;\n"));
    assert_eq!(out.sites, 2, "{}", out.tree.files["src/main.rs"]);
    assert!(out.tree.files["src/main.rs"].contains("\nuse model::Tool;\n"));
}

#[test]
fn a_file_shared_by_two_crates_is_rewritten_once_and_both_roots_reexport_for_it() {
    let tree = testing::tree(&[
        ("src/lib.rs", "pub mod shared;\n"),
        (
            "src/main.rs",
            "#[cfg(unix)]\nmod shared;\nuse std::fmt;\nfn main() {}\n",
        ),
        ("src/shared.rs", "use std::fmt::Display;\n"),
    ]);
    let out = Reexport.rewrite(&tree);
    let files = &out.tree.files;
    assert_eq!(
        files["src/shared.rs"],
        "use crate::mm_reexports::u0::Display;\n"
    );
    assert_eq!(
        files["src/lib.rs"],
        "pub mod shared;\n\npub(crate) mod mm_reexports {\n    \
pub mod u0 { pub use ::std::fmt::Display; }\n}\n"
    );
    let main = &files["src/main.rs"];
    assert!(
        main.contains("    #[cfg(unix)] pub mod u0 { pub use ::std::fmt::Display; }\n    pub mod u1 { pub use ::std::fmt; }\n"),
        "{main}"
    );
}

#[test]
fn a_taken_module_name_gets_a_fresh_one() {
    let text = testing::rewritten(&Reexport, "mod mm_reexports {}\nuse std::fmt;\n");
    assert!(
        text.contains("use crate::mm_reexports0::u0::fmt;"),
        "{text}"
    );
}
