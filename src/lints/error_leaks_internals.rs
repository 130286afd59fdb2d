//! Internals sent to the model in an error result: the `Debug` form of an error, backtraces,
//! panic payloads, raw SQL. The `Display` form (`{e}`, `e.to_string()`) is the helpful
//! message and is fine.

use std::collections::HashSet;

use super::cx::{Cx, Reach};
use super::exits::{body_exits, channel};
use super::{Lint, declare_lint};
use crate::analysis::program::NodeId;
use crate::analysis::value::{Fact, Internals, Origin};
use crate::diagnostic::{Applicability, Edit, Finding, Span};
use crate::model::ir::ExprKind;
use crate::sdk::Channel;

declare_lint!(
    ErrorLeaksInternals,
    "error_leaks_internals",
    Warn,
    "suspicious",
    "an error result sent to the model carries Debug output, a backtrace, a panic payload or SQL"
);

impl Lint for ErrorLeaksInternals {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut seen: HashSet<Span> = HashSet::new();
        let mut push = |cx: &Cx<'_>, o: &Origin, reach: &Reach| {
            let (span, what, fix) = describe(cx, o);
            if seen.insert(span) {
                out.push(finding(cx, span, &what, fix, reach));
            }
        };
        // In `isError` results, wherever a tool reaches them.
        for f in cx.a.program.fn_ids() {
            for leak in &cx.a.facts[f as usize].leaks {
                let Some(reach) = cx.reach(cx.node(f, leak.owner)) else {
                    continue;
                };
                if !cx.runs_tools(reach.handler) {
                    continue;
                }
                let origin = Origin {
                    fact: Fact::Internals(leak.kind),
                    part: crate::analysis::value::Part::Plain,
                    site: leak.at,
                    via: None,
                    wrap: None,
                    local: leak.local,
                };
                push(cx, &origin, &reach);
            }
        }
        // In the `Err` of a tool whose `Err` becomes an `isError` result, in the tool itself.
        for h in tool_nodes(cx) {
            if channel(cx, h) != Channel::ToolError {
                continue;
            }
            let reach = cx.reach_of(h, vec![h]);
            let (hf, exits) = body_exits(cx, h);
            let exits: Vec<Origin> = exits
                .flat_map(|e| e.err.iter().copied().collect::<Vec<_>>())
                .collect();
            for o in exits {
                if matches!(o.fact, Fact::Internals(_)) && o.via.is_none() && o.site.func == hf {
                    push(cx, &o, &reach);
                }
            }
        }
        out
    }
}

fn tool_nodes(cx: &Cx<'_>) -> Vec<NodeId> {
    let program = &cx.a.program;
    let mut nodes: Vec<NodeId> = program
        .fn_ids()
        .filter(|&f| cx.is_own(f) && cx.handlers.role(f).handles_tools())
        .map(|f| program.fn_node(f))
        .collect();
    nodes.extend(cx.handlers.closures.iter().copied());
    nodes
}

/// Where a leak of internals (an `Internals` origin) is reported.
pub(crate) fn leak_span(cx: &Cx<'_>, o: &Origin) -> Span {
    describe(cx, o).0
}

/// Where the leak is, what it is, and for a `Debug` placeholder the format string rewritten
/// to `Display`.
fn describe(cx: &Cx<'_>, o: &Origin) -> (Span, String, Option<Edit>) {
    let def = cx.a.program.def(o.site.func);
    let body = &def.body;
    let name = o.local.map(|l| body.local(l).name.clone());
    let Fact::Internals(kind) = o.fact else {
        return (cx.site_span(o.site), String::new(), None);
    };
    match kind {
        Internals::DebugError => {
            if let ExprKind::Macro(m) = &body.expr(o.site.expr).kind
                && let Some(f) = &m.format
            {
                let span = cx.span(o.site.func, f.template_span);
                let subject = name.clone().unwrap_or_default();
                let fixed = f
                    .template
                    .replace(&format!("{{{subject}:?}}"), &format!("{{{subject}}}"))
                    .replace(&format!("{{{subject}:#?}}"), &format!("{{{subject}}}"))
                    .replace("{:?}", "{}")
                    .replace("{:#?}", "{}");
                let what = match &name {
                    Some(n) => format!("the `Debug` form of error `{n}`"),
                    None => "the `Debug` form of an error".to_string(),
                };
                let edit = Edit {
                    span,
                    replacement: format!("{fixed:?}"),
                };
                return (span, what, Some(edit));
            }
            (
                cx.site_span(o.site),
                "the `Debug` form of an error".into(),
                None,
            )
        }
        Internals::Backtrace => (cx.site_span(o.site), "a backtrace".into(), None),
        Internals::PanicPayload => (cx.site_span(o.site), "a panic payload".into(), None),
        Internals::Sql => (cx.site_span(o.site), "raw SQL text".into(), None),
    }
}

fn finding(cx: &Cx<'_>, span: Span, what: &str, fix: Option<Edit>, reach: &Reach) -> Finding {
    let handler = cx.reached_phrase(reach, false);
    let subject = match reach.chain.last() {
        Some(&n) if !reach.in_handler() => {
            format!("`{}`, reached from {handler},", cx.body_name(n))
        }
        _ => handler,
    };
    let mut finding = Finding::new(
        ErrorLeaksInternals::NAME,
        span,
        format!("{subject} sends {what} to the model in an error result"),
    )
    .label("internal detail (types, paths, queries, stack frames) that helps neither the model nor the user, and may expose the server")
    .note("the model needs a message it can act on: the error's `Display` form; keep the details in the server's log on stderr");
    for note in cx.chain_notes(reach) {
        finding = finding.note(note);
    }
    match fix {
        Some(edit) => finding.fix(
            "send the `Display` form instead, and log the details with `tracing::error!(\"{e:?}\")`",
            vec![edit],
            Applicability::MaybeIncorrect,
        ),
        None => finding.help("send a short message such as `e.to_string()` and log the details to stderr"),
    }
}
