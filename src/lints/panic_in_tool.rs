//! Panics reachable from a handler: unless the SDK catches them, the client never gets an
//! answer for that request (or, with `panic = "abort"`, the server dies).

use super::cx::{Cx, Reach};
use super::{Lint, declare_lint};
use crate::analysis::facts::{PanicKind, PanicSite};
use crate::analysis::graph;
use crate::analysis::program::{FnId, Site};
use crate::diagnostic::Finding;
use crate::sdk::Channel;

declare_lint!(
    PanicInTool,
    "panic_in_tool",
    Warn,
    "correctness",
    "a panic reachable from a tool or request handler leaves the request unanswered"
);

/// How a panic site is reached from a handler, when it is: not under a panic guard (the
/// SDK's or the project's), and for indexing either in the handler itself or with a bound
/// the handler's arguments choose. With `panic = "abort"` no guard catches anything, so
/// `under_abort` counts guarded sites too.
pub(crate) fn reached(cx: &Cx<'_>, f: FnId, site: &PanicSite, under_abort: bool) -> Option<Reach> {
    let node = cx.node(f, site.owner);
    let reach = if under_abort {
        cx.reach(node)?
    } else {
        if !unguarded(cx, f, site) {
            return None;
        }
        cx.panic_reach(node)?
    };
    admitted(cx, f, site, reach)
}

/// Whether no panic guard (the SDK's or the project's) catches a panic at the site.
pub(crate) fn unguarded(cx: &Cx<'_>, f: FnId, site: &PanicSite) -> bool {
    !(cx.sdk.is_some_and(|s| s.catches_panics())
        || site.guarded
        || graph::inside_guard(&cx.a.resolved, f, site.within))
}

/// `reach` when a panic at the site, reached so, is one [`reached`] reports.
pub(crate) fn admitted(cx: &Cx<'_>, f: FnId, site: &PanicSite, reach: Reach) -> Option<Reach> {
    // Other requests (listing, prompts, resources) are judged in the handler itself: their
    // helpers mostly build static data (schemas, descriptions).
    if !reach.in_handler() && !cx.runs_tools(reach.handler) {
        return None;
    }
    // Slicing with a computed bound (`&text[..500.min(text.len())]` splits a UTF-8 character)
    // counts anywhere; other indexing in a helper only with a bound the arguments choose.
    if site.kind == PanicKind::Index && !reach.in_handler() && site.what != "slicing" {
        let handler = cx.a.program.node(reach.handler).func;
        let chosen = site.at.is_some_and(|at| {
            cx.a.summaries[handler as usize]
                .index
                .iter()
                .any(|(_, s)| *s == Site { func: f, expr: at })
        });
        if !chosen {
            return None;
        }
    }
    Some(reach)
}

impl Lint for PanicInTool {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for f in cx.a.program.fn_ids() {
            for site in &cx.a.facts[f as usize].panics {
                if site.invariant {
                    continue;
                }
                if let Some(reach) = reached(cx, f, site, false) {
                    out.push(finding(cx, f, site, &reach));
                }
            }
        }
        out
    }
}

fn finding(cx: &Cx<'_>, f: FnId, site: &PanicSite, reach: &Reach) -> Finding {
    let node = cx.node(f, site.owner);
    let place = cx.place_phrase(reach, node);
    let verb = match site.kind {
        PanicKind::Exit => "ends the server process",
        _ => "can panic",
    };
    let mut finding = Finding::new(
        PanicInTool::NAME,
        cx.span(f, site.span),
        format!("{} {verb} {place}", site.what),
    )
    .label(match site.kind {
        PanicKind::Exit => "the server exits: every request in flight is lost",
        _ => "if this panics, the client gets no response for this request",
    });
    if let Some(chain) = cx.chain_note(reach) {
        finding = finding.note(chain);
    }
    if let Some(sdk) = cx.sdk {
        finding = finding.note(sdk.panic_note());
    }
    let handler_fn = cx.a.program.node(reach.handler).func;
    let channel = cx.handlers.channels[handler_fn as usize];
    let help = match (site.kind, reach.in_handler(), channel) {
        (PanicKind::Unwrap | PanicKind::Expect, true, Channel::ToolError) => {
            "return the failure to the model instead: `.map_err(|e| e.to_string())?` for a `Result`, `.ok_or(\"what was missing\")?` for an `Option`".to_string()
        }
        (PanicKind::Unwrap | PanicKind::Expect, true, _) => cx.sdk.map_or_else(
            || "handle the `Err`/`None` case and report it as a tool error".to_string(),
            |sdk| {
                format!(
                    "handle the failure and report it as a tool error:\n    let value = match result {{\n        Ok(value) => value,\n        Err(e) => return {},\n    }};",
                    sdk.error_result(cx.node_role(reach.handler), "e.to_string()")
                )
            },
        ),
        (PanicKind::Unwrap | PanicKind::Expect, false, _) => {
            "return a `Result` from this helper and let the handler turn `Err` into a tool error".to_string()
        }
        (PanicKind::Index, ..) => "use `.get(..)` and handle `None` as a tool error".to_string(),
        (PanicKind::Exit, ..) => "return an error from the handler instead of exiting".to_string(),
        (PanicKind::Macro, ..) => "return an error result instead of panicking".to_string(),
    };
    finding.help(help)
}
