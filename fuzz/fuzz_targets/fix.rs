//! `--fix` on one file's analysis, in memory: every fix (unsafe ones included) applied, the
//! result diffed and re-parsed the way `--fix` checks it. Nothing may panic or overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(outcome) = mcp_lint::analyze_text_outcome(text) else {
        return;
    };
    let findings: Vec<&mcp_lint::diagnostic::Finding> =
        outcome.findings.iter().map(|(f, _)| f).collect();
    for unsafe_fixes in [false, true] {
        for (file, edits) in mcp_lint::fix::collect(&findings, unsafe_fixes) {
            let source = outcome.sources.get(file);
            let (fixed, _) = mcp_lint::fix::apply_edits(source.text(), &edits);
            let _ = mcp_lint::fix::unified_diff(&source.display, source.text(), &fixed);
            let _ = mcp_lint::source::parse_isolated(&fixed);
        }
    }
});
