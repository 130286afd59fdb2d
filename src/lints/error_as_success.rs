//! A failure reported as a successful tool result: the client sees `isError: false` and the
//! model takes the error text for data.

use std::collections::HashSet;

use super::cx::{Cx, Reach};
use super::exits::channel;
use super::{Lint, declare_lint};
use crate::analysis::program::{FnId, NodeId};
use crate::analysis::value::{Fact, Origin, Part};
use crate::diagnostic::{Applicability, Edit, Finding, Span};
use crate::model::ir::ExprKind;
use crate::model::resolve::Ty;
use crate::sdk::{Channel, Role};

declare_lint!(
    ErrorAsSuccess,
    "error_as_success",
    Warn,
    "correctness",
    "a failure is returned as a successful tool result (isError unset)"
);

/// A failure on the success side, found in fn `func`.
pub(crate) struct SuccessSite {
    pub at: Span,
    /// The fn holding the site.
    pub func: FnId,
    pub why: Origin,
    /// The success constructor's name in fn `func`, for the `success` → `error` rename.
    pub ctor_name: Option<Span>,
    /// The failure reaches the result on some paths only: the rename would fail the others.
    pub maybe: bool,
    /// A fn that wraps whatever its callers give it (failed or not) into a success.
    pub shared_sink: bool,
}

impl Lint for ErrorAsSuccess {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut seen: HashSet<Span> = HashSet::new();
        for f in cx.a.program.fn_ids() {
            for (node, site) in success_sites(cx, f) {
                let Some(reach) = cx.reach(node) else {
                    continue;
                };
                if !cx.runs_tools(reach.handler) {
                    continue;
                }
                if seen.insert(site.at) {
                    out.push(finding(cx, &site, &reach));
                }
            }
        }
        for (h, f) in text_tools(cx) {
            for site in returned_failures(cx, h, f) {
                // The chain down to a helper that put the failure in the result.
                let reach = cx
                    .reach(cx.a.program.fn_node(site.func))
                    .filter(|r| r.handler == h)
                    .unwrap_or_else(|| cx.reach_of(h, vec![h]));
                if seen.insert(site.at) {
                    out.push(finding(cx, &site, &reach));
                }
            }
        }
        out
    }
}

/// The failures fn `f` puts into success results, with the body each is in.
pub(crate) fn success_sites(cx: &Cx<'_>, f: FnId) -> Vec<(NodeId, SuccessSite)> {
    cx.a.facts[f as usize]
        .success_failures
        .iter()
        .map(|sf| {
            let site = SuccessSite {
                at: cx.site_span(sf.at),
                func: sf.at.func,
                why: sf.why,
                ctor_name: sf.ctor_name.map(|s| cx.span(f, s)),
                maybe: sf.maybe,
                shared_sink: sf.shared_sink,
            };
            (cx.node(f, sf.owner), site)
        })
        .collect()
}

/// The failure text a text tool (handler `h`, fn `f`) returns as its success value: in the
/// tool, or at the call of the helper that made it.
pub(crate) fn returned_failures(cx: &Cx<'_>, h: NodeId, f: FnId) -> Vec<SuccessSite> {
    let mut out = Vec::new();
    let body = &cx.a.program.def(f).body;
    for r in returned(cx, h, f) {
        let ret = &r.val;
        // What the tool answers with: the `Ok(..)` of `return Ok(..)`, or the tail.
        let answer = match body.expr(r.at).kind {
            ExprKind::Return(Some(v)) => v,
            _ => r.at,
        };
        // Two branches that each make failure text are two places to change.
        let made_here = ret
            .iter()
            .filter(|o| o.part != Part::Err && o.fact.is_failure() && o.via.is_none())
            .map(|o| o.site)
            .collect::<HashSet<_>>()
            .len();
        for o in ret.iter() {
            if o.part == Part::Err || !o.fact.is_failure() {
                continue;
            }
            // Made in a helper the tool hands back unchanged: where the helper makes it.
            // Made inside the answer itself, once, on every path (`Ok({ ..; format!(..) })`):
            // the answer, as for the helper's call. Made before, or merged with data: where
            // made.
            let inside = |s: crate::analysis::program::Site| {
                let (i, a) = (body.expr(s.expr).span, body.expr(answer).span);
                s.func == f && a.start <= i.start && i.end <= a.end
            };
            let (at, call) = match o.via {
                Some(via) => (via, true),
                None if made_here == 1 && !ret.failure_is_maybe() && inside(o.site) => (
                    crate::analysis::program::Site {
                        func: f,
                        expr: answer,
                    },
                    false,
                ),
                None => (o.site, false),
            };
            out.push(SuccessSite {
                func: at.func,
                at: if call {
                    cx.call_head_span(at)
                } else {
                    cx.site_span(at)
                },
                why: *o,
                ctor_name: None,
                maybe: ret.failure_is_maybe(),
                shared_sink: false,
            });
        }
    }
    out
}

/// Tools whose success value is text (`String`, `Result<String, _>`): the text they return
/// reaches the model as a successful result.
pub(crate) fn text_tools(cx: &Cx<'_>) -> Vec<(NodeId, FnId)> {
    let Some(sdk) = cx.sdk else { return Vec::new() };
    if !sdk.text_is_success() {
        return Vec::new();
    }
    let program = &cx.a.program;
    program
        .fn_ids()
        .filter(|&f| cx.is_own(f) && cx.handlers.role(f) == Role::Tool)
        .filter(|&f| {
            let ret = cx.a.types.ret(f);
            let ok = ret.as_result().map_or(ret, |(ok, _)| ok);
            is_text(ok)
        })
        .map(|f| (program.fn_node(f), f))
        .collect()
}

