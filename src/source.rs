//! Source text, the byte ↔ line/column index, and parsing.

use std::path::PathBuf;

use crate::diagnostic::{FileId, Span};
use crate::nesting::Segment;

/// One file of the run.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as given to the file system.
    pub path: PathBuf,
    /// Path shown to users and written in JSON: relative to the workspace root, `/`-separated.
    pub display: String,
    /// The text, while it is held: from the read until its package's last analysis is done,
    /// and to the end of the run when a finding points into it or it has a suppression
    /// comment (see [`SourceFile::release`]).
    text: String,
    /// Whether `text` is the file's text. A file is set aside unread, and released after its
    /// analyses, so that a run holds the text of the packages it is analysing, not the tree's.
    held: bool,
    /// The directory `--fix` may write this file under: the root of the package it was read
    /// for. `None`: never written.
    pub fix_root: Option<PathBuf>,
    /// Where each line starts, built on first use: most files of a run are never quoted.
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    pub fn new(path: PathBuf, display: String, text: String) -> Self {
        SourceFile {
            path,
            display,
            text,
            held: true,
            fix_root: None,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// A file whose text is not held: read later with [`SourceFile::hold`].
    pub fn set_aside(path: PathBuf, display: String) -> Self {
        SourceFile {
            held: false,
            ..SourceFile::new(path, display, String::new())
        }
    }

    /// The file's text. Only a held file has one: reading another is a bug of the run's
    /// stages (caught in debug builds), and gives the empty text.
    pub fn text(&self) -> &str {
        debug_assert!(self.held, "the text of {} is not held", self.display);
        &self.text
    }

    /// Whether the text is held.
    pub fn is_held(&self) -> bool {
        self.held
    }

    /// Holds `text` as the file's text.
    pub fn hold(&mut self, text: String) {
        self.text = text;
        self.held = true;
        self.line_starts = std::sync::OnceLock::new();
    }

    /// Frees the text and its line index.
    pub fn release(&mut self) {
        self.text = String::new();
        self.held = false;
        self.line_starts = std::sync::OnceLock::new();
    }

    /// Files are read only up to 8 MiB, so every offset fits in a `u32`.
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            let mut at = 0;
            for line in self.text().split_inclusive('\n') {
                at += line.len();
                if line.ends_with('\n') {
                    starts.push(u32::try_from(at).unwrap_or(u32::MAX));
                }
            }
            starts
        })
    }

    fn line_start_at(&self, index: usize) -> Option<usize> {
        self.line_starts().get(index).map(|&s| s as usize)
    }

    /// The file, writable by `--fix` under `root` only.
    pub fn with_fix_root(mut self, root: PathBuf) -> Self {
        self.fix_root = Some(root);
        self
    }

    /// 1-based line and 1-based column in Unicode scalar values, as rustc reports them.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let byte = byte.min(self.text().len());
        let starts = self.line_starts();
        let line = match starts.binary_search(&u32::try_from(byte).unwrap_or(u32::MAX)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = starts.get(line).map_or(0, |&s| s as usize);
        let col = self
            .text
            .get(start..byte)
            .map_or(byte - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(start) = self.line_start_at(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.line_start_at(line).unwrap_or(self.text().len());
        self.text()
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// The byte where 1-based line `line` starts (the text's end past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_start_at(line.wrapping_sub(1))
            .unwrap_or(self.text().len())
            .min(self.text().len())
    }

    /// The snippet for quoting in a message: cut to `max` characters with `…`, so that a
    /// message stays small however large the code it names.
    pub fn quoted(&self, span: Span, max: usize) -> std::borrow::Cow<'_, str> {
        let text = self.snippet(span);
        match text.char_indices().nth(max) {
            None => std::borrow::Cow::Borrowed(text),
            Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..cut])),
        }
    }

    pub fn snippet(&self, span: Span) -> &str {
        self.text().get(span.start..span.end).unwrap_or("")
    }

    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }
}

