//! Byte offsets of spans, cheaply. `proc_macro2::Span::byte_range` counts characters from a
//! cache on every call, which costs more than the lowering around it; the span's line and
//! column (a binary search) and a line index of the file being lowered give the same offset.

use std::cell::RefCell;

use super::ir::Sp;

/// Where each line of the file being lowered starts, and whether it is ASCII (column = byte);
/// the text of the others, whose columns are counted in characters.
struct LineIndex {
    starts: Vec<u32>,
    ascii: Vec<bool>,
    wide: foldhash::HashMap<usize, Box<str>>,
}

thread_local! {
    static INDEX: RefCell<Option<LineIndex>> = const { RefCell::new(None) };
}

/// Sets the file whose spans this thread converts, for the duration of `f`. `text` must be
/// the text that was parsed.
pub fn with_file<T>(text: &str, f: impl FnOnce() -> T) -> T {
    let mut starts = Vec::with_capacity(text.len() / 32);
    let mut ascii = Vec::with_capacity(text.len() / 32);
    let mut wide = foldhash::HashMap::default();
    let mut at = 0u32;
    // `split_inclusive` finds line breaks with memchr and `is_ascii` checks a word at a time.
    for (n, line) in text.split_inclusive('\n').enumerate() {
        starts.push(at);
        let is_ascii = line.is_ascii();
        ascii.push(is_ascii);
        if !is_ascii {
            wide.insert(n, Box::from(line));
        }
        at += line.len() as u32;
    }
    if text.is_empty() || text.ends_with('\n') {
        starts.push(at);
        ascii.push(true);
    }
    let index = LineIndex {
        starts,
        ascii,
        wide,
    };
    let previous = INDEX.with(|i| i.borrow_mut().replace(index));
    let out = super::intern::scope(f);
    INDEX.with(|i| *i.borrow_mut() = previous);
    out
}

impl LineIndex {
    fn offset(&self, lc: proc_macro2::LineColumn) -> Option<u32> {
        let line = lc.line.checked_sub(1)?;
        let start = *self.starts.get(line)?;
        if self.ascii.get(line).copied().unwrap_or(false) {
            return Some(start + lc.column as u32);
        }
        let rest = self.wide.get(&line)?;
        let within = rest
            .char_indices()
            .nth(lc.column)
            .map_or(rest.len(), |(i, _)| i);
        Some(start + within as u32)
    }
}

/// The byte offset of a line and column of the file being lowered.
fn offset_of(lc: proc_macro2::LineColumn) -> Option<u32> {
    INDEX.with(|i| i.borrow().as_ref()?.offset(lc))
}

/// The byte range of a span of the file being lowered.
pub fn sp(span: proc_macro2::Span) -> Sp {
    match (offset_of(span.start()), offset_of(span.end())) {
        (Some(start), Some(end)) => Sp { start, end },
        _ => {
            let r = span.byte_range();
            Sp {
                start: r.start as u32,
                end: r.end as u32,
            }
        }
    }
}

/// Where a span starts, as an empty range: all the left side of [`Sp::to`] needs, at half
/// the cost of [`sp`] (each line and column is a search in proc-macro2's source map).
pub fn sp_start(span: proc_macro2::Span) -> Sp {
    let at = offset_of(span.start()).unwrap_or_else(|| span.byte_range().start as u32);
    Sp { start: at, end: at }
}

/// Where a span ends, as an empty range: all the right side of [`Sp::to`] needs.
pub fn sp_end(span: proc_macro2::Span) -> Sp {
    let at = offset_of(span.end()).unwrap_or_else(|| span.byte_range().end as u32);
    Sp { start: at, end: at }
}

/// Where a delimited group ends, its closing delimiter included.
pub fn delim_end(span: &proc_macro2::extra::DelimSpan) -> Sp {
    sp_end(span.close())
}

/// The byte range of a delimited group, both delimiters included.
pub fn delim_sp(span: &proc_macro2::extra::DelimSpan) -> Sp {
    sp(span.join())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_only_on_lines_that_need_it() {
        let text = "const A: u8 = 1;\nconst S: &str = \"é→\"; const T: u8 = 2;\nconst B: u8 = 3;\n";
        let file = syn::parse_file(text).expect("valid Rust");
        let spans: Vec<Sp> = with_file(text, || {
            file.items
                .iter()
                .filter_map(|item| match item {
                    syn::Item::Const(c) => Some(sp(c.ident.span())),
                    _ => None,
                })
                .collect()
        });
        let found: Vec<&str> = spans
            .iter()
            .map(|s| &text[s.start as usize..s.end as usize])
            .collect();
        assert_eq!(found, ["A", "S", "T", "B"]);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
