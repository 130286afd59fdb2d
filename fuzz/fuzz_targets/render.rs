//! Every output format over one file's findings, in memory: nothing may panic, and no line
//! that comes from the source may start a workflow command or carry a raw control character.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lint::diagnostic::Level;
use mcp_lint::render::{self, Placed};

fn rule(code: &str) -> render::sarif::Rule {
    render::sarif::Rule {
        code: code.to_string(),
        summary: String::new(),
        doc: String::new(),
        default_level: Level::Warn,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(outcome) = mcp_lint::analyze_text_outcome(text) else {
        return;
    };
    let placed: Vec<Placed<'_>> = outcome
        .findings
        .iter()
        .map(|(finding, package)| Placed {
            finding,
            package: package.map(|i| &outcome.workspace.packages[i]),
        })
        .collect();
    let findings: Vec<_> = placed.iter().map(|p| p.finding).collect();
    let outputs = [
        render::human::render(&outcome.sources, &findings, false),
        render::human::render(&outcome.sources, &findings, true),
        render::short::render(&outcome.sources, &placed),
        render::json::render(&outcome.sources, &placed, true),
        render::sarif::render(&outcome.sources, &placed, &rule),
    ];
    for out in &outputs {
        assert!(!out.contains(['\u{7}', '\r', '\u{0}']), "raw control character");
        for line in out.lines() {
            let line = line.trim_start();
            assert!(!line.starts_with("::") && !line.starts_with("##["), "{line}");
        }
    }
    let _ = render::github::render(&outcome.sources, &placed);
});
