//! No answer and server exits: the panic sites `panic_in_tool` reports (not guarded, along
//! the edges it follows), `process::exit`, and with `panic = "abort"` every panic site the
//! handler reaches, as `panic_abort_in_server` counts them.

use super::model::{Abort, Channel, Failure};
use super::paths::{HandlerReach, Path, chain_names, failure};
use crate::analysis::facts::{PanicKind, PanicSite};
use crate::analysis::program::NodeId;
use crate::lints::Cx;
use crate::lints::panic_in_tool;

fn panic_kind(site: &PanicSite) -> &'static str {
    match site.kind {
        PanicKind::Unwrap => "unwrap",
        PanicKind::Expect => "expect",
        PanicKind::Macro => "panic",
        PanicKind::Exit => "exit",
        PanicKind::Slice | PanicKind::TextSplit => "slicing",
        PanicKind::Index => "index",
    }
}

/// Panics and exits (`panic_in_tool`); with `panic = "abort"`, every panic the handler
/// reaches ends the server (`panic_abort_in_server`).
pub(super) fn panics(cx: &Cx<'_>, r: &HandlerReach, out: &mut Vec<Failure>) {
    let program = &cx.a.program;
    let abort: Vec<Abort> = cx
        .abort_settings
        .iter()
        .map(|s| {
            let file = cx.sources.get(s.span.file);
            Abort {
                file: file.display.clone(),
                line: file.line_col(s.span.start).0,
                profile: s.profile.clone(),
            }
        })
        .collect();
    for (n, (plain, panics)) in r.plain.iter().zip(&r.panics).enumerate() {
        if plain.is_none() && panics.is_none() {
            continue;
        }
        let n = n as NodeId;
        let f = program.node(n).func;
        for site in &cx.a.facts[f as usize].panics {
            if cx.node(f, site.owner) != n {
                continue;
            }
            // As `panic_in_tool` judges it: not guarded, reached along the edges it follows.
            let reported = (site.invariant.is_none() && panic_in_tool::unguarded(cx, f, site))
                .then(|| r.chain(&r.panics, n))
                .flatten()
                .and_then(|chain| {
                    panic_in_tool::admitted(cx, f, site, cx.reach_of(r.handler, chain))
                });
            // As `panic_abort_in_server` counts it: any site, guarded or not.
            let aborts = (!abort.is_empty())
                .then(|| r.chain(&r.plain, n))
                .flatten()
                .and_then(|chain| {
                    panic_in_tool::admitted(cx, f, site, cx.reach_of(r.handler, chain))
                });
            let Some(reach) = reported.as_ref().or(aborts.as_ref()) else {
                continue;
            };
            let channel = if aborts.is_some() || site.kind == PanicKind::Exit {
                Channel::ServerExit
            } else {
                Channel::NoAnswer
            };
            let (lint, span) = match (&reported, cx.abort_settings.first()) {
                (Some(_), _) | (None, None) => ("panic_in_tool", cx.span(f, site.span)),
                (None, Some(setting)) => ("panic_abort_in_server", setting.span),
            };
            let mut failure = failure(
                cx,
                Path {
                    channel,
                    kind: panic_kind(site),
                    span: cx.span(f, site.span),
                    func: f,
                    chain: chain_names(cx, &reach.chain),
                    what: site.what.clone(),
                },
                Some(lint),
            );
            failure.reported_as = Some((lint, span));
            if aborts.is_some() {
                failure.abort = abort.clone();
            }
            out.push(failure);
        }
    }
}