pub(crate) fn is_text(ty: &Ty) -> bool {
    matches!(ty.last_segment(), Some("String" | "str" | "Cow"))
}

pub(crate) fn returns_of<'a>(
    cx: &'a Cx<'_>,
    h: NodeId,
    f: FnId,
) -> Vec<&'a crate::analysis::value::Val> {
    returned(cx, h, f).into_iter().map(|r| &r.val).collect()
}

/// The values body `h` (of fn `f`) ends with, each with where it does.
fn returned<'a>(cx: &'a Cx<'_>, h: NodeId, f: FnId) -> Vec<&'a crate::analysis::facts::Return> {
    let node = cx.a.program.node(h);
    let facts = &cx.a.facts[f as usize];
    facts
        .returns
        .iter()
        .filter(|r| match node.closure {
            Some(c) => {
                r.owner == Some(c)
                    || r.owner
                        .is_some_and(|b| facts.closure_async.contains(&(c, b)))
            }
            None => r.owner.is_none_or(|c| facts.returned_async.contains(&c)),
        })
        .collect()
}

/// What the failure put into a success at a site in fn `at` is: a helper's text when it was
/// made in another fn.
pub(crate) fn why_text(cx: &Cx<'_>, why: &Origin, at: FnId) -> String {
    let program = &cx.a.program;
    if why.via.is_some() || why.site.func != at {
        let helper = program.name(why.site.func);
        // A helper that returns a report or a result object, not text, returns failure data.
        let ret = cx.a.types.ret(why.site.func);
        if is_text(ret.as_result().map_or(ret, |(ok, _)| ok)) {
            return format!("the text of `{helper}`, which returns failure text,");
        }
        return format!("the failure report `{helper}` returns");
    }
    let name = why
        .local
        .map(|l| program.def(why.site.func).body.local(l).name.clone());
    match (why.fact, name) {
        (Fact::FailText, _) => "this failure text".to_string(),
        (_, Some(n)) => format!("text built from the error `{n}`"),
        (Fact::ErrJson, None) => {
            let text = cx.snippet(cx.site_span(why.site));
            match ["\"success\": false", "\"ok\": false"]
                .iter()
                .find(|m| text.contains(**m))
            {
                Some(m) => format!("text built from failure data (`{m}`)"),
                None => "this failure report".to_string(),
            }
        }
        _ => "text built from an error value".to_string(),
    }
}

fn finding(cx: &Cx<'_>, site: &SuccessSite, reach: &Reach) -> Finding {
    let handler = cx.reached_phrase(reach, false);
    let label = if site.shared_sink {
        "whatever its callers give it is sent with `isError: false`, failure reports too: \
         the model takes them for results"
            .to_string()
    } else {
        format!(
            "{} is sent with `isError: false`: the model takes it for a result",
            why_text(cx, &site.why, site.func)
        )
    };
    let handler_fn = cx.a.program.node(reach.handler).func;
    let subject = if site.func == handler_fn {
        handler.clone()
    } else {
        format!(
            "`{}`, reached from {handler},",
            cx.a.program.name(site.func)
        )
    };
    let mut finding = Finding::new(
        ErrorAsSuccess::NAME,
        site.at,
        format!("{subject} reports a failure as a successful result"),
    )
    .label(label);
    for note in cx.chain_notes(reach) {
        finding = finding.note(note);
    }
    finding = finding.note("clients and models key on `isError` to tell a failed call from data");
    let Some(sdk) = cx.sdk else { return finding };
    if site.shared_sink {
        return finding
            .help("tell the outcomes apart here: answer a failed one with an `isError` result");
    }
    let rename = site.ctor_name.and_then(|ident| {
        let method = cx.snippet(ident);
        sdk.error_variant_of(method).map(|m| (ident, m))
    });
    if let Some((ident, replacement)) = rename {
        if site.maybe {
            // Renaming the constructor would also mark the paths that succeed as errors.
            return finding.help(format!(
                "the result carries this failure on some paths only: answer those with \
                 `CallToolResult::{replacement}(..)` and keep the others a success"
            ));
        }
        return finding.fix(
            format!("mark the result as an error: `CallToolResult::{replacement}(..)`"),
            vec![Edit {
                span: ident,
                replacement: replacement.to_string(),
            }],
            Applicability::MachineApplicable,
        );
    }
    // Where `Err` already becomes an `isError` result, returning it is the fix.
    // (A closure's error type is the SDK's, which a message may not convert into.)
    let closure = cx.handlers.closures.contains(&reach.handler);
    let help = match channel(cx, reach.handler) {
        Channel::ToolError if !closure => "return it as a tool error: `Err(message)`".to_string(),
        Channel::Infallible => {
            "let the tool fail: return `Result<String, String>` and `Err(message)` here".to_string()
        }
        _ => format!(
            "return it as a tool error: `{}`",
            sdk.error_result(cx.node_role(reach.handler), "message")
        ),
    };
    finding.help(help)
}
