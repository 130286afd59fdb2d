//! `reorder_items`: the items of every module (a file, an inline `mod { }`) and of every `impl`
//! block, in reverse order.
//!
//! Where an item stands does not matter in Rust except for `macro_rules!`, whose scope is
//! textual. So only maximal runs of items with no macro item (a `macro_rules!`, an invocation,
//! `include!`), no item syn could not read and no `#[macro_use]` are reversed: every item keeps
//! its place relative to every macro. Inner attributes and `//!` docs stay first. Each item moves
//! with its attributes and doc comments (its span), its indentation, the comments before it
//! (after the first item of its container) and a `// comment` after it on its last line; the
//! line breaks between items stay where they are. (A position at the start of an item's line,
//! where a linter may report it, so maps back to that item's own line.)
//! Nested runs (the methods of an impl inside a reversed module) are reversed too: each moved
//! item is copied with its own runs reversed.

use std::ops::Range;

use quote::ToTokens;
use syn::visit::Visit;

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct ReorderItems;

impl Family for ReorderItems {
    fn name(&self) -> &'static str {
        "reorder_items"
    }

    fn about(&self) -> &'static str {
        "items of modules and impl blocks in reverse order, macros kept in place"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let mut rewriter = Rewriter::new(tree);
        for (path, text, parsed) in crate::syntax::parsed_files(tree) {
            let mut runs = Runs {
                text,
                parsed: &parsed,
                runs: Vec::new(),
            };
            runs.file(&parsed.ast);
            let mut all = runs.runs;
            all.sort_by_key(|r| r.span().start);
            for run in outermost(&all, 0..text.len()) {
                let chunks = reversed(path, run, &all);
                rewriter.replace(path, run.span(), chunks);
            }
        }
        rewriter.finish()
    }
}

/// Consecutive items that may change places: each with its comments, in source order.
struct Run {
    elems: Vec<Range<usize>>,
}

impl Run {
    fn span(&self) -> Range<usize> {
        let start = self.elems.first().map_or(0, |e| e.start);
        let end = self.elems.last().map_or(0, |e| e.end);
        start..end
    }
}

/// An item of a container: where it starts and ends, and whether it must stay in place.
struct Element {
    range: Range<usize>,
    barrier: bool,
}

struct Runs<'a> {
    text: &'a str,
    parsed: &'a Parsed,
    runs: Vec<Run>,
}

impl Runs<'_> {
    fn file(&mut self, file: &syn::File) {
        let lower = if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let elements = file.items.iter().map(|i| self.item(i)).collect();
        self.container(self.after_inner_attrs(lower, &file.attrs), elements, true);
        self.visit_file(file);
    }

    fn item(&self, item: &syn::Item) -> Element {
        let barrier = match item {
            syn::Item::Macro(_) | syn::Item::Verbatim(_) => true,
            syn::Item::Mod(m) => macro_use(&m.attrs),
            syn::Item::ExternCrate(e) => macro_use(&e.attrs),
            _ => false,
        };
        Element {
            range: self.parsed.node(item),
            barrier,
        }
    }

    fn impl_item(&self, item: &syn::ImplItem) -> Element {
        Element {
            range: self.parsed.node(item),
            barrier: matches!(item, syn::ImplItem::Macro(_) | syn::ImplItem::Verbatim(_)),
        }
    }

    /// Past the inner attributes (`#![..]`, `//!`) of a container that starts at `lower`.
    fn after_inner_attrs(&self, lower: usize, attrs: &[syn::Attribute]) -> usize {
        attrs
            .iter()
            .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)))
            .map(|a| self.parsed.node(a).end)
            .fold(lower, usize::max)
    }

    /// Splits a container's items into runs at the barriers. Comments before an item go with
    /// it (a `// mcp-lint: allow(..)` directive is about the item below it), except a file's
    /// header: what precedes the file's first item up to its last blank line stays first.
    fn container(&mut self, lower: usize, elements: Vec<Element>, file: bool) {
        let mut prev_end = lower;
        let mut run: Vec<Range<usize>> = Vec::new();
        for (i, element) in elements.into_iter().enumerate() {
            let from = if file && i == 0 {
                self.after_last_blank_line(prev_end, element.range.start)
            } else {
                prev_end
            };
            let lead = self.lead(from, element.range.start);
            let lead = self.line_start(prev_end, lead);
            let end = self.trailing_comment_end(element.range.end);
            prev_end = end;
            if element.barrier {
                self.flush(&mut run);
            } else {
                run.push(lead..end);
            }
        }
        self.flush(&mut run);
    }

    fn flush(&mut self, run: &mut Vec<Range<usize>>) {
        let elems = std::mem::take(run);
        if elems.len() > 1 {
            self.runs.push(Run { elems });
        }
    }

    /// Past the last blank line between `from` and `start` (`from` if there is none).
    fn after_last_blank_line(&self, from: usize, start: usize) -> usize {
        let gap = &self.text[from..start];
        gap.match_indices('\n')
            .map(|(i, _)| from + i + 1)
            .rev()
            .find(|&at| {
                let next = self.text[at..start].find('\n').map_or(start, |n| at + n);
                self.text[at..next].trim().is_empty() && next < start
            })
            .unwrap_or(from)
    }

    /// The first non-blank byte between the previous item and this one: its comments.
    fn lead(&self, prev_end: usize, start: usize) -> usize {
        let gap = &self.text[prev_end..start];
        gap.find(|c: char| !c.is_whitespace())
            .map_or(start, |i| prev_end + i)
    }

    /// The start of `at`'s line when only blanks precede it there: an item moves with its
    /// indentation, so a position at the start of its line still maps to its own line.
    fn line_start(&self, prev_end: usize, at: usize) -> usize {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let blank = self.text[start..at].chars().all(char::is_whitespace);
        if start >= prev_end && blank {
            start
        } else {
            at
        }
    }

    /// Past a `// comment` that follows an item on its last line.
    fn trailing_comment_end(&self, end: usize) -> usize {
        let rest = &self.text[end..];
        let line = rest.find('\n').map_or(rest, |i| &rest[..i]);
        let comment = line.trim_start();
        if comment.starts_with("//") && !comment.starts_with("///") && !comment.starts_with("//!") {
            end + line.trim_end().len()
        } else {
            end
        }
    }
}

