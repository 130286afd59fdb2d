//! SARIF 2.1.0 for GitHub code scanning: one run, the rules that have results, one result per
//! finding with a repository-relative location.

use serde_json::{Value, json};

use super::{Placed, locate};
use crate::diagnostic::Level;
use crate::source::SourceMap;

/// What a renderer may say about a rule: its code, a one-line summary and its documentation.
pub struct Rule {
    pub code: String,
    pub summary: String,
    pub doc: String,
    pub default_level: Level,
}

fn sarif_level(level: Level) -> &'static str {
    match level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "none",
    }
}

pub fn render(
    sources: &SourceMap,
    findings: &[Placed<'_>],
    rules_for: &dyn Fn(&str) -> Rule,
) -> String {
    let mut codes: Vec<String> = findings.iter().map(|p| p.finding.code()).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Rule> = codes.iter().map(|c| rules_for(c)).collect();
    let rules_json: Vec<Value> = rules
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.code.trim_start_matches("mcp_lint::"),
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.summary },
                "help": { "text": r.doc, "markdown": r.doc },
                "defaultConfiguration": { "level": sarif_level(r.default_level) },
            })
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|p| {
            let f = p.finding;
            let loc = locate(sources, f.span);
            let code = f.code();
            let rule_index = codes.iter().position(|c| *c == code).unwrap_or(0);
            let mut message = f.message.clone();
            if let Some(help) = &f.help {
                message.push_str("\nhelp: ");
                message.push_str(&help.message);
            }
            json!({
                "ruleId": code,
                "ruleIndex": rule_index,
                "level": sarif_level(f.level),
                "message": { "text": message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": super::escape::uri(&sources.get(f.span.file).display),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {
                            "startLine": loc.line_start,
                            "startColumn": loc.column_start,
                            "endLine": loc.line_end,
                            "endColumn": loc.column_end,
                        },
                    },
                }],
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "mcp-lint",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules_json,
                },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    super::escape::json(text)
}
