//! Suppression comments, applied in one place after every lint ran.
//!
//! ```text
//! // mcp-lint: allow(panic_in_tool, reason = "the index is checked above")   <- this line,
//!                                                                               or the line /
//!                                                                               item below
//! // mcp-lint: expect(error_escapes_tool, reason = "..")   <- as allow, and reported when
//!                                                            nothing was suppressed
//! //! mcp-lint: allow(stdout_in_stdio_server, reason = "..")   <- the whole file
//! # mcp-lint: allow(panic_abort_in_server, reason = "..")      <- in Cargo.toml
//! ```
//!
//! A directive on a line with code covers that line. On a line of its own it covers the next
//! line with code, or the whole item that starts there. Every directive needs a reason; one
//! that suppressed nothing is reported as `mcp_lint::unused_suppression`.

use std::collections::{BTreeMap, HashMap};

use crate::diagnostic::{FileId, Finding, Level, Span};
use crate::lints;
use crate::source::SourceFile;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Allow,
    Expect,
}

#[derive(Clone, Debug)]
pub struct Directive {
    pub kind: Kind,
    pub lints: Vec<String>,
    pub reason: Option<String>,
    /// The comment itself.
    pub span: Span,
    /// 1-based lines covered (inclusive); `None` for the whole file.
    pub lines: Option<(usize, usize)>,
}

/// Reads the directives of a file. `items` are byte ranges of the file's items.
pub fn directives(file: &SourceFile, id: FileId, items: &[(usize, usize)]) -> Vec<Directive> {
    let hash_comments = file.path.extension().is_some_and(|e| e == "toml");
    let mut found = Vec::new();
    let mut offset = 0;
    let lines: Vec<&str> = file.text.split_inclusive('\n').collect();
    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start_of_line = offset;
        offset += raw.len();
        let marker = if hash_comments { "#" } else { "//" };
        let Some(comment_at) = comment_start(line, marker) else {
            continue;
        };
        let comment = &line[comment_at + marker.len()..];
        let (file_level, comment) = match comment.strip_prefix('!') {
            Some(rest) if !hash_comments => (true, rest),
            _ => (false, comment),
        };
        let Some(body) = comment.trim_start().strip_prefix("mcp-lint:") else {
            continue;
        };
        let Some((kind, lints, reason)) = parse_body(body.trim()) else {
            continue;
        };
        let code_before = !line[..comment_at].trim().is_empty();
        let line_no = index + 1;
        let covered = if file_level {
            None
        } else if code_before {
            Some((line_no, line_no))
        } else {
            next_code_line(&lines, index + 1).map(|next| {
                let item_end = items
                    .iter()
                    .filter(|(s, _)| line_of(file, *s) == next)
                    .map(|(_, e)| line_of(file, *e))
                    .max();
                (next, item_end.unwrap_or(next).max(next))
            })
        };
        if !file_level && covered.is_none() {
            continue;
        }
        found.push(Directive {
            kind,
            lints,
            reason,
            span: Span {
                file: id,
                start: start_of_line + comment_at,
                end: start_of_line + line.len(),
            },
            lines: covered,
        });
    }
    found
}

fn line_of(file: &SourceFile, byte: usize) -> usize {
    file.line_col(byte).0
}

