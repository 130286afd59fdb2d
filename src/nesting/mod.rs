//! How deeply parsing a file can recurse, known before syn runs.
//!
//! syn's parser, its token buffer and the drop of its syntax trees recurse once per level of
//! nesting, and a stack overflow aborts the process. This scanner lexes the file as rustc does
//! (nested block comments, raw strings, byte and C strings, char literals such as `'"'`,
//! lifetimes) and gives every top-level item a sound upper bound on that recursion: every
//! level of syntax consumes at least one token, so the depth at a token is at most the
//! number of tokens since the last point where the parser is known to be back at the level
//! of the enclosing delimiter. Those points are `;`, a `,` outside generic arguments and
//! closure parameters, and the start of a statement or item after a `}`. The caller sizes
//! the parsing thread's stack from the bound and leaves out the items whose bound exceeds
//! the budget.

mod lex;
mod test_only;

use test_only::TestOnly;

/// A top-level item (with its attributes and doc comments): byte range, depth bound, and
/// whether it is certainly one test-only item (see [`test_only`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub start: usize,
    pub end: usize,
    pub bound: usize,
    pub test_only: bool,
}

/// The top-level items of `text`, in order, covering every token.
pub fn segments(text: &str) -> Vec<Segment> {
    scan(text).segments
}

/// What one pass over a file finds: its top-level items and its doc comments.
pub struct Scan {
    pub segments: Vec<Segment>,
    /// Byte ranges of the doc comments (`///`, `//!`, and closed `/** */`, `/*! */`).
    pub docs: Vec<(usize, usize)>,
}

pub fn scan(text: &str) -> Scan {
    let mut scanner = Scanner::new(text);
    scanner.run();
    scanner.finish_segment(text.len());
    Scan {
        segments: scanner.segments,
        docs: scanner.docs,
    }
}

/// What an entry of a delimiter's open-construct stack is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// A `<` that may open generic arguments.
    Angle,
    /// The `|` opening closure parameters.
    Closure,
}

/// One delimiter level (the file itself is the outermost).
struct Frame {
    /// The bound at the opening delimiter.
    base: usize,
    /// Tokens since the last point known to be at this delimiter's own level.
    run: usize,
    /// Unclosed `<` and closure `|`, each with the run when it opened: a `,` inside them is
    /// still that deep.
    open: Vec<(Open, usize)>,
}

impl Frame {
    fn new(base: usize) -> Frame {
        Frame {
            base,
            run: 0,
            open: Vec::new(),
        }
    }

    fn reset(&mut self) {
        self.run = 0;
        self.open.clear();
    }
}

/// What the previous token was, for `|` (closure or operator) and resets after `}`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of a delimiter, an operator or a keyword: an expression may start here.
    ExprStart,
    /// An identifier, literal or lifetime: an operand ended here.
    Operand,
    /// A closing `)` or `]`.
    CloseGroup,
    /// A closing `}`.
    CloseBrace,
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    frames: Vec<Frame>,
    prev: Prev,
    segments: Vec<Segment>,
    segment_start: usize,
    segment_bound: usize,
    /// A top-level `}` closed: the next token decides whether an item ended there.
    pending_boundary: bool,
    test_only: TestOnly,
    docs: Vec<(usize, usize)>,
}

/// Keywords that start a statement or an item: after a `}` they cannot continue an
/// expression, so the parser is back at the level of the enclosing delimiter.
const STATEMENT_STARTS: &[&str] = &[
    "if",
    "match",
    "for",
    "while",
    "loop",
    "let",
    "fn",
    "pub",
    "struct",
    "enum",
    "union",
    "impl",
    "use",
    "mod",
    "trait",
    "type",
    "static",
    "const",
    "unsafe",
    "extern",
    "return",
    "break",
    "continue",
    "macro_rules",
    "async",
];

/// Keywords after which an expression starts (so a `|` opens a closure).
fn starts_expression(word: &str) -> bool {
    matches!(
        word,
        "return"
            | "break"
            | "in"
            | "if"
            | "match"
            | "while"
            | "move"
            | "else"
            | "let"
            | "yield"
            | "static"
    )
}

