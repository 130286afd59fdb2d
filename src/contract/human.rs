//! The contract for people: one compact table per handler. Paths a finding reports take the
//! finding's colour (red for deny, yellow for warn); `isError` results and correct protocol
//! errors are green.

use super::model::{Channel, Contract, Failure, Tool};

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const GREEN: &str = "\x1b[32m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

pub fn render(contract: &Contract, color: bool) -> String {
    let mut out = String::new();
    for (i, tool) in contract.tools.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_tool(&mut out, tool, color);
    }
    out
}

/// The line above a handler's table: what it is, where, its SDK, its `Err` and successes.
pub fn heading(tool: &Tool) -> String {
    let mut parts = vec![format!("{}:{}", tool.file, tool.line)];
    if let Some(sdk) = &tool.sdk {
        parts.push(sdk.clone());
    }
    parts.push(tool.err.title().to_string());
    if !tool.success.is_empty() {
        parts.push(format!("success: {}", tool.success.join(", ")));
    }
    parts.join(" · ")
}

/// A path's code cell: `-32603 internal_error`, `-32602`, `internal_error` or nothing.
pub fn code_cell(f: &Failure) -> String {
    match (f.code, &f.constructor) {
        (Some(c), Some(k)) => format!("{c} {k}"),
        (Some(c), None) => c.to_string(),
        (None, Some(k)) => k.clone(),
        (None, None) => String::new(),
    }
}

/// A path's lint cell: `error_escapes_tool (warn)`.
pub fn lint_cell(f: &Failure) -> String {
    match (&f.lint, &f.level) {
        (Some(l), Some(level)) => format!("{l} ({level})"),
        (Some(l), None) => l.clone(),
        _ => String::new(),
    }
}

/// The helpers a path goes through below the handler: `parse → … → read_all (4 calls)`.
pub fn via(chain: &[String]) -> String {
    let below = chain.get(1..).unwrap_or_default();
    match below {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} → {b}"),
        [first, .., last] => format!("{first} → … → {last} ({} calls)", below.len()),
    }
}

fn paint(f: &Failure) -> &'static str {
    match f.level.as_deref() {
        Some("deny") => RED,
        Some(_) => YELLOW,
        None if f.channel == Channel::IsError || f.is_correct() => GREEN,
        None => "",
    }
}

fn render_tool(out: &mut String, tool: &Tool, color: bool) {
    let (bold, dim, reset) = if color {
        (BOLD, DIM, RESET)
    } else {
        ("", "", "")
    };
    out.push_str(&format!(
        "{bold}{} `{}`{reset}  {dim}{}{reset}\n",
        tool.kind.as_str(),
        tool.name,
        heading(tool)
    ));
    if tool.failures.is_empty() {
        out.push_str("  no failure paths found\n");
        return;
    }
    let header = ["channel", "code", "kind", "origin", "via", "what", "lint"].map(String::from);
    let rows: Vec<[String; 7]> = tool
        .failures
        .iter()
        .map(|f| {
            [
                f.channel.as_str().to_string(),
                code_cell(f),
                f.kind.clone(),
                format!("{}:{}", f.origin.file, f.origin.line),
                via(&f.chain),
                f.what.clone(),
                lint_cell(f),
            ]
        })
        .collect();
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 7], paint: &str| {
        let mut text = String::from("  ");
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            let last = i + 1 == cells.len();
            match i {
                0 | 6 if color && !paint.is_empty() => {
                    text.push_str(&format!("{paint}{cell}{RESET}"))
                }
                _ => text.push_str(cell),
            }
            if !last {
                text.push_str(&pad);
                text.push_str("  ");
            }
        }
        text.truncate(text.trim_end().len());
        text.push('\n');
        text
    };
    let header_line = line(&header, "");
    out.push_str(&format!(
        "{dim}{}{reset}",
        header_line.trim_end_matches('\n')
    ));
    out.push('\n');
    for (row, f) in rows.iter().zip(&tool.failures) {
        out.push_str(&line(row, paint(f)));
    }
}

#[cfg(test)]
mod tests {
    use super::via;

    #[test]
    fn via_shows_the_helpers_below_the_handler() {
        let chain = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(via(&chain(&["tool"])), "");
        assert_eq!(via(&chain(&["tool", "a"])), "a");
        assert_eq!(via(&chain(&["tool", "a", "b"])), "a → b");
        assert_eq!(via(&chain(&["tool", "a", "b", "c"])), "a → … → c (3 calls)");
        assert_eq!(via(&[]), "");
    }
}
