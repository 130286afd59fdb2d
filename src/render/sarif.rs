//! SARIF 2.1.0 for GitHub code scanning: one run, the rules that have results, one result per
//! finding with a repository-relative location. Built with `serde-sarif`'s typed model, so the
//! shape follows the official schema by construction.

use serde_sarif::sarif as model;

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

fn result_level(level: Level) -> model::ResultLevel {
    match level {
        Level::Deny => model::ResultLevel::Error,
        Level::Warn => model::ResultLevel::Warning,
        Level::Allow => model::ResultLevel::None,
    }
}

/// The level of a rule's default configuration (the schema spells it as a plain string).
fn configured_level(level: Level) -> serde_json::Value {
    serde_json::to_value(result_level(level)).unwrap_or(serde_json::Value::Null)
}

fn descriptor(rule: &Rule) -> model::ReportingDescriptor {
    let summary = || {
        model::MultiformatMessageString::builder()
            .text(rule.summary.clone())
            .build()
    };
    model::ReportingDescriptor::builder()
        .id(rule.code.clone())
        .name(rule.code.trim_start_matches("mcp_lint::").to_string())
        .short_description(summary())
        .full_description(summary())
        .help(
            model::MultiformatMessageString::builder()
                .text(rule.doc.clone())
                .markdown(rule.doc.clone())
                .build(),
        )
        .default_configuration(
            model::ReportingConfiguration::builder()
                .level(configured_level(rule.default_level))
                .build(),
        )
        .build()
}

fn location(sources: &SourceMap, f: &Finding) -> model::Location {
    let loc = locate(sources, f.span);
    let line = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let region = model::Region::builder()
        .start_line(line(loc.line_start))
        .start_column(line(loc.column_start))
        .end_line(line(loc.line_end))
        .end_column(line(loc.column_end))
        .build();
    let artifact = model::ArtifactLocation::builder()
        .uri(super::escape::uri(&sources.get(f.span.file).display))
        .uri_base_id("%SRCROOT%".to_string())
        .build();
    model::Location::builder()
        .physical_location(
            model::PhysicalLocation::builder()
                .artifact_location(artifact)
                .region(region)
                .build(),
        )
        .build()
}

fn result(sources: &SourceMap, f: &Finding, rule_index: usize) -> model::Result {
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(&help.message);
    }
    model::Result::builder()
        .rule_id(f.code())
        .rule_index(i64::try_from(rule_index).unwrap_or(0))
        .level(result_level(f.level))
        .message(model::Message::builder().text(message).build())
        .locations(vec![location(sources, f)])
        .build()
}

pub fn render(
    sources: &SourceMap,
    findings: &[Placed<'_>],
    rules_for: &dyn Fn(&str) -> Rule,
) -> String {
    let mut codes: Vec<String> = findings.iter().map(|p| p.finding.code()).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<model::ReportingDescriptor> =
        codes.iter().map(|c| descriptor(&rules_for(c))).collect();
    let results: Vec<model::Result> = findings
        .iter()
        .map(|p| {
            let code = p.finding.code();
            let rule_index = codes.iter().position(|c| *c == code).unwrap_or(0);
            result(sources, p.finding, rule_index)
        })
        .collect();
    let driver = model::ToolComponent::builder()
        .name("mcp-lint".to_string())
        .version(env!("CARGO_PKG_VERSION").to_string())
        .rules(rules)
        .build();
    let run = model::Run::builder()
        .tool(model::Tool::builder().driver(driver).build())
        .column_kind(
            serde_json::to_value(model::ResultColumnKind::UnicodeCodePoints)
                .unwrap_or(serde_json::Value::Null),
        )
        .results(results)
        .build();
    let log = model::Sarif::builder()
        .schema(model::SCHEMA_URL.to_string())
        .version(serde_json::to_value(model::Version::V2_1_0).unwrap_or(serde_json::Value::Null))
        .runs(vec![run])
        .build();
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    super::escape::json(text)
}
