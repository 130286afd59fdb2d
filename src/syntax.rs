//! Where a file that does not parse goes wrong, in words a user can act on.
//!
//! syn reports a token-level problem (an unclosed delimiter, an unterminated string) as one
//! "cannot parse string into token stream" error, pointing wherever the lexer gave up: often
//! the closing brace lines after the real mistake. For those, a small scanner finds the
//! delimiter or literal at fault; other errors keep syn's "expected .." at its token.

use crate::diagnostic::{FileId, Finding, Span};

/// What is wrong, where (byte range), and a label for that range.
struct Problem {
    start: usize,
    end: usize,
    what: String,
    label: String,
}

/// The `parse_error` finding for `text`, which syn refused with `error`.
pub fn parse_error(lint: &'static str, file: FileId, text: &str, error: &syn::Error) -> Finding {
    let range = error.span().byte_range();
    let message = error.to_string();
    // syn's message for anything the lexer refused.
    let lexing = message == "cannot parse string into token stream";
    let problem = lexing.then(|| scan(text)).flatten().unwrap_or_else(|| {
        let (start, end) = if range.start == 0 && range.end == 0 && !text.is_empty() {
            (text.len(), text.len())
        } else {
            (range.start, range.end)
        };
        let found = text.get(start..end).unwrap_or("").trim();
        let what = if message.starts_with("expected") {
            if found.is_empty() {
                format!("{message}, found the end of the file")
            } else {
                format!("{message}, found `{found}`")
            }
        } else if lexing {
            "a token here is not valid Rust".to_string()
        } else {
            message.clone()
        };
        Problem {
            start,
            end,
            label: what.clone(),
            what,
        }
    });
    Finding::new(
        lint,
        Span {
            file,
            start: problem.start,
            end: problem.end,
        },
        format!(
            "this file could not be parsed, so it was not linted: {}",
            problem.what
        ),
    )
    .label(problem.label)
}

