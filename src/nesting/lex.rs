//! The scanner's lexical steps: comments, string, character and raw literals, lifetimes and
//! numbers, each skipped in one pass so that no bracket inside them counts.

use super::*;

impl Scanner<'_> {
    pub(super) fn line_comment(&mut self, start: usize) {
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        self.at = end;
        // Doc comments are attributes.
        if self.text[start..end].starts_with("///") || self.text[start..end].starts_with("//!") {
            self.doc_comment(start);
            self.docs.push((start, end));
        }
    }

    pub(super) fn block_comment(&mut self, start: usize) {
        let mut depth = 0usize;
        let mut closed = false;
        while self.at < self.bytes.len() {
            if self.bytes[self.at] == b'/' && self.peek(1) == Some(b'*') {
                depth += 1;
                self.at += 2;
            } else if self.bytes[self.at] == b'*' && self.peek(1) == Some(b'/') {
                depth -= 1;
                self.at += 2;
                if depth == 0 {
                    closed = true;
                    break;
                }
            } else {
                self.at += 1;
            }
        }
        let text = &self.text[start..self.at.min(self.text.len())];
        let doc = (text.starts_with("/**") && !text.starts_with("/***") && text != "/**/")
            || text.starts_with("/*!");
        if doc {
            self.doc_comment(start);
            // An unclosed one stays for the parser to report.
            if closed {
                self.docs.push((start, self.at));
            }
        }
    }

    /// A doc comment is an attribute (two tokens); after a top-level `}` it starts an item.
    pub(super) fn doc_comment(&mut self, start: usize) {
        if std::mem::take(&mut self.pending_boundary) {
            self.finish_segment(start);
        }
        let prev = self.prev;
        self.token(start, prev, 2);
    }

    /// Skips a quoted literal whose opening `quote` is at `self.at`, escapes included.
    pub(super) fn quoted(&mut self, quote: u8) {
        self.at += 1;
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b'\\' => self.at += 2,
                b if b == quote => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        self.at = self.at.min(self.bytes.len());
        self.suffix();
    }

    /// A literal's suffix (`1u8`, `"a"suffix`).
    pub(super) fn suffix(&mut self) {
        while self.at < self.bytes.len() && is_ident_byte(self.bytes[self.at]) {
            self.at += 1;
        }
    }

    /// `r"..."`, `r#"..."#`: `self.at` is on the first `#` or the `"`.
    pub(super) fn raw_string(&mut self) {
        let hashes = self.bytes[self.at..]
            .iter()
            .take_while(|&&b| b == b'#')
            .count();
        self.at += hashes + 1;
        let closing: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        match find_bytes(&self.bytes[self.at..], &closing) {
            Some(i) => self.at += i + closing.len(),
            None => self.at = self.bytes.len(),
        }
        self.suffix();
    }

    /// A char literal (`'a'`, `'"'`, `'\''`, `'é'`) or a lifetime or label (`'a`, `'static`).
    pub(super) fn quote_or_lifetime(&mut self, start: usize) {
        let rest = &self.text[start + 1..];
        let mut chars = rest.chars();
        match chars.next() {
            Some('\\') => {
                // An escape: the literal ends at the next `'` after the escaped character.
                let after = start + 2 + rest[1..].chars().next().map_or(0, char::len_utf8);
                let close = self.text[after..].find(['\'', '\n']);
                self.at = close.map_or(self.text.len(), |i| after + i + 1);
                self.suffix();
            }
            Some(c) if chars.next() == Some('\'') => {
                self.at = start + 1 + c.len_utf8() + 1;
                self.suffix();
            }
            Some(_) => {
                self.at = start + 1;
                if self.text[self.at..].starts_with("r#") {
                    self.at += 2;
                }
                while self.at < self.bytes.len() && is_ident_byte(self.bytes[self.at]) {
                    self.at += 1;
                }
                // A lone `'` (invalid) still moves on.
                self.at = self.at.max(start + 1);
            }
            None => self.at = start + 1,
        }
        self.token(start, Prev::Operand, 1);
    }

    pub(super) fn number(&mut self) {
        while self.at < self.bytes.len() {
            let b = self.bytes[self.at];
            let fraction = b == b'.'
                && self
                    .peek(1)
                    .is_some_and(|n| n.is_ascii_digit() || !(n == b'.' || is_ident_start(n)));
            if is_ident_byte(b) || fraction {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    /// Skips a literal with a prefix (`r"..."`, `br#"..."#`, `b"..."`, `c"..."`, `b'x'`)
    /// starting at `start`; false when the word there is not one.
    pub(super) fn prefixed_literal(&mut self, start: usize) -> bool {
        let rest = &self.bytes[start..];
        let prefixed = |prefix: &[u8]| rest.starts_with(prefix);
        if prefixed(b"r#\"") || prefixed(b"r##") || prefixed(b"r\"") {
            self.at = start + 1;
            self.raw_string();
            return true;
        }
        for prefix in [b"br" as &[u8], b"cr"] {
            if rest.starts_with(prefix) && matches!(rest.get(2), Some(b'"' | b'#')) {
                self.at = start + 2;
                self.raw_string();
                return true;
            }
        }
        if (prefixed(b"b\"") || prefixed(b"c\"")) || prefixed(b"b'") {
            self.at = start + 1;
            self.quoted(rest[1]);
            return true;
        }
        false
    }
}
