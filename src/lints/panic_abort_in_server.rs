//! `panic = "abort"` in a server whose handlers can panic: each such panic kills the whole
//! server, and every request in flight with it.

use super::panic_in_tool::{Site, panic_macro, panic_site, reached};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::ExprCx;

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

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        if let Some((span, site)) = panic_site(cx, expr, true) {
            out.push(cx.candidate(Self::NAME, span, site));
        }
    }

    fn check_macro(&self, cx: &ExprCx<'_>, mac: &syn::Macro, out: &mut Vec<Candidate>) {
        if let Some((span, site)) = panic_macro(cx, mac, true) {
            out.push(cx.candidate(Self::NAME, span, site));
        }
    }

    /// The sites only count; the finding is on the manifest.
    fn finish(&self, _cand: &Candidate, _facts: &Facts<'_>) -> Option<Finding> {
        None
    }

    fn finish_crate(&self, facts: &Facts<'_>) -> Vec<Finding> {
        if facts.abort_settings.is_empty() {
            return Vec::new();
        }
        let mut sites = Vec::new();
        for file in facts.files {
            for cand in file.candidates.iter().filter(|c| c.lint == Self::NAME) {
                if let Some(site) = cand.data.downcast_ref::<Site>()
                    && let Some(reach) = reached(cand, site, facts, true)
                {
                    sites.push((cand.span, site.what.clone(), reach.handler));
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
                let file = facts.sources.get(span.file);
                let (line, col) = file.line_col(span.start);
                format!(
                    "{}:{line}:{col}: {what} ({})",
                    file.display,
                    facts.handler_phrase(*handler)
                )
            })
            .collect();
        facts
            .abort_settings
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