impl<'ast> Visit<'ast> for Runs<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((brace, items)) = &m.content {
            let open = self.parsed.range(brace.span.open()).end;
            let elements = items.iter().map(|i| self.item(i)).collect();
            self.container(self.after_inner_attrs(open, &m.attrs), elements, false);
        }
        syn::visit::visit_item_mod(self, m);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let open = self.parsed.range(i.brace_token.span.open()).end;
        let elements = i.items.iter().map(|item| self.impl_item(item)).collect();
        self.container(self.after_inner_attrs(open, &i.attrs), elements, false);
        syn::visit::visit_item_impl(self, i);
    }
}

/// `#[macro_use]`, also behind a `cfg_attr`.
fn macro_use(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.to_token_stream().to_string().contains("macro_use"))
}

/// The runs inside `range` that no other run inside it contains (runs sorted by start).
fn outermost(runs: &[Run], range: Range<usize>) -> Vec<&Run> {
    let mut out: Vec<&Run> = Vec::new();
    for run in runs {
        let span = run.span();
        let inside = range.start <= span.start && span.end <= range.end;
        let covered = out.last().is_some_and(|o| span.start < o.span().end);
        if inside && !covered {
            out.push(run);
        }
    }
    out
}

/// A run's items last to first, each copied with the runs inside it reversed; the blank text
/// between items stays in its place in the sequence.
fn reversed(path: &str, run: &Run, all: &[Run]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    for i in (0..run.elems.len()).rev() {
        chunks.extend(rendered(path, run.elems[i].clone(), all));
        if i > 0 {
            let gap = run.elems[i - 1].end..run.elems[i].start;
            chunks.push(Chunk::copy(path, gap));
        }
    }
    chunks
}