/// The byte where a `//` (or `#`) comment starts, outside string literals.
fn comment_start(line: &str, marker: &str) -> Option<usize> {
    let mut in_string = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            _ if !in_string && line[i..].starts_with(marker) => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The 1-based number of the first line at or after `from` (0-based) that is code: not
/// blank, not a comment. Attributes count as code: they start the item.
fn next_code_line(lines: &[&str], from: usize) -> Option<usize> {
    (from..lines.len())
        .find(|&i| {
            let t = lines[i].trim();
            !t.is_empty() && !t.starts_with("//") && !t.starts_with('#') || t.starts_with("#[")
        })
        .map(|i| i + 1)
}

/// `allow(a, b, reason = "..")` → (kind, lints, reason).
fn parse_body(body: &str) -> Option<(Kind, Vec<String>, Option<String>)> {
    let (kind, rest) = if let Some(rest) = body.strip_prefix("allow") {
        (Kind::Allow, rest)
    } else if let Some(rest) = body.strip_prefix("expect") {
        (Kind::Expect, rest)
    } else {
        return None;
    };
    let inner = rest.trim().strip_prefix('(')?;
    let close = inner.rfind(')')?;
    let inner = &inner[..close];
    let mut lints = Vec::new();
    let mut reason = None;
    for part in split_args(inner) {
        let part = part.trim();
        if let Some(value) = part.strip_prefix("reason") {
            let value = value.trim_start().strip_prefix('=')?.trim();
            let text = value.strip_prefix('"')?.strip_suffix('"')?;
            reason = Some(text.to_string()).filter(|r| !r.trim().is_empty());
        } else if !part.is_empty() {
            lints.push(part.to_string());
        }
    }
    Some((kind, lints, reason))
}

/// Splits on commas outside double quotes.
fn split_args(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut in_string = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => in_string = !in_string,
            ',' if !in_string => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Removes suppressed findings and adds the diagnostics about directives themselves, at the
/// levels of `levels_of(file)`.
pub fn apply(
    findings: &mut Vec<(Finding, Option<usize>)>,
    directives: &HashMap<FileId, Vec<Directive>>,
    levels_of: &dyn Fn(FileId) -> Option<(usize, BTreeMap<&'static str, Level>)>,
    line_of: &dyn Fn(Span) -> usize,
) {
    let mut used: HashMap<(FileId, usize), bool> = HashMap::new();
    findings.retain(|(finding, _)| {
        let Some(list) = directives.get(&finding.span.file) else {
            return true;
        };
        let line = line_of(finding.span);
        let mut suppressed = false;
        for (i, d) in list.iter().enumerate() {
            let covers = d.lines.is_none_or(|(a, b)| (a..=b).contains(&line));
            let names = d
                .lints
                .iter()
                .any(|l| lints::find_code(l) == Some(finding.lint));
            if covers && names {
                used.insert((finding.span.file, i), true);
                suppressed = true;
            }
        }
        !suppressed
    });
    let mut extra = Vec::new();
    for (&file, list) in directives {
        let Some((package, levels)) = levels_of(file) else {
            continue;
        };
        for (i, d) in list.iter().enumerate() {
            let mut push = |code: &'static str, message: String, label: &str| {
                let level = levels.get(code).copied().unwrap_or(Level::Warn);
                if level > Level::Allow {
                    let mut f = Finding::new(code, d.span, message).label(label);
                    f.level = level;
                    extra.push((f, Some(package)));
                }
            };
            if let Some(unknown) = d.lints.iter().find(|l| lints::find_code(l).is_none()) {
                push(
                    "unused_suppression",
                    format!("`{unknown}` is not an mcp-lint lint"),
                    "this name suppresses nothing",
                );
            } else if !used.contains_key(&(file, i)) {
                let message = match d.kind {
                    Kind::Allow => {
                        format!("this `allow({})` suppresses nothing", d.lints.join(", "))
                    }
                    Kind::Expect => format!(
                        "`expect({})` was not fulfilled: nothing was reported here",
                        d.lints.join(", ")
                    ),
                };
                push(
                    "unused_suppression",
                    message,
                    "remove it, or move it to the line the finding is on",
                );
            }
            if d.reason.is_none() {
                push(
                    "missing_suppression_reason",
                    "this suppression gives no reason".to_string(),
                    "add `reason = \"..\"`: why is the finding wrong or acceptable here?",
                );
            }
        }
    }
    findings.extend(extra);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn file(text: &str) -> SourceFile {
        SourceFile::new(PathBuf::from("src/x.rs"), "src/x.rs".into(), text.into())
    }

    #[test]
    fn parses_forms_and_coverage() {
        let text = "//! mcp-lint: allow(stdout_in_stdio_server, reason = \"cli\")\nfn a() {\n    x.unwrap(); // mcp-lint: allow(panic_in_tool, reason = \"checked, \\\"really\\\"\")\n}\n// mcp-lint: expect(error_escapes_tool)\n#[tool]\nfn b() {\n    y?;\n}\n";
        let f = file(text);
        let b_start = text.find("#[tool]").expect("item");
        let b_end = text.rfind('}').expect("end") + 1;
        let d = directives(&f, 0, &[(b_start, b_end)]);
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].lines, None);
        assert_eq!(d[1].lines, Some((3, 3)));
        assert_eq!(d[1].lints, vec!["panic_in_tool"]);
        assert_eq!(d[1].reason.as_deref(), Some("checked, \\\"really\\\""));
        assert_eq!(d[2].kind, Kind::Expect);
        assert_eq!(d[2].lines, Some((6, 9)));
        assert_eq!(d[2].reason, None);
    }

    #[test]
    fn strings_are_not_comments() {
        let f = file("let s = \"// mcp-lint: allow(panic_in_tool)\";\n");
        assert!(directives(&f, 0, &[]).is_empty());
    }
}
