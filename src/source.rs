//! Source text, the byte ↔ line/column index, and parsing.

use std::path::PathBuf;

use crate::diagnostic::{FileId, Span};

/// One file of the run.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as given to the file system.
    pub path: PathBuf,
    /// Path shown to users and written in JSON: relative to the workspace root, `/`-separated.
    pub display: String,
    pub text: String,
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
            line_starts,
        }
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

/// Deepest delimiter nesting the analysis accepts; deeper files are reported, not parsed, so
/// that a hostile file cannot overflow the stack (syn and our walk are recursive).
pub const MAX_NESTING: usize = 256;

/// The deepest nesting of `(`, `[` and `{` outside comments, strings and chars.
pub fn nesting_depth(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

/// Parses `text` as a Rust file. A leading byte-order mark or shebang line is blanked out
/// rather than removed, so that every span keeps pointing at the right byte.
pub fn parse(text: &str) -> Result<syn::File, syn::Error> {
    syn::parse_file(&prepare(text))
}

/// The text as it is parsed: a leading byte-order mark or shebang line blanked out.
pub fn prepare(text: &str) -> std::borrow::Cow<'_, str> {
    let mut src = std::borrow::Cow::Borrowed(text);
    if let Some(rest) = src.strip_prefix('\u{feff}') {
        src = std::borrow::Cow::Owned(format!("   {rest}"));
    }
    if src.starts_with("#!") && !src.starts_with("#![") {
        let end = src.find('\n').unwrap_or(src.len());
        src = std::borrow::Cow::Owned(format!("{}{}", " ".repeat(end), &src[end..]));
    }
    src
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
