//! `--format markdown`: for a pull-request comment or a job summary. An overview table, then
//! one table per handler with its paths; what each path is and its call chain are collapsed
//! under a `<details>`. With `--check`, the changes since the saved contract come first.

use super::check::{Diff, path_line, tool_line};
use super::human::{code_cell, heading, lint_cell};
use super::model::{Channel, Contract, Tool};
use super::{count, summary};

const CHANNELS: [Channel; 5] = [
    Channel::Success,
    Channel::IsError,
    Channel::JsonrpcError,
    Channel::NoAnswer,
    Channel::ServerExit,
];

/// Text in a table cell: pipes escaped, on one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Inline code, with a fence long enough for the backticks inside.
fn code(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let ticks = if text.contains('`') { "``" } else { "`" };
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

pub fn render(contract: &Contract, diff: Option<&Diff>) -> String {
    let mut out = String::from("## mcp-lint contract\n\n");
    out.push_str(&format!(
        "{}\n\n",
        cell(summary(contract).trim_start_matches("mcp-lint contract: "))
    ));
    if let Some(diff) = diff {
        changes(&mut out, diff);
    }
    if contract.tools.is_empty() {
        return out;
    }
    out.push_str("| handler | kind | success | isError | JSON-RPC error | no answer | server exit | failure as success |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for t in &contract.tools {
        let n = |c: Channel| match t.failures.iter().filter(|f| f.channel == c).count() {
            0 => String::new(),
            n => n.to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            code(&t.name),
            t.kind.as_str(),
            cell(&t.success.join(", ")),
            n(Channel::IsError),
            n(Channel::JsonrpcError),
            n(Channel::NoAnswer),
            n(Channel::ServerExit),
            n(Channel::Success),
        ));
    }
    out.push('\n');
    for t in &contract.tools {
        render_tool(&mut out, t);
    }
    out
}

fn changes(out: &mut String, diff: &Diff) {
    out.push_str("### Changes since the saved contract\n\n");
    if diff.changes.is_empty() {
        out.push_str("None.\n\n");
        return;
    }
    let worse = diff.worse().count();
    if worse > 0 {
        out.push_str(&format!(
            "**Worse**: {} the model cannot read.\n\n",
            count(worse, "new failure path")
        ));
    } else {
        out.push_str("Not worse: no new path the model cannot read.\n\n");
    }
    for c in &diff.changes {
        out.push_str(&format!("- {}\n", cell(&tool_line(c))));
        for f in &c.gained {
            out.push_str(&format!("  - added: {}\n", cell(&path_line(f))));
        }
        for f in &c.lost {
            out.push_str(&format!("  - removed: {}\n", cell(&path_line(f))));
        }
    }
    out.push('\n');
}

fn render_tool(out: &mut String, t: &Tool) {
    out.push_str(&format!("### {} {}\n\n", t.kind.as_str(), code(&t.name)));
    out.push_str(&format!("{}\n\n", cell(&heading(t))));
    if t.failures.is_empty() {
        out.push_str("No failure paths found.\n\n");
        return;
    }
    out.push_str("| channel | code | kind | origin | lint |\n| --- | --- | --- | --- | --- |\n");
    for c in CHANNELS {
        for f in t.failures.iter().filter(|f| f.channel == c) {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                c.title(),
                cell(&code_cell(f)),
                cell(&f.kind),
                code(&format!("{}:{}", f.origin.file, f.origin.line)),
                cell(&lint_cell(f)),
            ));
        }
    }
    out.push_str("\n<details><summary>Details</summary>\n\n");
    for f in &t.failures {
        let mut line = format!(
            "- {} at {}: {}",
            f.channel.title(),
            code(&format!("{}:{}", f.origin.file, f.origin.line)),
            f.what
        );
        if f.chain.len() > 1 {
            let chain: Vec<String> = f.chain.iter().map(|c| code(c)).collect();
            line.push_str(&format!("; call chain: {}", chain.join(" → ")));
        }
        for a in &f.abort {
            line.push_str(&format!(
                "; the server dies: `panic = \"abort\"` in `[profile.{}]` ({})",
                a.profile,
                code(&format!("{}:{}", a.file, a.line))
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("\n</details>\n\n");
}
