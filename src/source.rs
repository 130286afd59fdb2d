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
    pub text: String,
    /// The directory `--fix` may write this file under: the root of the package it was read
    /// for. `None`: never written.
    pub fix_root: Option<PathBuf>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: PathBuf, display: String, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path,
            display,
            text,
            fix_root: None,
            line_starts,
        }
    }

    /// The file, writable by `--fix` under `root` only.
    pub fn with_fix_root(mut self, root: PathBuf) -> Self {
        self.fix_root = Some(root);
        self
    }

    /// 1-based line and 1-based column in Unicode scalar values, as rustc reports them.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let byte = byte.min(self.text.len());
        let line = match self.line_starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..byte)
            .map_or(byte - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// The byte where 1-based line `line` starts (the text's end past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(self.text.len())
            .min(self.text.len())
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
        self.text.get(span.start..span.end).unwrap_or("")
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
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
    /// The text with a byte-order mark, a shebang line and every item in `too_deep` blanked
    /// out (same length, same line breaks, so spans stay right).
    pub text: String,
    /// Top-level items left out: parsing them could need more than [`STACK_BUDGET`].
    pub too_deep: Vec<Segment>,
    /// Stack to parse, analyse and drop the rest on.
    pub stack: usize,
}

/// The stack the nesting `bound` needs.
fn stack_for(bound: usize) -> usize {
    STACK_BASE.saturating_add(bound.saturating_mul(STACK_PER_LEVEL))
}

/// The deepest nesting bound the budget admits.
pub fn max_levels() -> usize {
    (STACK_BUDGET - STACK_BASE) / STACK_PER_LEVEL
}

