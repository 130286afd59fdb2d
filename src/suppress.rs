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
    let lines: Vec<&str> = file.text().split_inclusive('\n').collect();
    let next_code = next_code_lines(&lines);
    // Per start line, the last line of the items starting there.
    let mut item_ends: HashMap<usize, usize> = HashMap::new();
    for (s, e) in items {
        let end = line_of(file, *e);
        let entry = item_ends.entry(line_of(file, *s)).or_insert(end);
        *entry = (*entry).max(end);
    }
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
            next_code.get(index + 1).copied().flatten().map(|next| {
                let item_end = item_ends.get(&next).copied();
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
            // Bytes, not `&line[i..]`: `i` may be inside a multi-byte character.
            _ if !in_string && bytes[i..].starts_with(marker.as_bytes()) => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Per 0-based line index `i` (and one past the end): the 1-based number of the first line
/// at or after `i` that is code (not blank, not a comment; attributes count as code: they
/// start the item). One pass from the end, so a run of directives costs linear time.
fn next_code_lines(lines: &[&str]) -> Vec<Option<usize>> {
    let mut next = vec![None; lines.len() + 1];
    for i in (0..lines.len()).rev() {
        let t = lines[i].trim();
        let code =
            !t.is_empty() && !t.starts_with("//") && !t.starts_with('#') || t.starts_with("#[");
        next[i] = if code { Some(i + 1) } else { next[i + 1] };
    }
    next
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
    let indexes: HashMap<FileId, Index> = directives
        .iter()
        .map(|(&file, list)| (file, Index::new(list)))
        .collect();
    findings.retain(|(finding, _)| {
        let (Some(list), Some(index)) = (
            directives.get(&finding.span.file),
            indexes.get(&finding.span.file),
        ) else {
            return true;
        };
        let line = line_of(finding.span);
        let mut suppressed = false;
        for i in index.covering(line) {
            let names = list[i]
                .lints
                .iter()
                .any(|l| lints::find_code(l) == Some(finding.lint));
            if names {
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

/// The directives of one file by the lines they cover, so that each finding looks only at
/// the directives that may cover its line.
struct Index {
    whole_file: Vec<usize>,
    /// Directives covering one line, by that line.
    single: HashMap<usize, Vec<usize>>,
    /// Directives covering several lines (items), sorted by first line, with the running
    /// maximum of their last lines.
    ranges: Vec<(usize, usize, usize)>,
    reach: Vec<usize>,
}

impl Index {
    fn new(list: &[Directive]) -> Index {
        let mut index = Index {
            whole_file: Vec::new(),
            single: HashMap::new(),
            ranges: Vec::new(),
            reach: Vec::new(),
        };
        for (i, d) in list.iter().enumerate() {
            match d.lines {
                None => index.whole_file.push(i),
                Some((a, b)) if a == b => index.single.entry(a).or_default().push(i),
                Some((a, b)) => index.ranges.push((a, b, i)),
            }
        }
        index.ranges.sort_unstable();
        let mut furthest = 0;
        index.reach = index
            .ranges
            .iter()
            .map(|&(_, b, _)| {
                furthest = furthest.max(b);
                furthest
            })
            .collect();
        index
    }

    /// The directives covering `line`, in no particular order.
    fn covering(&self, line: usize) -> Vec<usize> {
        let mut found = self.whole_file.clone();
        found.extend(self.single.get(&line).into_iter().flatten().copied());
        // Ranges starting at or before `line`, walked back while one of them may still reach it.
        let mut k = self.ranges.partition_point(|&(a, _, _)| a <= line);
        while k > 0 && self.reach[k - 1] >= line {
            k -= 1;
            let (_, b, i) = self.ranges[k];
            if b >= line {
                found.push(i);
            }
        }
        found
    }
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
    fn a_comment_after_a_multi_byte_character_is_read() {
        let f = file("let c = 'é'; // mcp-lint: allow(panic_in_tool, reason = \"ok\")\n");
        let d = directives(&f, 0, &[]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].lines, Some((1, 1)));
    }

    #[test]
    fn strings_are_not_comments() {
        let f = file("let s = \"// mcp-lint: allow(panic_in_tool)\";\n");
        assert!(directives(&f, 0, &[]).is_empty());
    }
}
