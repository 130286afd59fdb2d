//! `mcp-lint contract`: every handler's failure contract, as the client sees it. For each
//! tool (and prompt, resource and other request handler), the paths by which a failure
//! reaches the client: a success that carries it, an `isError` result, a JSON-RPC error, no
//! answer, or a dead server; plus the shapes of its successful results.
//!
//! The contract is built in the crate phase of the same run as the lints, from the same
//! query functions (`lints::exits`, `panic_in_tool`, `error_as_success`), and each path that
//! a lint reports is linked to that finding afterwards, so the two cannot disagree.

mod build;
pub mod check;
pub mod command;
pub mod human;
pub mod json;
pub mod markdown;
pub mod model;
mod panics;
mod paths;
mod results;

use std::collections::HashMap;

pub use build::build;
pub use model::{Channel, Contract, Failure, Kind, Tool, VERSION};

use crate::Outcome;
use crate::diagnostic::{Level, Span};

/// The contract of a run: tools in order of package, file and line, each path linked to the
/// finding that reports it (when one does, after configuration and suppressions).
pub fn contract_of(outcome: &Outcome) -> Contract {
    let reported: HashMap<(&str, Span), Level> = outcome
        .findings
        .iter()
        .map(|(f, _)| ((f.lint, f.span), f.level))
        .collect();
    let mut tools = outcome.contract.clone();
    for tool in &mut tools {
        for failure in &mut tool.failures {
            let level = failure.reported_as.and_then(|key| reported.get(&key));
            if let (Some((lint, span)), Some(level)) = (failure.reported_as, level) {
                failure.lint = Some(lint.to_string());
                failure.level = Some(level.as_str().to_string());
                let file = outcome.sources.get(span.file);
                let line = file.line_col(span.start).0;
                if file.display != failure.origin.file || line != failure.origin.line {
                    failure.reported_at = Some(model::Location {
                        file: file.display.clone(),
                        line,
                    });
                }
            }
        }
    }
    tools.sort_by(|a, b| {
        (&a.package, &a.file, a.line, &a.name).cmp(&(&b.package, &b.file, b.line, &b.name))
    });
    Contract {
        version: VERSION,
        tools,
    }
}

/// "mcp-lint contract: 4 tools, 1 prompt; 3 failure paths the model cannot read (JSON-RPC
/// error: 2, no answer: 1); 1 failure sent as a success".
pub fn summary(contract: &Contract) -> String {
    let mut kinds: Vec<(Kind, usize)> = Vec::new();
    for t in &contract.tools {
        match kinds.iter_mut().find(|(k, _)| *k == t.kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((t.kind, 1)),
        }
    }
    kinds.sort();
    let handlers: Vec<String> = kinds.iter().map(|(k, n)| count(*n, k.as_str())).collect();
    let mut line = format!(
        "mcp-lint contract: {}",
        if handlers.is_empty() {
            "no handlers found".to_string()
        } else {
            handlers.join(", ")
        }
    );
    let failures = || contract.tools.iter().flat_map(|t| &t.failures);
    let mut hidden: Vec<(Channel, usize)> = Vec::new();
    for f in failures().filter(|f| f.is_hidden()) {
        match hidden.iter_mut().find(|(c, _)| *c == f.channel) {
            Some((_, n)) => *n += 1,
            None => hidden.push((f.channel, 1)),
        }
    }
    hidden.sort();
    let total: usize = hidden.iter().map(|(_, n)| n).sum();
    if total > 0 {
        let parts: Vec<String> = hidden
            .iter()
            .map(|(c, n)| format!("{}: {n}", c.title()))
            .collect();
        line.push_str(&format!(
            "; {} the model cannot read ({})",
            count(total, "failure path"),
            parts.join(", ")
        ));
    }
    let as_success = failures().filter(|f| f.channel == Channel::Success).count();
    if as_success > 0 {
        line.push_str(&format!(
            "; {} sent as a success",
            count(as_success, "failure")
        ));
    }
    let reported = failures().any(|f| f.lint.is_some());
    if failures().next().is_none() && !contract.tools.is_empty() {
        line.push_str("; no failure paths found");
    } else if total + as_success == 0 && !reported && !contract.tools.is_empty() {
        line.push_str("; every failure path found reaches the model as a failure");
    }
    line
}

/// "1 tool", "2 tools", "3 dispatchers".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
