//! SARIF 2.1.0 for GitHub code scanning: one run, the rules that have results, one result per
//! finding with a repository-relative location. The few objects of the format it writes are
//! typed below; their members are declared in the order they are written (alphabetical), and
//! an ignored test validates the output against the official schema.

use serde::Serialize;

use super::{Placed, locate};
use crate::diagnostic::{Finding, Level};
use crate::source::SourceMap;

/// What a renderer may say about a rule: its code, a one-line summary and its documentation.
pub struct Rule {
    pub code: String,
    pub summary: String,
    pub doc: String,
    pub default_level: Level,
}

const SCHEMA_URL: &str = "https://schemastore.azurewebsites.net/schemas/json/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: Vec<Run>,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    column_kind: &'static str,
    results: Vec<SarifResult>,
    tool: Tool,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
struct Driver {
    name: &'static str,
    rules: Vec<Descriptor>,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    default_configuration: Configuration,
    full_description: Text,
    help: Text,
    id: String,
    name: String,
    short_description: Text,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

/// A message string; `markdown` only where the text is Markdown.
#[derive(Serialize)]
struct Text {
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<String>,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    level: &'static str,
    locations: Vec<Location>,
    message: Text,
    rule_id: String,
    rule_index: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    end_column: usize,
    end_line: usize,
    start_column: usize,
    start_line: usize,
}

/// SARIF's result level for a finding's level.
fn level(level: Level) -> &'static str {
    match level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "none",
    }
}

fn plain(text: &str) -> Text {
    Text {
        markdown: None,
        text: text.to_string(),
    }
}

fn descriptor(rule: &Rule) -> Descriptor {
    Descriptor {
        default_configuration: Configuration {
            level: level(rule.default_level),
        },
        full_description: plain(&rule.summary),
        help: Text {
            markdown: Some(rule.doc.clone()),
            text: rule.doc.clone(),
        },
        id: rule.code.clone(),
        name: rule.code.trim_start_matches("mcp_lint::").to_string(),
        short_description: plain(&rule.summary),
    }
}

fn location(sources: &SourceMap, f: &Finding) -> Location {
    let loc = locate(sources, f.span);
    Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: super::escape::uri(&sources.get(f.span.file).display),
                uri_base_id: "%SRCROOT%",
            },
            region: Region {
                end_column: loc.column_end,
                end_line: loc.line_end,
                start_column: loc.column_start,
                start_line: loc.line_start,
            },
        },
    }
}

fn result(sources: &SourceMap, f: &Finding, rule_index: usize) -> SarifResult {
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(&help.message);
    }
    SarifResult {
        level: level(f.level),
        locations: vec![location(sources, f)],
        message: plain(&message),
        rule_id: f.code(),
        rule_index,
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
    let rules: Vec<Descriptor> = codes.iter().map(|c| descriptor(&rules_for(c))).collect();
    let results: Vec<SarifResult> = findings
        .iter()
        .map(|p| {
            let code = p.finding.code();
            let rule_index = codes.iter().position(|c| *c == code).unwrap_or(0);
            result(sources, p.finding, rule_index)
        })
        .collect();
    let log = Log {
        schema: SCHEMA_URL,
        runs: vec![Run {
            column_kind: "unicodeCodePoints",
            results,
            tool: Tool {
                driver: Driver {
                    name: "mcp-lint",
                    rules,
                    version: env!("CARGO_PKG_VERSION"),
                },
            },
        }],
        version: "2.1.0",
    };
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    super::escape::json(text)
}