/// All files of a run, indexed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        self.files.len() - 1
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id]
    }
}

/// Stack syn needs per token of the nesting bound, with headroom over what
/// `examples/stack_probe.rs measure` found for the costliest shapes (nested blocks: 5.1 KB in a
/// release build; nested reference types: 31 KB in a debug build).
const STACK_PER_LEVEL: usize = if cfg!(debug_assertions) {
    48 << 10
} else {
    8 << 10
};

/// Stack for everything but the nesting: the analysis' own frames and its red zone.
const STACK_BASE: usize = 16 << 20;

/// The most stack one file may be parsed and analysed with. Items whose nesting bound would
/// need more are left out of the parse and reported.
pub const STACK_BUDGET: usize = 256 << 20;

/// A file's text as syn should parse it, and the stack that takes.
pub struct Prepared {
    /// The text with a byte-order mark, a shebang line, every top-level test-only item and
    /// every item in `too_deep` blanked out (same length, same line breaks, so spans stay
    /// right).
    pub text: String,
    /// Top-level items left out: parsing them could need more than [`STACK_BUDGET`].
    pub too_deep: Vec<Segment>,
    /// Stack to parse, analyse and drop the rest on.
    pub stack: usize,
    /// Modules declared test-only and out of line (`#[cfg(test)] mod tests;`): their files
    /// are compiled into tests only.
    pub test_modules: Vec<String>,
}

/// The stack the nesting `bound` needs.
fn stack_for(bound: usize) -> usize {
    STACK_BASE.saturating_add(bound.saturating_mul(STACK_PER_LEVEL))
}

/// The deepest nesting bound the budget admits.
pub fn max_levels() -> usize {
    (STACK_BUDGET - STACK_BASE) / STACK_PER_LEVEL
}

/// Blanks the BOM and shebang, the doc comments, then the test-only items and the items too
/// deep for the budget.
pub fn prepare(text: &str) -> Prepared {
    let src = without_preamble(text);
    // Scanned after the preamble is blanked: a quote in a shebang line must not start a string.
    let scan = crate::nesting::scan(&src);
    let mut too_deep = Vec::new();
    let mut deepest = 0;
    // Nothing reads doc comments, and each is an attribute syn would build and lowering
    // would print: they are blanked too. (A directive above a documented item then covers
    // the item, which starts at its first attribute or keyword.)
    let mut blanked: Vec<(usize, usize)> = scan.docs;
    let mut test_modules = Vec::new();
    for segment in scan.segments {
        if segment.test_only {
            test_modules.extend(out_of_line_module(&src[segment.start..segment.end]));
            // The analysis leaves test-only items out: they need not be parsed either.
            blanked.push((segment.start, segment.end));
        } else if stack_for(segment.bound) > STACK_BUDGET {
            blanked.push((segment.start, segment.end));
            too_deep.push(segment);
        } else {
            deepest = deepest.max(segment.bound);
        }
    }
    let text = if blanked.is_empty() {
        src
    } else {
        let mut bytes = src.into_bytes();
        for (start, end) in blanked {
            blank(&mut bytes[start..end]);
        }
        // Blanking writes ASCII spaces over whole characters, so the text stays UTF-8.
        String::from_utf8(bytes).unwrap_or_default()
    };
    Prepared {
        text,
        too_deep,
        stack: stack_for(deepest),
        test_modules,
    }
}

/// The module an item declares out of line (`pub mod tests;`), read from its last tokens: an
/// identifier after the keyword `mod`, then `;`. Anything else (a comment in between, a
/// `use`, an inline module) is not one.
fn out_of_line_module(item: &str) -> Option<String> {
    let rest = item.trim_end().strip_suffix(';')?.trim_end();
    let name_at = rest
        .rfind(|c: char| !(c == '_' || c.is_alphanumeric()))
        .map_or(0, |i| i + 1);
    let name = &rest[name_at..];
    let before = rest[..name_at]
        .strip_suffix("r#")
        .unwrap_or(&rest[..name_at]);
    let before = before.trim_end().strip_suffix("mod")?;
    let separated =
        before.is_empty() || before.ends_with(|c: char| c.is_whitespace() || c == ']' || c == ')');
    let starts_well = name.starts_with(|c: char| c == '_' || c.is_alphabetic());
    (separated && starts_well).then(|| name.to_string())
}

