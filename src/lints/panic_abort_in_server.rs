//! `panic = "abort"` in a server whose handlers can panic: each such panic kills the whole
//! server, and every request in flight with it.

use super::cx::Cx;
use super::panic_in_tool::reached;
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding};

declare_lint!(
    PanicAbortInServer,
    "panic_abort_in_server",
    Warn,
    "correctness",
    "panic = \"abort\" in a server whose handlers can panic: one panic kills the server"
);

/// How many example sites the finding lists.
const SHOWN: usize = 3;

impl Lint for PanicAbortInServer {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        if cx.abort_settings.is_empty() {
            return Vec::new();
        }
        let mut sites = Vec::new();
        for f in cx.a.program.fn_ids() {
            for site in &cx.a.facts[f as usize].panics {
                if let Some(reach) = reached(cx, f, site, true) {
                    sites.push((cx.span(f, site.span), site.what.clone(), reach.handler));
                }
            }
        }
        if sites.is_empty() {
            return Vec::new();
        }
        sites.sort_by_key(|s| s.0);
        let count = sites.len();
        let examples: Vec<String> = sites
            .iter()
            .take(SHOWN)
            .map(|(span, what, handler)| {
                let file = cx.sources.get(span.file);
                let (line, col) = file.line_col(span.start);
                format!(
                    "{}:{line}:{col}: {what} ({})",
                    file.display,
                    cx.handler_phrase(*handler)
                )
            })
            .collect();
        cx.abort_settings
            .iter()
            .map(|setting| {
                let sites_word = if count == 1 { "site" } else { "sites" };
                let mut finding = Finding::new(
                    Self::NAME,
                    setting.span,
                    format!(
                        "`panic = \"abort\"` in `[profile.{}]` turns {count} panic {sites_word} reachable from handlers into a crash of the whole server",
                        setting.profile
                    ),
                )
                .label("with abort, one panic in one request ends the process and every request in flight")
                .note(format!(
                    "panics reachable from handlers: {}{}",
                    examples.join("; "),
                    if count > SHOWN {
                        format!("; and {} more", count - SHOWN)
                    } else {
                        String::new()
                    }
                ))
                .note("with the default `panic = \"unwind\"` a panic only loses its own request (the SDK runs each request in its own task)");
                finding = finding.fix(
                    "unwind instead, so one failing request cannot take the server down",
                    vec![Edit {
                        span: setting.span,
                        replacement: "panic = \"unwind\"".to_string(),
                    }],
                    Applicability::MaybeIncorrect,
                );
                finding
            })
            .collect()
    }
}