/// The text of `range` with every run inside it reversed.
fn rendered(path: &str, range: Range<usize>, all: &[Run]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut at = range.start;
    for run in outermost(all, range.clone()) {
        let span = run.span();
        chunks.push(Chunk::copy(path, at..span.start));
        chunks.extend(reversed(path, run, all));
        at = span.end;
    }
    chunks.push(Chunk::copy(path, at..range.end));
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::testing;

    const PROGRAM: &str = r#"//! A tiny tool server.
#![allow(dead_code)]

use std::collections::HashMap;

macro_rules! reply {
    ($($arg:tt)*) => { format!("reply: {}", format!($($arg)*)) };
}

const PREFIX: &str = "tools/";

// Looks a tool up by its full method name.
fn route(method: &str) -> Option<&str> {
    method.strip_prefix(PREFIX)
}

struct Server {
    tools: HashMap<&'static str, fn(&str) -> Result<String, String>>,
}

impl Server {
    fn new() -> Self {
        let mut tools: HashMap<&'static str, fn(&str) -> Result<String, String>> = HashMap::new();
        tools.insert("echo", helpers::echo);
        tools.insert("len", helpers::len);
        Server { tools }
    }

    /// Handles one request.
    fn handle(&self, method: &str, arg: &str) -> String {
        match route(method).and_then(|name| self.tools.get(name)) {
            Some(tool) => match tool(arg) {
                Ok(text) => reply!("{text}"),
                Err(e) => reply!("error {e}"),
            },
            None => reply!("unknown method {method}"),
        }
    }

    const LIMIT: usize = 8; // characters
}

mod helpers {
    pub fn echo(arg: &str) -> Result<String, String> {
        Ok(arg.to_string())
    }

    pub fn len(arg: &str) -> Result<String, String> {
        if arg.len() > super::Server::LIMIT {
            return Err("too long".to_string());
        }
        Ok(arg.len().to_string())
    }
}

fn main() {
    let server = Server::new();
    for (method, arg) in [("tools/echo", "hi"), ("tools/len", "abc"), ("tools/len", "abcdefghij"), ("tools/x", ""), ("ping", "")] {
        println!("{}", server.handle(method, arg));
    }
}
"#;

    #[test]
    fn a_server_answers_the_same_with_its_items_in_reverse_order() {
        let out = testing::same_behaviour(&ReorderItems, &[("src/main.rs", PROGRAM)]);
        let text = &out.tree.files["src/main.rs"];
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s}:\n{text}"));
        // The docs and attributes of the file stay first, the macro before what uses it.
        assert!(text.starts_with("//! A tiny tool server.\n#![allow(dead_code)]\n\nuse std::collections::HashMap;\n\nmacro_rules!"), "{text}");
        assert!(at("fn main()") < at("mod helpers") && at("mod helpers") < at("struct Server"));
        assert!(at("fn main()") > at("macro_rules!"));
        // Comments travel with their item; impl and module members are reversed too.
        assert!(
            at("// Looks a tool up") + "// Looks a tool up by its full method name.\n".len()
                == at("fn route("),
            "{text}"
        );
        assert!(
            at("const LIMIT") < at("/// Handles one request.") && at("fn handle(") < at("fn new()")
        );
        assert!(at("const LIMIT: usize = 8; // characters") > 0);
        assert!(at("pub fn len(") < at("pub fn echo("));
    }

    #[test]
    fn two_items_swap_with_the_blank_line_between_them_kept() {
        let text = testing::rewritten(&ReorderItems, "fn a() {}\n\n// b\nfn b() {}\n");
        assert_eq!(text, "// b\nfn b() {}\n\nfn a() {}\n");
    }

    #[test]
    fn the_start_of_a_moved_items_line_maps_back_to_that_items_line() {
        let input = "impl S {\n    fn a() {}\n\n    fn b() {}\n}\n";
        let out = testing::rewrite(&ReorderItems, input);
        let text = &out.tree.files["src/main.rs"];
        assert_eq!(text, "impl S {\n    fn b() {}\n\n    fn a() {}\n}\n");
        for name in ["fn a", "fn b"] {
            let line_start = |t: &str| {
                t[..t.find(name).unwrap_or(0)]
                    .rfind('\n')
                    .map_or(0, |i| i + 1)
            };
            let origin = out.origin("src/main.rs", line_start(text));
            assert_eq!(origin.map(|o| o.offset), Some(line_start(input)), "{name}");
        }
    }

    #[test]
    fn a_directive_above_the_first_method_moves_with_it_and_a_file_header_stays() {
        let text = testing::rewritten(
            &ReorderItems,
            "// header\n\n// about a\nfn a() {}\nimpl S {\n    // mcp-lint: allow(x)\n    fn c() {}\n    fn d() {}\n}\n",
        );
        assert_eq!(
            text,
            "// header\n\nimpl S {\n    fn d() {}\n    // mcp-lint: allow(x)\n    fn c() {}\n}\n// about a\nfn a() {}\n"
        );
    }

    #[test]
    fn macros_and_macro_use_modules_keep_their_place() {
        let main = "fn a() {}\nmy_macro!();\nfn b() {}\n#[macro_use]\nmod m;\nfn c() {}\n";
        assert_eq!(testing::rewrite(&ReorderItems, main).sites, 0);
        let text = testing::rewritten(
            &ReorderItems,
            "macro_rules! m { () => {} }\nfn a() {}\nfn b() {}\nm!();\nfn c() {}\n",
        );
        assert_eq!(
            text,
            "macro_rules! m { () => {} }\nfn b() {}\nfn a() {}\nm!();\nfn c() {}\n"
        );
    }
}
