//! Writes to stdout in a server whose stdout carries the JSON-RPC stream.

use std::collections::HashSet;

use super::cx::Cx;
use super::{Lint, declare_lint};
use crate::analysis::facts::{StdoutKind, StdoutSite};
use crate::analysis::program::FnId;
use crate::diagnostic::{Applicability, Edit, Finding, Span};

declare_lint!(
    StdoutInStdioServer,
    "stdout_in_stdio_server",
    Deny,
    "correctness",
    "a write to stdout in a stdio MCP server corrupts its JSON-RPC stream"
);

/// A help message with its edits.
type FixSpec = (String, Vec<Edit>, Applicability);

impl Lint for StdoutInStdioServer {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut seen: HashSet<Span> = HashSet::new();
        if !cx.stdio.serves_stdio() {
            return out;
        }
        for f in cx.a.program.fn_ids() {
            for site in &cx.a.facts[f as usize].stdout {
                let node = cx.node(f, site.owner);
                if !cx.stdio.on_serving_path(cx.a, f, node, &site.place) {
                    continue;
                }
                if let Some(finding) = finding(cx, f, site)
                    && seen.insert(finding.span)
                {
                    out.push(finding);
                }
            }
        }
        out
    }
}

fn finding(cx: &Cx<'_>, f: FnId, site: &StdoutSite) -> Option<Finding> {
    let own_responses = cx.sdk.is_some_and(|s| s.writes_own_responses());
    let fn_name = cx.a.program.name(f);
    let span = cx.span(site.at.func, site.span);
    let (message, label, help): (String, &str, Option<FixSpec>) = match &site.kind {
        StdoutKind::Print { bare: true, .. } | StdoutKind::Write { bare: true } if own_responses => {
            return None;
        }
        StdoutKind::Print { name, name_span, .. } => (
            format!("`{name}!` in `{fn_name}` writes to stdout, the JSON-RPC channel of this stdio server"),
            "the client reads this text as a protocol message",
            Some((
                format!("print to stderr instead: `e{name}!`"),
                vec![Edit {
                    span: cx.span(f, *name_span),
                    replacement: format!("e{name}"),
                }],
                Applicability::MachineApplicable,
            )),
        ),
        StdoutKind::Write { .. } => (
            format!("a write to stdout in `{fn_name}` corrupts the JSON-RPC stream of this stdio server"),
            "these bytes land between JSON-RPC messages",
            Some((
                "write to `std::io::stderr()` instead".into(),
                Vec::new(),
                Applicability::MaybeIncorrect,
            )),
        ),
        StdoutKind::Logger { installs, writer } => {
            let root = root_path(cx, site.at);
            let verb = if *installs { "installs" } else { "builds" };
            let help = match (installs, writer) {
                (true, _) => (
                    "build the subscriber with a stderr writer: `tracing_subscriber::fmt().with_writer(std::io::stderr).init()`".into(),
                    Vec::new(),
                    Applicability::MaybeIncorrect,
                ),
                // The chain's own writer is replaced: a second writer would not win.
                (false, Some(w)) => (
                    "send logs to stderr: `.with_writer(std::io::stderr)`".into(),
                    vec![Edit {
                        span: Span {
                            start: cx.call_head_span(*w).start,
                            ..cx.site_span(*w)
                        },
                        replacement: "with_writer(std::io::stderr)".into(),
                    }],
                    Applicability::MachineApplicable,
                ),
                (false, None) => (
                    "send logs to stderr: `.with_writer(std::io::stderr)`".into(),
                    vec![Edit {
                        span: Span {
                            start: span.end,
                            ..span
                        },
                        replacement: ".with_writer(std::io::stderr)".into(),
                    }],
                    Applicability::MachineApplicable,
                ),
            };
            (
                format!("`{root}()` {verb} a fmt subscriber that logs to stdout, the JSON-RPC channel of this stdio server"),
                "every log line (the SDK's own included) lands on stdout between JSON-RPC messages",
                Some(help),
            )
        }
        StdoutKind::Child { method } => (
            format!("a child process started with `.{method}()` in `{fn_name}` inherits stdout, the JSON-RPC channel of this stdio server"),
            "the child's output goes straight into the JSON-RPC stream",
            Some((
                "capture or discard its output: `.stdout(std::process::Stdio::null())` before this call, or `.output()`".into(),
                Vec::new(),
                Applicability::MaybeIncorrect,
            )),
        ),
        StdoutKind::LoggerCrate { what } => {
            if what.contains("simple_logger")
                && cx
                    .package
                    .dependency("simple_logger")
                    .is_some_and(|d| d.features.iter().any(|x| x == "stderr"))
            {
                return None;
            }
            (
                format!("{what} logs to stdout, the JSON-RPC channel of this stdio server"),
                "log lines land between JSON-RPC messages",
                Some(("log to stderr instead".into(), Vec::new(), Applicability::MaybeIncorrect)),
            )
        }
    };
    let mut finding = Finding::new(StdoutInStdioServer::NAME, span, message)
        .label(label)
        .note("a stdio server's stdout must carry JSON-RPC messages only; log to stderr");
    if let Some(transport) = cx.stdio.transport
        && transport.file == span.file
    {
        finding = finding.secondary(transport, "the server speaks JSON-RPC over stdio here");
    }
    if let Some((message, edits, applicability)) = help {
        finding = finding.fix(message, edits, applicability);
    }
    Some(finding)
}

/// The path of the call that builds the logger, resolved through imports
/// (`tracing_subscriber::fmt::layer`).
fn root_path(cx: &Cx<'_>, at: crate::analysis::program::Site) -> String {
    let def = cx.a.program.def(at.func);
    let body = &def.body;
    if let crate::model::ir::ExprKind::Call { func, .. } = &body.expr(at.expr).kind
        && let crate::model::ir::ExprKind::Path(p) = &body.expr(*func).kind
    {
        return cx
            .a
            .program
            .file_ir(at.func)
            .imports
            .resolve_segments(p)
            .join("::");
    }
    let text = cx.snippet(cx.site_span(at));
    text.split('(').next().unwrap_or(text).trim().to_string()
}
