//! Cargo's `--message-format json`: one `compiler-message` per finding, then
//! `build-finished`. rust-analyzer, rustfix and bacon read this.

use serde_json::{Value, json};

use super::targets::Targets;
use super::{Placed, human, locate};
use crate::diagnostic::{Finding, Span};
use crate::source::SourceMap;
use crate::workspace::{Package, Target};

/// Spans quote at most this many lines of source, each at most this many bytes long.
const MAX_QUOTED_LINES: usize = 64;
const MAX_QUOTED_LINE: usize = 1024;

fn span_json(sources: &SourceMap, span: Span, primary: bool, label: Option<&str>) -> Value {
    let file = sources.get(span.file);
    let loc = locate(sources, span);
    // Lines are quoted only when short, so a finding's size does not grow with a minified or
    // hostile line (the byte and line/column fields still place the span exactly).
    let text: Vec<Value> = (loc.line_start..=loc.line_end)
        .take(MAX_QUOTED_LINES)
        .filter(|&line| file.line_text(line).len() <= MAX_QUOTED_LINE)
        .map(|line| {
            let line_text = file.line_text(line);
            let start = if line == loc.line_start {
                loc.column_start
            } else {
                1
            };
            let end = if line == loc.line_end {
                loc.column_end
            } else {
                line_text.chars().count() + 1
            };
            json!({"text": line_text, "highlight_start": start, "highlight_end": end})
        })
        .collect();
    json!({
        "file_name": file.display,
        "byte_start": span.start,
        "byte_end": span.end,
        "line_start": loc.line_start,
        "line_end": loc.line_end,
        "column_start": loc.column_start,
        "column_end": loc.column_end,
        "is_primary": primary,
        "text": text,
        "label": label,
        "suggested_replacement": null,
        "suggestion_applicability": null,
        "expansion": null,
    })
}

fn child(level: &str, message: &str, spans: Vec<Value>) -> Value {
    json!({
        "$message_type": "diagnostic",
        "message": message,
        "code": null,
        "level": level,
        "spans": spans,
        "children": [],
        "rendered": null,
    })
}

pub fn diagnostic(sources: &SourceMap, f: &Finding) -> Value {
    let mut spans = vec![span_json(
        sources,
        f.span,
        true,
        Some(f.label.as_str()).filter(|l| !l.is_empty()),
    )];
    spans.extend(
        f.labels
            .iter()
            .map(|l| span_json(sources, l.span, false, Some(&l.text))),
    );
    let mut children: Vec<Value> = f.notes.iter().map(|n| child("note", n, vec![])).collect();
    if let Some(help) = &f.help {
        let help_spans = help
            .edits
            .iter()
            .map(|e| {
                let mut s = span_json(sources, e.span, true, None);
                s["suggested_replacement"] = json!(e.replacement);
                s["suggestion_applicability"] = json!(help.applicability.as_str());
                s
            })
            .collect();
        children.push(child("help", &help.message, help_spans));
    }
    json!({
        "$message_type": "diagnostic",
        "message": f.message,
        "code": {"code": f.code(), "explanation": null},
        "level": f.level.rustc_level(),
        "spans": spans,
        "children": children,
        "rendered": human::render_plain(sources, f),
    })
}

/// The `target` of a message: the target whose module tree holds the file.
fn target_json(package: Option<&Package>, target: Option<&Target>) -> Value {
    let edition = package.map_or("2021", |p| p.edition.as_str());
    match target {
        Some(t) => {
            let lib = t.kind.iter().any(|k| k != "bin");
            json!({
                "kind": t.kind,
                "crate_types": t.crate_types,
                "name": t.name,
                "src_path": t.src_path,
                "edition": edition,
                "doc": true,
                "doctest": lib,
                "test": true,
            })
        }
        None => json!({
            "kind": ["bin"],
            "crate_types": ["bin"],
            "name": package.map_or("", |p| p.name.as_str()),
            "src_path": "",
            "edition": edition,
            "doc": false,
            "doctest": false,
            "test": false,
        }),
    }
}

pub fn render(sources: &SourceMap, findings: &[Placed<'_>], success: bool) -> String {
    let mut out = String::new();
    let mut targets = Targets::new(sources);
    for placed in findings {
        let file = &sources.get(placed.finding.span.file).path;
        let target = placed.package.and_then(|p| targets.of(p, file));
        let line = json!({
            "reason": "compiler-message",
            "package_id": placed.package.map_or("", |p| p.id.as_str()),
            "manifest_path": placed.package.map(|p| &p.manifest_path),
            "target": target_json(placed.package, target),
            "message": diagnostic(sources, placed.finding),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out.push_str(&json!({"reason": "build-finished", "success": success}).to_string());
    out.push('\n');
    super::escape::json(out)
}