/// Overwrites every byte but line breaks with a space. A range that starts or ends inside a
/// multi-byte character cannot happen: segments start and end at token boundaries.
fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// `text` with a leading byte-order mark and shebang line blanked out rather than removed,
/// so that every span keeps pointing at the right byte.
fn without_preamble(text: &str) -> String {
    let mut src = text.to_string();
    if src.starts_with('\u{feff}') {
        src.replace_range(..'\u{feff}'.len_utf8(), "   ");
    }
    if src.starts_with("#!") && !src.starts_with("#![") {
        let end = src.find('\n').unwrap_or(src.len());
        let spaces = " ".repeat(src[..end].len());
        src.replace_range(..end, &spaces);
    }
    src
}

/// Parses `text` as a Rust file. syn recurses once per level of nesting: call it only on a
/// stack sized by [`prepare`] (see [`parse_isolated`]).
pub fn parse(text: &str) -> Result<syn::File, syn::Error> {
    syn::parse_file(&without_preamble(text))
}

/// Runs `f` on a stack of at least `stack` bytes: on this thread when enough is left, else on
/// a thread of its own. `Err` when no such thread can be started or `f` panicked there.
pub fn on_stack<T: Send>(stack: usize, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    if stacker::remaining_stack().is_some_and(|left| left >= stack) {
        return Ok(f());
    }
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("mcp-lint-deep".into())
            .stack_size(stack)
            .spawn_scoped(scope, f)
            .map_err(|e| {
                format!(
                    "cannot start a thread with {} MiB of stack: {e}",
                    stack >> 20
                )
            })?;
        worker.join().map_err(|_| "a panic".to_string())
    })
}

/// Whether `text` still parses, checked as the analysis parses: within the stack budget, on
/// a stack sized for it, with a panic caught. `Err` says why not.
pub fn parse_isolated(text: &str) -> Result<(), String> {
    let prepared = prepare(text);
    if let Some(deep) = prepared.too_deep.first() {
        return Err(format!(
            "it would nest more than {} levels deep at byte {}",
            max_levels(),
            deep.start
        ));
    }
    let stack = prepared.stack;
    on_stack(stack, move || {
        let parsed = std::panic::catch_unwind(|| {
            let result = syn::parse_file(&prepared.text)
                .map(drop)
                .map_err(|e| e.to_string());
            proc_macro2::extra::invalidate_current_thread_spans();
            result
        });
        parsed.unwrap_or_else(|_| Err("the parser panicked".to_string()))
    })?
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_only_modules_declared_out_of_line_are_named() {
        let src = "#[cfg(test)]\nmod tests;\n#[cfg(test)] pub(crate) mod r#helpers;\n\
                   #[cfg(test)]\nmod inline { fn t() {} }\n#[cfg(test)]\nuse a::b as mod_c;\n\
                   mod live;\n";
        assert_eq!(super::prepare(src).test_modules, ["tests", "helpers"]);
    }

    #[test]
    fn doc_comments_are_blanked_in_place_and_an_unclosed_one_is_left_to_the_parser() {
        let prepared = super::prepare("/// Doc.\n#[tool] /** x */ fn f() {}\n/** open");
        assert_eq!(
            prepared.text,
            "        \n#[tool]          fn f() {}\n/** open"
        );
        assert!(super::parse(&prepared.text).is_err());
        assert!(super::parse(&super::prepare("/// Doc.\nfn f() {}").text).is_ok());
    }
}
