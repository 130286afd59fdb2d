//! Whether a top-level item is test-only, told from the scanner's tokens: the analysis leaves
//! such items out, so the caller can leave them out of the parse too. Only shapes that are
//! certain count: a leading attribute `#[cfg(test)]`, or one whose path ends in `test`
//! (`#[test]`, `#[tokio::test]`), on a segment that is exactly one item, its attributes and
//! then tokens up to a single top-level `;` or braced group that ends the segment.

/// Tokens of one attribute kept for the verdict: `tokio::test` is four, `cfg(test)` five.
const KEPT: usize = 6;

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum State {
    /// Before the item: attributes and doc comments may come.
    #[default]
    Attributes,
    /// A top-level `#` was seen.
    Hash,
    /// Inside an outer attribute's brackets.
    Attribute,
    /// The item itself.
    Item,
}

/// The per-segment tracker, fed with every token and every closing delimiter.
#[derive(Default)]
pub(super) struct TestOnly {
    state: State,
    /// Byte ranges of the current attribute's first tokens.
    kept: [(u32, u32); KEPT],
    count: usize,
    test: bool,
    /// Top-level `;` and `}` seen: an item ends with exactly one.
    ends: u32,
    /// A token came after an end: the segment holds more than one item.
    trailing: bool,
}

impl TestOnly {
    /// A token at `start..end` at delimiter `depth` (1 is the top level), before a group it
    /// opens is entered.
    #[inline]
    pub fn token(&mut self, text: &str, start: usize, end: usize, depth: usize) {
        if self.ends > 0 {
            self.trailing = true;
        }
        // Most tokens are inside an item's body, where only the ends count.
        if self.state == State::Item {
            return;
        }
        let token = text.get(start..end).unwrap_or("");
        self.state = match self.state {
            State::Attributes if depth == 1 && token == "#" => State::Hash,
            // A doc comment is an attribute too.
            State::Attributes if token.starts_with('/') => State::Attributes,
            State::Hash if depth == 1 && token == "[" => {
                self.count = 0;
                State::Attribute
            }
            State::Attribute => {
                self.keep(start, end);
                State::Attribute
            }
            State::Attributes | State::Hash | State::Item => State::Item,
        };
    }

    /// A closing delimiter `b` at byte `at`, `depth` being the level it returns to.
    #[inline]
    pub fn close(&mut self, text: &str, b: u8, at: usize, depth: usize) {
        if self.state == State::Attribute {
            if depth == 1 && b == b']' {
                self.test |= self.is_test_attribute(text);
                self.state = State::Attributes;
            } else {
                self.keep(at, at + 1);
            }
            return;
        }
        if depth == 1 && b == b'}' {
            self.end();
        }
    }

    /// A top-level `;`.
    pub fn end(&mut self) {
        if self.ends > 0 {
            self.trailing = true;
        }
        self.ends += 1;
        self.state = State::Item;
    }

    /// The verdict on the segment that ends here; the tracker starts over.
    pub fn finish(&mut self) -> bool {
        let verdict = self.test && self.ends == 1 && !self.trailing;
        *self = TestOnly::default();
        verdict
    }

    fn keep(&mut self, start: usize, end: usize) {
        if let Some(slot) = self.kept.get_mut(self.count) {
            *slot = (start as u32, end as u32);
        }
        self.count += 1;
    }

    fn is_test_attribute(&self, text: &str) -> bool {
        let kept = &self.kept[..self.count.min(KEPT)];
        let token = |i: usize| {
            kept.get(i)
                .and_then(|&(s, e)| text.get(s as usize..e as usize))
        };
        if self.count == 4 && (0..4).map(token).eq(["cfg", "(", "test", ")"].map(Some)) {
            return true;
        }
        // A path `a::b::test`, alone or with arguments.
        let mut i = 0;
        loop {
            match token(i) {
                Some(word) if word.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()) => {}
                _ => return false,
            }
            match (token(i + 1), token(i + 2)) {
                (Some(":"), Some(":")) => i += 3,
                (next, _) => return token(i) == Some("test") && matches!(next, None | Some("(")),
            }
            if i >= KEPT {
                return false;
            }
        }
    }
}