/// Blanks the BOM and shebang, then the items too deep for the budget.
pub fn prepare(text: &str) -> Prepared {
    let mut bytes = without_preamble(text).into_bytes();
    let mut too_deep = Vec::new();
    let mut deepest = 0;
    // Scanned after the preamble is blanked: a quote in a shebang line must not start a string.
    let segments = crate::nesting::segments(std::str::from_utf8(&bytes).unwrap_or(""));
    for segment in segments {
        if stack_for(segment.bound) > STACK_BUDGET {
            blank(&mut bytes[segment.start..segment.end]);
            too_deep.push(segment);
        } else {
            deepest = deepest.max(segment.bound);
        }
    }
    Prepared {
        // Blanking writes ASCII spaces over whole characters, so the text stays UTF-8.
        text: String::from_utf8(bytes).unwrap_or_default(),
        too_deep,
        stack: stack_for(deepest),
    }
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

/// Converts a `proc_macro2` span of the file being analysed on this thread.
pub fn span_of(file: FileId, span: proc_macro2::Span) -> Span {
    let range = span.byte_range();
    Span {
        file,
        start: range.start,
        end: range.end,
    }
}

/// Converts the span covering `tokens` (first to last token).
pub fn span_of_tokens(file: FileId, tokens: &impl quote::ToTokens) -> Span {
    let mut iter = tokens.to_token_stream().into_iter();
    let Some(first) = iter.next() else {
        return Span {
            file,
            start: 0,
            end: 0,
        };
    };
    let start = first.span().byte_range();
    let end = iter.last().map_or(start.end, |t| t.span().byte_range().end);
    Span {
        file,
        start: start.start,
        end: end.max(start.start),
    }
}

/// The span of an expression from its first to its last token, found by walking down its
/// left and right edges: linear in the depth of those edges, where `Spanned::span` turns the
/// whole expression into tokens (quadratic over a method chain or a `?` sequence).
pub fn expr_span(file: FileId, expr: &syn::Expr) -> Span {
    let start = edge_token(expr, Edge::First).map(|s| s.byte_range().start);
    let end = edge_token(expr, Edge::Last).map(|s| s.byte_range().end);
    match (start, end) {
        (Some(start), Some(end)) if end >= start => Span { file, start, end },
        _ => span_of(file, syn::spanned::Spanned::span(expr)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    First,
    Last,
}

/// A byte range, as cached.
type Range = (usize, usize);

/// (expression address, first edge?) → (its own token, the edge token found).
type EdgeCache = std::collections::HashMap<(usize, bool), (Range, Option<proc_macro2::Span>)>;

thread_local! {
    /// Edge tokens found, by expression address and with that expression's own token (so a
    /// hit on an address reused by another expression, after a macro body's temporary tree is
    /// dropped, is told apart): every node on a walked edge shares its result, so the spans
    /// of all the links of a chain cost one walk, not one each.
    static EDGES: std::cell::RefCell<EdgeCache> = std::cell::RefCell::new(EdgeCache::new());
}

/// Forgets the edges found: call when the syntax tree they point into is dropped.
pub fn clear_span_cache() {
    EDGES.with(|e| e.borrow_mut().clear());
}

/// The span of the first or last token of `expr`; `None` where the walk would need a
/// variant it does not know (the caller then takes the whole span).
fn edge_token(expr: &syn::Expr, edge: Edge) -> Option<proc_macro2::Span> {
    let key = |e: &syn::Expr| (e as *const syn::Expr as usize, edge == Edge::First);
    let mut walked = Vec::new();
    let mut cur = expr;
    let found = loop {
        let own = own_token(cur);
        if let Some(own) = own
            && let Some((seen, hit)) = EDGES.with(|e| e.borrow().get(&key(cur)).copied())
            && seen == own
        {
            break hit;
        }
        if let Some(own) = own {
            walked.push((key(cur), own));
        }
        match edge_step(cur, edge) {
            Step::Down(next) => cur = next,
            Step::Found(span) => break span,
        }
    };
    EDGES.with(|e| {
        let mut edges = e.borrow_mut();
        for (k, own) in walked {
            edges.insert(k, (own, found));
        }
    });
    found
}

/// The byte range of a token an expression owns directly (its operator, method name, `?`):
/// what identifies it in the cache.
fn own_token(expr: &syn::Expr) -> Option<Range> {
    use syn::Expr as E;
    let span = match expr {
        E::MethodCall(m) => m.method.span(),
        E::Try(t) => t.question_token.span,
        E::Field(f) => f.dot_token.span,
        E::Index(i) => i.bracket_token.span.open(),
        E::Call(c) => c.paren_token.span.open(),
        E::Await(a) => a.await_token.span,
        E::Binary(b) => syn::spanned::Spanned::span(&b.op),
        E::Assign(a) => a.eq_token.span,
        E::Cast(c) => c.as_token.span,
        E::Unary(u) => syn::spanned::Spanned::span(&u.op),
        E::Reference(r) => r.and_token.span,
        _ => return None,
    };
    let range = span.byte_range();
    Some((range.start, range.end))
}

enum Step<'a> {
    Down(&'a syn::Expr),
    Found(Option<proc_macro2::Span>),
}

/// One step along an edge: the sub-expression the edge goes on in, or the token found.
fn edge_step(expr: &syn::Expr, edge: Edge) -> Step<'_> {
    use syn::Expr as E;
    if edge == Edge::First
        && let Some(attr) = expr_attrs(expr).first()
    {
        return Step::Found(Some(attr.pound_token.span));
    }
    let token = match (expr, edge) {
        (E::MethodCall(m), Edge::First) => return Step::Down(&m.receiver),
        (E::Try(t), Edge::First) => return Step::Down(&t.expr),
        (E::Field(f), Edge::First) => return Step::Down(&f.base),
        (E::Index(i), Edge::First) => return Step::Down(&i.expr),
        (E::Call(c), Edge::First) => return Step::Down(&c.func),
        (E::Await(a), Edge::First) => return Step::Down(&a.base),
        (E::Binary(b), Edge::First) => return Step::Down(&b.left),
        (E::Binary(b), Edge::Last) => return Step::Down(&b.right),
        (E::Assign(a), Edge::First) => return Step::Down(&a.left),
        (E::Assign(a), Edge::Last) => return Step::Down(&a.right),
        (E::Cast(c), Edge::First) => return Step::Down(&c.expr),
        (E::Unary(u), Edge::Last) => return Step::Down(&u.expr),
        (E::Reference(r), Edge::Last) => return Step::Down(&r.expr),
        (E::MethodCall(m), Edge::Last) => m.paren_token.span.close(),
        (E::Try(t), Edge::Last) => t.question_token.span,
        (E::Field(f), Edge::Last) => match &f.member {
            syn::Member::Named(n) => n.span(),
            syn::Member::Unnamed(i) => i.span,
        },
        (E::Index(i), Edge::Last) => i.bracket_token.span.close(),
        (E::Call(c), Edge::Last) => c.paren_token.span.close(),
        (E::Await(a), Edge::Last) => a.await_token.span,
        (E::Paren(p), _) => delimiter(&p.paren_token.span, edge),
        (E::Tuple(t), _) => delimiter(&t.paren_token.span, edge),
        (E::Array(a), _) => delimiter(&a.bracket_token.span, edge),
        (E::Unary(u), Edge::First) => syn::spanned::Spanned::span(&u.op),
        (E::Reference(r), Edge::First) => r.and_token.span,
        (E::Lit(l), _) => l.lit.span(),
        (E::Path(p), _) if p.qself.is_none() => return Step::Found(path_edge(&p.path, edge)),
        (E::Macro(m), Edge::Last) => m.mac.delimiter.span().close(),
        (E::Block(b), Edge::Last) => b.block.brace_token.span.close(),
        _ => return Step::Found(None),
    };
    Step::Found(Some(token))
}

/// The first or last token of a path without generic arguments at its end.
fn path_edge(path: &syn::Path, edge: Edge) -> Option<proc_macro2::Span> {
    match edge {
        Edge::First => match &path.leading_colon {
            Some(colons) => Some(colons.spans[0]),
            None => path.segments.first().map(|s| s.ident.span()),
        },
        Edge::Last => {
            let last = path.segments.last()?;
            matches!(last.arguments, syn::PathArguments::None).then(|| last.ident.span())
        }
    }
}

fn delimiter(span: &proc_macro2::extra::DelimSpan, edge: Edge) -> proc_macro2::Span {
    match edge {
        Edge::First => span.open(),
        Edge::Last => span.close(),
    }
}

/// The outer attributes of the expressions whose first token [`edge_token`] looks for.
fn expr_attrs(expr: &syn::Expr) -> &[syn::Attribute] {
    use syn::Expr as E;
    match expr {
        E::MethodCall(e) => &e.attrs,
        E::Try(e) => &e.attrs,
        E::Field(e) => &e.attrs,
        E::Index(e) => &e.attrs,
        E::Call(e) => &e.attrs,
        E::Await(e) => &e.attrs,
        E::Binary(e) => &e.attrs,
        E::Assign(e) => &e.attrs,
        E::Cast(e) => &e.attrs,
        E::Unary(e) => &e.attrs,
        E::Reference(e) => &e.attrs,
        E::Paren(e) => &e.attrs,
        E::Tuple(e) => &e.attrs,
        E::Array(e) => &e.attrs,
        E::Lit(e) => &e.attrs,
        E::Path(e) => &e.attrs,
        _ => &[],
    }
}
