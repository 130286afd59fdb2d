//! What every renderer does to text that comes from the linted tree (source snippets,
//! messages quoting it, file names) so that it cannot forge output: control characters are
//! shown as rustc shows them (`␛` for ESC), and no line can start a GitHub or Azure workflow
//! command (`::error ..`, `##[group]`, `##vso[..]`).

use std::borrow::Cow;

/// The visible stand-in for a character that must not reach a terminal or a log raw; `None`
/// for characters shown as they are. Tabs and line breaks are kept: they are layout.
fn replacement(c: char) -> Option<String> {
    match c {
        '\t' | '\n' => None,
        // C0 controls as Unicode's control pictures (U+2400..), as rustc prints them.
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).map(String::from),
        '\u{7f}' => Some("␡".into()),
        // C1 controls, line and paragraph separators, and bidirectional overrides (which
        // reorder what a reader sees): as escapes.
        '\u{80}'..='\u{9f}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' => Some(format!("\\u{{{:x}}}", c as u32)),
        _ => None,
    }
}

/// Whether `text` may hold a character [`replacement`] changes: a byte scan, so that the
/// common case (plain text) costs one pass over bytes.
pub fn may_need_escapes(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| match b {
        b'\n' | b'\t' => false,
        0..0x20 | 0x7f => true,
        // C1 controls: U+0080..U+009F.
        0xc2 => bytes.get(i + 1).is_some_and(|n| (0x80..0xa0).contains(n)),
        // U+200E/F, U+2028/9, U+202A..E (E2 80 ..) and U+2066..9 (E2 81 A6..A9).
        0xe2 => match (bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(0x80), Some(n)) => matches!(n, 0x8e | 0x8f | 0xa8..=0xae),
            (Some(0x81), Some(n)) => (0xa6..=0xa9).contains(n),
            _ => false,
        },
        _ => false,
    })
}

/// `text` with control characters replaced by visible stand-ins (line breaks kept).
pub fn control(text: &str) -> Cow<'_, str> {
    if !may_need_escapes(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match replacement(c) {
            Some(r) => out.push_str(&r),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// As [`control`], with line breaks shown too: for text that must stay on one line (a file
/// name in a line-based format).
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return control(text);
    }
    Cow::Owned(control(&text.replace('\n', "␊")).into_owned())
}

/// Free text for a line-based output (an error message that may quote the tree): control
/// characters shown and workflow commands defused, line breaks kept.
pub fn text(text: &str) -> String {
    workflow_commands(&control(text)).into_owned()
}

/// `output` with every line that a CI runner would read as a workflow command defused: the
/// first character of `::` or `##[` at the start of a line (after blanks), and of `##vso[`
/// anywhere, becomes its full-width form (`：`, `＃`).
pub fn workflow_commands(output: &str) -> Cow<'_, str> {
    let risky = output.contains("##vso[") || output.lines().any(|l| starts_command(l.trim_start()));
    if !risky {
        return Cow::Borrowed(output);
    }
    let mut out = String::with_capacity(output.len() + 16);
    for line in output.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let blanks = &line[..line.len() - trimmed.len()];
        out.push_str(blanks);
        let rest = if starts_command(trimmed) {
            let (first, rest) = trimmed.split_at(1);
            out.push(if first == ":" { '：' } else { '＃' });
            rest
        } else {
            trimmed
        };
        out.push_str(&rest.replace("##vso[", "＃#vso["));
    }
    Cow::Owned(out)
}

fn starts_command(line: &str) -> bool {
    line.starts_with("::") || line.starts_with("##[")
}

/// Serialized JSON with the characters JSON allows raw but terminals and readers must not
/// get raw (DEL, C1 controls, separators, bidi overrides) written as `\u` escapes. They can
/// only occur inside strings, where the escape means the same character.
pub fn json(text: String) -> String {
    if !may_need_escapes(&text) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && c != '\t' && replacement(c).is_some() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A relative path as a URI reference: every byte outside the unreserved set and `/`
/// percent-encoded (spaces, `#`, `?`, `%`, newlines, non-ASCII).
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_pictures() {
        assert_eq!(control("a\u{1b}[31mb\u{7}\r"), "a␛[31mb␇␍");
        assert_eq!(control("tab\tnew\nline"), "tab\tnew\nline");
        assert_eq!(control("\u{202e}x"), "\\u{202e}x");
        assert_eq!(one_line("a\nb.rs"), "a␊b.rs");
    }

    #[test]
    fn workflow_commands_are_defused() {
        let out = workflow_commands(
            "ok\n  ::error file=x::boom\n##[group]x\nsee ##vso[task.setvariable]\n",
        );
        assert_eq!(
            out,
            "ok\n  ：:error file=x::boom\n＃#[group]x\nsee ＃#vso[task.setvariable]\n"
        );
        assert!(matches!(workflow_commands("a :: b\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_byte_scan_finds_exactly_what_is_replaced() {
        for c in [
            '\u{0}', '\u{1b}', '\r', '\u{7f}', '\u{85}', '\u{9f}', '\u{200e}', '\u{2028}',
            '\u{202e}', '\u{2069}',
        ] {
            assert!(may_need_escapes(&format!("a{c}b")), "{c:?}");
            assert!(replacement(c).is_some(), "{c:?}");
        }
        for c in [
            '\n', '\t', 'é', '─', '╭', '\u{a0}', '\u{2027}', '\u{202f}', '\u{2070}',
        ] {
            assert!(!may_need_escapes(&format!("a{c}b")), "{c:?}");
            assert!(replacement(c).is_none(), "{c:?}");
        }
    }

    #[test]
    fn json_and_uris() {
        assert_eq!(json("\"a\u{7f}\u{2028}\"".into()), "\"a\\u007f\\u2028\"");
        assert_eq!(uri("src/a b#?%é.rs"), "src/a%20b%23%3F%25%C3%A9.rs");
    }
}