/// Tokens that cannot appear inside generic arguments at the same delimiter level: an open
/// `<` before them was a comparison.
fn not_in_generics(word: &str) -> bool {
    matches!(
        word,
        "if" | "else"
            | "match"
            | "let"
            | "return"
            | "while"
            | "loop"
            | "break"
            | "continue"
            | "in"
            | "move"
    )
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
            at: 0,
            frames: vec![Frame::new(0)],
            prev: Prev::ExprStart,
            segments: Vec::new(),
            segment_start: 0,
            segment_bound: 0,
            pending_boundary: false,
            test_only: TestOnly::default(),
            docs: Vec::new(),
        }
    }

    fn peek(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.at + offset).copied()
    }

    fn frame(&mut self) -> &mut Frame {
        // The outermost frame is never popped (see `close`).
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn run(&mut self) {
        while self.at < self.bytes.len() {
            let b = self.bytes[self.at];
            let start = self.at;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => {
                    self.at += 1;
                    while self.at < self.bytes.len()
                        && matches!(self.bytes[self.at], b' ' | b'\t' | b'\n' | b'\r')
                    {
                        self.at += 1;
                    }
                }
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(start),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(start),
                b'"' => {
                    self.quoted(b'"');
                    self.token(start, Prev::Operand, 1);
                }
                b'\'' => self.quote_or_lifetime(start),
                b'(' | b'[' | b'{' => self.open_group(start),
                b')' | b']' | b'}' => self.close_group(b),
                b'0'..=b'9' => {
                    self.number();
                    self.token(start, Prev::Operand, 1);
                }
                _ if b == b'_' || b.is_ascii_alphabetic() || b >= 0x80 => self.word(start),
                _ => self.punct(start),
            }
        }
    }

    /// Counts `weight` tokens at the current level and records the bound there.
    fn token(&mut self, start: usize, prev: Prev, weight: usize) {
        if self.pending_boundary {
            self.pending_boundary = false;
            // After a top-level `}`, only `as`, `else` or punctuation can go on with an
            // initializer (`const X: u8 = { 1 } + 1;`); a word or `#` starts the next item.
            let b = self.bytes[start];
            let word = ident_at(self.text, start);
            if b == b'#' || (is_ident_start(b) && word != "as" && word != "else") {
                self.finish_segment(start);
            }
        }
        if self.prev == Prev::CloseBrace && self.starts_statement(start) {
            self.frame().reset();
        }
        let frame = self.frame();
        frame.run += weight;
        let bound = frame.base + frame.run;
        self.segment_bound = self.segment_bound.max(bound);
        self.prev = prev;
        let end = self.at.max(start + 1);
        self.test_only
            .token(self.text, start, end, self.frames.len());
    }

    fn starts_statement(&self, start: usize) -> bool {
        if self.bytes[start] == b'#' {
            return true;
        }
        let word = ident_at(self.text, start);
        STATEMENT_STARTS.contains(&word)
    }

    fn finish_segment(&mut self, end: usize) {
        let test_only = self.test_only.finish();
        if end > self.segment_start {
            self.segments.push(Segment {
                start: self.segment_start,
                end,
                bound: self.segment_bound,
                test_only,
            });
        }
        self.segment_start = end;
        self.segment_bound = 0;
        if self.frames.len() == 1 {
            self.frame().reset();
        }
    }

    /// An identifier, keyword, raw identifier, or a prefixed literal (`b"`, `br#"`, `c"`,
    /// `b'x'`).
    fn word(&mut self, start: usize) {
        let rest = &self.bytes[start..];
        // Only `r`, `b` and `c` can prefix a literal.
        if matches!(rest[0], b'r' | b'b' | b'c') && self.prefixed_literal(start) {
            return self.token(start, Prev::Operand, 1);
        }
        self.at = start;
        if rest.starts_with(b"r#") {
            self.at += 2;
        }
        while self.at < self.bytes.len() && is_ident_byte(self.bytes[self.at]) {
            self.at += 1;
        }
        let word = &self.text[start..self.at];
        if not_in_generics(word) {
            self.close_angles();
        }
        let prev = if starts_expression(word) {
            Prev::ExprStart
        } else {
            Prev::Operand
        };
        self.token(start, prev, 1);
    }

    /// Drops the unclosed `<` above the innermost closure: they were comparisons.
    fn close_angles(&mut self) {
        let open = &mut self.frame().open;
        while open.last().is_some_and(|(kind, _)| *kind == Open::Angle) {
            open.pop();
        }
    }

    fn open_group(&mut self, start: usize) {
        self.token(start, Prev::ExprStart, 1);
        let frame = self.frame();
        let base = frame.base + frame.run;
        self.frames.push(Frame::new(base));
        self.at += 1;
    }

    fn close_group(&mut self, b: u8) {
        self.at += 1;
        if self.frames.len() > 1 {
            self.frames.pop();
        }
        self.test_only
            .close(self.text, b, self.at - 1, self.frames.len());
        self.prev = if b == b'}' {
            Prev::CloseBrace
        } else {
            Prev::CloseGroup
        };
        if b == b'}' && self.frames.len() == 1 {
            self.pending_boundary = true;
        }
    }

    fn punct(&mut self, start: usize) {
        let rest = &self.bytes[start..];
        // Multi-character operators whose `>` closes nothing, and `||`/`&&`, which open no
        // closure parameters.
        let pair = (rest[0], rest.get(1).copied().unwrap_or(0));
        if matches!(
            pair,
            (b'-' | b'=', b'>') | (b'|', b'|') | (b'&', b'&') | (b'=' | b'!' | b'<' | b'>', b'=')
        ) {
            self.at = start + 2;
            match pair {
                (b'=', b'>') | (b'=', b'=') | (b'!', b'=') | (b'<', b'=') => self.close_angles(),
                (b'>', b'=') => self.close_angle(),
                _ => {}
            }
            return self.token(start, Prev::ExprStart, 2);
        }
        self.at = start + 1;
        let b = rest[0];
        match b {
            b';' => {
                self.token(start, Prev::ExprStart, 1);
                self.frame().reset();
                if self.frames.len() == 1 {
                    self.test_only.end();
                    self.finish_segment(self.at);
                }
                return;
            }
            b',' => {
                self.token(start, Prev::ExprStart, 1);
                let frame = self.frame();
                frame.run = frame.open.last().map_or(0, |&(_, run)| run + 1);
                return;
            }
            b'<' => {
                let run = self.frame().run;
                self.frame().open.push((Open::Angle, run));
            }
            b'>' => self.close_angle(),
            b'|' => {
                let top = self.frame().open.last().map(|&(kind, _)| kind);
                if top == Some(Open::Closure) {
                    self.frame().open.pop();
                } else if self.prev == Prev::ExprStart {
                    let run = self.frame().run;
                    self.frame().open.push((Open::Closure, run));
                }
            }
            b'.' | b'%' | b'/' | b'^' => self.close_angles(),
            _ => {}
        }
        self.token(start, Prev::ExprStart, 1);
    }

    fn close_angle(&mut self) {
        let open = &mut self.frame().open;
        if open.last().is_some_and(|(kind, _)| *kind == Open::Angle) {
            open.pop();
        }
    }
}

fn is_ident_start(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphabetic() || b >= 0x80
}

/// Bytes that may continue an identifier, by value: one load per byte of every word.
const IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80;
        b += 1;
    }
    table
};

fn is_ident_byte(b: u8) -> bool {
    IDENT_BYTES[b as usize]
}

/// The identifier starting at byte `start` (empty when there is none).
fn ident_at(text: &str, start: usize) -> &str {
    let bytes = text.as_bytes();
    let end = (start..bytes.len())
        .find(|&i| !is_ident_byte(bytes[i]))
        .unwrap_or(bytes.len());
    text.get(start..end).unwrap_or("")
}

fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests;
