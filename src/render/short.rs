//! `path:line:col: level[mcp_lint::NAME]: message`, one line per finding.

use super::{Placed, escape, locate};
use crate::source::SourceMap;

pub fn render(sources: &SourceMap, findings: &[Placed<'_>]) -> String {
    let mut out = String::new();
    for placed in findings {
        let f = placed.finding;
        let loc = locate(sources, f.span);
        out.push_str(&format!(
            "{}:{}:{}: {}[{}]: {}\n",
            escape::one_line(&sources.get(f.span.file).display),
            loc.line_start,
            loc.column_start,
            f.level.rustc_level(),
            f.code(),
            escape::one_line(&f.message)
        ));
    }
    escape::workflow_commands(&out).into_owned()
}
