//! GitHub Actions workflow commands: one `::error`/`::warning` annotation per finding.

use super::{Placed, locate};
use crate::diagnostic::Level;
use crate::source::SourceMap;

/// Escapes a workflow-command message (control characters from the source shown first).
fn data(text: &str) -> String {
    super::escape::control(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(sources: &SourceMap, findings: &[Placed<'_>]) -> String {
    let mut out = String::new();
    for p in findings {
        let f = p.finding;
        let loc = locate(sources, f.span);
        let kind = if f.level == Level::Deny {
            "error"
        } else {
            "warning"
        };
        let mut message = f.message.clone();
        if let Some(help) = &f.help {
            message.push_str("\nhelp: ");
            message.push_str(&help.message);
        }
        out.push_str(&format!(
            "::{kind} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            property(&sources.get(f.span.file).display),
            loc.line_start,
            loc.column_start,
            loc.line_end,
            loc.column_end,
            property(&f.code()),
            data(&message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(data("50%\nnext"), "50%25%0Anext");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
    }
}