fn closer_of(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The first token-level problem in `text`: an unterminated literal or comment, a closing
/// delimiter that closes nothing, or an opening one that is never closed.
fn scan(text: &str) -> Option<Problem> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => match block_comment_end(bytes, i) {
                Some(end) => i = end,
                None => return Some(unterminated(i, 2, "block comment")),
            },
            b'"' => match string_end(bytes, i + 1) {
                Some(end) => i = end,
                None => return Some(unterminated(i, 1, "string")),
            },
            b'r' | b'b' | b'c' if starts_token(bytes, i) => match prefixed_literal_end(bytes, i) {
                Some(Some(end)) => i = end,
                Some(None) => return Some(unterminated(i, 1, "string")),
                None => i += 1,
            },
            b'\'' => i = char_or_lifetime_end(bytes, i),
            b'(' | b'[' | b'{' => {
                open.push(i);
                i += 1;
            }
            b')' | b']' | b'}' => {
                match open.last() {
                    Some(&o) if closer_of(bytes[o]) == c => {
                        open.pop();
                    }
                    // A closer that matches a delimiter further out: the inner ones are open.
                    Some(&o) if open.iter().any(|&d| closer_of(bytes[d]) == c) => {
                        return Some(unclosed(text, o));
                    }
                    inner => {
                        let ch = char::from(c);
                        let what = match inner {
                            Some(&o) => format!(
                                "`{ch}` does not match the `{}` still open before it",
                                char::from(bytes[o])
                            ),
                            None => format!("`{ch}` closes nothing that is open"),
                        };
                        return Some(Problem {
                            start: i,
                            end: i + 1,
                            what,
                            label: format!("unexpected `{ch}`"),
                        });
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    open.last().map(|&o| unclosed(text, o))
}

/// Records an unterminated literal (the scanner then stops).
fn unterminated(start: usize, len: usize, what: &str) -> Problem {
    Problem {
        start,
        end: start + len,
        what: format!("this {what} is never closed"),
        label: format!("unterminated {what}"),
    }
}

/// The open delimiter at `at` is never closed; a macro call's span starts at its name.
fn unclosed(text: &str, at: usize) -> Problem {
    let delimiter = char::from(text.as_bytes()[at]);
    let before = text[..at].trim_end();
    let (start, what) = match before.strip_suffix('!') {
        Some(path) => {
            let name_start = path
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(0, |p| p + 1);
            let name = &path[name_start..];
            if name.is_empty() {
                (at, format!("this `{delimiter}` is never closed"))
            } else {
                (
                    name_start,
                    format!("the `{delimiter}` of `{name}!` is never closed"),
                )
            }
        }
        None => (at, format!("this `{delimiter}` is never closed")),
    };
    Problem {
        start,
        end: at + 1,
        what,
        label: format!("this `{delimiter}` is never closed"),
    }
}

/// Whether byte `i` starts a token (not the middle of an identifier).
fn starts_token(bytes: &[u8], i: usize) -> bool {
    i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
}

/// After a `/*` at `i`: the index past its `*/`, nesting as Rust does.
fn block_comment_end(bytes: &[u8], i: usize) -> Option<usize> {
    let (mut depth, mut j) = (0usize, i);
    while j + 1 < bytes.len() {
        match (bytes[j], bytes[j + 1]) {
            (b'/', b'*') => {
                depth += 1;
                j += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => j += 1,
        }
    }
    None
}

/// From just inside a `"`: the index past the closing quote.
fn string_end(bytes: &[u8], mut j: usize) -> Option<usize> {
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// `b"..`, `c"..`, `r"..`, `r#".."#`, `br#".."#`, `b'x'` at `i`: `Some(end)` when a literal
/// starts here (`end` is `None` when it never closes), `None` for an identifier.
fn prefixed_literal_end(bytes: &[u8], i: usize) -> Option<Option<usize>> {
    let mut j = i;
    if matches!(bytes[j], b'b' | b'c') {
        j += 1;
        match bytes.get(j) {
            Some(b'"') => return Some(string_end(bytes, j + 1)),
            Some(b'\'') if bytes[i] == b'b' => return Some(Some(char_or_lifetime_end(bytes, j))),
            Some(b'r') => {}
            _ => return None,
        }
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = bytes[j..].iter().take_while(|&&b| b == b'#').count();
    if bytes.get(j + hashes) != Some(&b'"') {
        return None;
    }
    let body = j + hashes + 1;
    let closing: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    Some(
        bytes[body..]
            .windows(closing.len())
            .position(|w| w == closing.as_slice())
            .map(|p| body + p + closing.len()),
    )
}

/// At a `'`: past a char literal (`'a'`, `'\n'`, `'\u{1F600}'`), or past the quote of a
/// lifetime or label.
fn char_or_lifetime_end(bytes: &[u8], i: usize) -> usize {
    if bytes.get(i + 1) == Some(&b'\\') {
        let close = bytes[i + 2..].iter().take(12).position(|&b| b == b'\'');
        return close.map_or(i + 1, |p| i + 2 + p + 1);
    }
    // One character (of up to four bytes) and a closing quote.
    let width = bytes.get(i + 1).map_or(1, |&b| match b.leading_ones() {
        2 => 2,
        3 => 3,
        4 => 4,
        _ => 1,
    });
    if bytes.get(i + 1 + width) == Some(&b'\'') {
        i + 2 + width
    } else {
        i + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (String, String) {
        let p = scan(text).expect("a problem");
        (text[p.start..p.end].to_string(), p.what)
    }

    #[test]
    fn an_unclosed_macro_call_is_reported_at_the_macro() {
        let (at, what) = problem("fn main() {\n    println!(\"hi\"\n}\n\nfn other() {}\n");
        assert_eq!(at, "println!(");
        assert_eq!(what, "the `(` of `println!` is never closed");
    }

    #[test]
    fn stray_closers_unclosed_blocks_and_literals() {
        assert_eq!(problem("fn f() {\n    x)\n}\n").0, ")");
        assert_eq!(problem("fn f() {\n    if x {\n}\n").0, "{");
        assert_eq!(
            problem("fn f() { let s = \"open; }").1,
            "this string is never closed"
        );
        assert_eq!(
            problem("/* /* */ fn f() {}").1,
            "this block comment is never closed"
        );
    }

    #[test]
    fn literals_and_lifetimes_hide_their_delimiters() {
        let fine = "fn f<'a>(x: &'a str) -> char { let _ = r#\"(\"#; let _ = b'('; let _ = \"}\"; '{' } // (\n/* [ /* ] */ */";
        assert!(scan(fine).is_none(), "{:?}", scan(fine).map(|p| p.what));
        assert!(scan("fn f() { let c = '\\u{7b}'; let d = 'é'; }").is_none());
    }
}
