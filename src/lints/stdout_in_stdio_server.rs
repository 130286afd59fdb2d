//! Writes to stdout in a server whose stdout carries the JSON-RPC stream.

use syn::spanned::Spanned;

use super::exprs::{call_path, local_ident, macro_args, macro_name, peel};
use super::{Lint, declare_lint};
use crate::diagnostic::{Applicability, Edit, Finding, Span};
use crate::facts::Facts;
use crate::model::Candidate;
use crate::model::walk::ExprCx;
use crate::source::span_of;

declare_lint!(
    StdoutInStdioServer,
    "stdout_in_stdio_server",
    Deny,
    "correctness",
    "a write to stdout in a stdio MCP server corrupts its JSON-RPC stream"
);

enum Site {
    /// `print!`/`println!`, with the span of the macro name.
    PrintMacro {
        name: String,
        name_span: Span,
        /// Writes nothing but formatted values (`println!("{}", json)`): how a hand-rolled
        /// server sends its responses.
        bare: bool,
    },
    /// `write!(io::stdout(), ..)`, `stdout.write_all(..)`; `bare` as above.
    StdoutWrite {
        bare: bool,
    },
    /// A `tracing_subscriber` fmt subscriber or layer; `root` is the call that creates it.
    FmtSubscriber {
        what: String,
        root: Span,
    },
    /// `.with_writer(..)` on the chain rooted at `root`.
    Writer {
        root: Span,
        to_stdout: bool,
    },
    ChildProcess {
        method: String,
    },
    Logger {
        what: String,
    },
}

/// A site with the `if` flags it runs under.
struct Entry {
    site: Site,
    gates: Vec<String>,
}

fn entry(cx: &ExprCx<'_>, site: Site) -> Entry {
    Entry {
        site,
        gates: cx.state.gates.clone(),
    }
}

/// A help message with its edits.
type FixSpec = (String, Vec<Edit>, Applicability);

/// Whether `expr` is `stdout()` / `io::stdout()` / `stdout().lock()` / a local named after it.
fn is_stdout(cx: &ExprCx<'_>, expr: &syn::Expr) -> bool {
    if crate::budget::helper_too_deep() {
        return false;
    }
    match peel(expr) {
        syn::Expr::MethodCall(m) if m.method == "lock" => is_stdout(cx, &m.receiver),
        syn::Expr::Call(_) => call_path(peel(expr)).is_some_and(|(path, _)| {
            let resolved = cx.imports.resolve_segments(&path);
            resolved.last().is_some_and(|s| s == "stdout")
                && resolved.len() >= 2
                && resolved[resolved.len() - 2] == "io"
        }),
        _ => local_ident(expr).is_some_and(|n| n == "stdout" || n == "stdout_lock"),
    }
}

/// A format string with nothing but placeholders and whitespace (`"{}"`, `"{json}\\n"`).
fn is_bare_template(template: &syn::Expr) -> bool {
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(s),
        ..
    }) = template
    else {
        return true;
    };
    let text = s.value();
    let mut depth = 0;
    text.chars().all(|c| match c {
        '{' => {
            depth += 1;
            true
        }
        '}' => {
            depth -= 1;
            true
        }
        c if depth > 0 => c != '{',
        c => c.is_whitespace(),
    })
}

/// The first call of a method chain (`a().b().c()` → `a()`).
/// How far along a method chain the chain helpers look: bounded, so that a chain of n calls
/// costs O(n), not O(n²).
const CHAIN_LINKS: usize = 256;

fn chain_root(expr: &syn::Expr) -> &syn::Expr {
    let mut cur = peel(expr);
    for _ in 0..CHAIN_LINKS {
        match cur {
            syn::Expr::MethodCall(m) => cur = peel(&m.receiver),
            _ => break,
        }
    }
    cur
}

fn chain_has_method(expr: &syn::Expr, names: &[&str]) -> bool {
    let mut cur = peel(expr);
    for _ in 0..CHAIN_LINKS {
        match cur {
            syn::Expr::MethodCall(m) if names.contains(&m.method.to_string().as_str()) => {
                return true;
            }
            syn::Expr::MethodCall(m) => cur = peel(&m.receiver),
            _ => return false,
        }
    }
    false
}

/// A `tracing_subscriber` call that creates a fmt subscriber or layer writing to stdout by
/// default; `Some(true)` when it also installs it on its own (`fmt::init()`).
fn fmt_root(cx: &ExprCx<'_>, path: &[String]) -> Option<bool> {
    let resolved = cx.imports.resolve_segments(path);
    if resolved.first().map(String::as_str) != Some("tracing_subscriber") {
        return None;
    }
    let tail: Vec<&str> = resolved[1..].iter().map(String::as_str).collect();
    match tail.as_slice() {
        ["fmt"] | ["fmt", "layer"] | ["fmt", "Layer", "new" | "default"] => Some(false),
        [
            "fmt",
            "Subscriber" | "SubscriberBuilder",
            "builder" | "new" | "default",
        ]
        | ["FmtSubscriber", "builder" | "new" | "default"] => Some(false),
        ["fmt", "init" | "try_init"] => Some(true),
        _ => None,
    }
}

/// Writers that keep stdout clean.
fn writer_is_stdout(arg: &syn::Expr) -> bool {
    let text = quote::ToTokens::to_token_stream(arg).to_string();
    text.contains("stdout") && !text.contains("stderr")
}

impl Lint for StdoutInStdioServer {
    lint_meta!();

    fn check_macro(&self, cx: &ExprCx<'_>, mac: &syn::Macro, out: &mut Vec<Candidate>) {
        let name = macro_name(mac);
        let site = match name.as_str() {
            "print" | "println" => Site::PrintMacro {
                name_span: span_of(
                    cx.file,
                    mac.path
                        .segments
                        .last()
                        .map_or_else(|| mac.path.span(), |s| s.ident.span()),
                ),
                name,
                bare: macro_args(mac).first().is_none_or(is_bare_template),
            },
            "write" | "writeln" => {
                let args = macro_args(mac);
                if !args.first().is_some_and(|a| is_stdout(cx, a)) {
                    return;
                }
                Site::StdoutWrite {
                    bare: args.get(1).is_none_or(is_bare_template),
                }
            }
            _ => return,
        };
        let span = span_of(cx.file, mac.path.span());
        let end = span_of(cx.file, mac.delimiter.span().join()).end;
        out.push(cx.candidate(Self::NAME, Span { end, ..span }, entry(cx, site)));
    }

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        match expr {
            syn::Expr::MethodCall(m) => {
                let method = m.method.to_string();
                let site = match method.as_str() {
                    "write_all" | "write" | "write_fmt" | "write_str"
                        if is_stdout(cx, &m.receiver) =>
                    {
                        Site::StdoutWrite { bare: true }
                    }
                    "with_writer" | "with_test_writer" => {
                        let root = chain_root(&m.receiver);
                        let to_stdout = method == "with_test_writer"
                            || m.args.first().is_some_and(writer_is_stdout);
                        Site::Writer {
                            root: cx.span(root),
                            to_stdout,
                        }
                    }
                    "status" | "spawn" => {
                        let root = chain_root(&m.receiver);
                        let Some((path, _)) = call_path(root) else {
                            return;
                        };
                        let resolved = cx.imports.resolve_segments(&path);
                        let is_command = resolved.ends_with(&["Command".into(), "new".into()])
                            && resolved.first().is_some_and(|r| r == "std" || r == "tokio");
                        if !is_command || chain_has_method(&m.receiver, &["stdout"]) {
                            return;
                        }
                        Site::ChildProcess { method }
                    }
                    "target" => {
                        let text = quote::ToTokens::to_token_stream(&m.args).to_string();
                        if !text.contains("Stdout")
                            || !chain_has_method(expr, &["target"])
                            || !quote::ToTokens::to_token_stream(&m.receiver)
                                .to_string()
                                .contains("env_logger")
                                && !cx
                                    .imports
                                    .names_any(&["Target".into()], &[&["env_logger", "Target"]])
                        {
                            return;
                        }
                        Site::Logger {
                            what: "`env_logger` with `Target::Stdout`".into(),
                        }
                    }
                    _ => return,
                };
                let span = match site {
                    Site::StdoutWrite { .. } | Site::ChildProcess { .. } | Site::Logger { .. } => {
                        cx.span(expr)
                    }
                    _ => span_of(cx.file, m.method.span()),
                };
                out.push(cx.candidate(Self::NAME, span, entry(cx, site)));
            }
            syn::Expr::Call(_) => {
                let Some((path, _)) = cx.call else {
                    return;
                };
                if let Some(installs) = fmt_root(cx, path) {
                    let what = cx.imports.resolve_segments(path).join("::");
                    let root = cx.span(expr);
                    let what = if installs {
                        format!("`{what}()` installs a fmt subscriber that")
                    } else {
                        format!("`{what}()` builds a fmt subscriber that")
                    };
                    out.push(cx.candidate(
                        Self::NAME,
                        root,
                        entry(cx, Site::FmtSubscriber { what, root }),
                    ));
                    return;
                }
                let resolved = cx.imports.resolve_segments(path);
                if resolved.first().is_some_and(|r| r == "simple_logger")
                    && resolved
                        .last()
                        .is_some_and(|l| l.starts_with("init") || l == "new")
                {
                    out.push(cx.candidate(
                        Self::NAME,
                        cx.span(expr),
                        entry(
                            cx,
                            Site::Logger {
                                what: "`simple_logger` (without its `stderr` feature)".into(),
                            },
                        ),
                    ));
                }
            }
            _ => {}
        }
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let id = facts.fn_id(cand)?;
        let Entry { site, gates } = cand.data.downcast_ref::<Entry>()?;
        if !facts.stdio.on_serving_path(
            facts.files,
            &facts.graph,
            id,
            (&cand.branch, cand.span.start),
            gates,
        ) {
            return None;
        }
        let f = facts.fn_model(id);
        let (message, label, finding_help): (String, &str, Option<FixSpec>) = match site {
            Site::Writer { .. } => return None,
            Site::PrintMacro { bare: true, .. } | Site::StdoutWrite { bare: true }
                if facts.sdk.is_some_and(|s| s.writes_own_responses()) =>
            {
                return None;
            }
            Site::PrintMacro { name, name_span, .. } => (
                format!("`{name}!` in `{}` writes to stdout, the JSON-RPC channel of this stdio server", f.display_name()),
                "the client reads this text as a protocol message",
                Some((
                    format!("print to stderr instead: `e{name}!`"),
                    vec![Edit { span: *name_span, replacement: format!("e{name}") }],
                    Applicability::MachineApplicable,
                )),
            ),
            Site::StdoutWrite { .. } => (
                format!("a write to stdout in `{}` corrupts the JSON-RPC stream of this stdio server", f.display_name()),
                "these bytes land between JSON-RPC messages",
                Some(("write to `std::io::stderr()` instead".into(), Vec::new(), Applicability::MaybeIncorrect)),
            ),
            Site::FmtSubscriber { what, root } => {
                let writer = facts.files.iter().flat_map(|f| &f.candidates).find_map(|c| {
                    match c.data.downcast_ref::<Entry>().map(|e| &e.site) {
                        Some(Site::Writer { root: r, to_stdout }) if r == root => Some(*to_stdout),
                        _ => None,
                    }
                });
                if writer == Some(false) {
                    return None;
                }
                let insert = Edit {
                    span: Span { start: root.end, ..*root },
                    replacement: ".with_writer(std::io::stderr)".into(),
                };
                let installs = what.contains("installs");
                (
                    format!("{what} logs to stdout, the JSON-RPC channel of this stdio server"),
                    "every log line (the SDK's own included) lands on stdout between JSON-RPC messages",
                    Some(if installs {
                        (
                            "build the subscriber with a stderr writer: `tracing_subscriber::fmt().with_writer(std::io::stderr).init()`".into(),
                            Vec::new(),
                            Applicability::MaybeIncorrect,
                        )
                    } else {
                        (
                            "send logs to stderr: `.with_writer(std::io::stderr)`".into(),
                            vec![insert],
                            Applicability::MachineApplicable,
                        )
                    }),
                )
            }
            Site::ChildProcess { method } => (
                format!("a child process started with `.{method}()` in `{}` inherits stdout, the JSON-RPC channel of this stdio server", f.display_name()),
                "the child's output goes straight into the JSON-RPC stream",
                Some((
                    "capture or discard its output: `.stdout(std::process::Stdio::null())` before this call, or `.output()`".into(),
                    Vec::new(),
                    Applicability::MaybeIncorrect,
                )),
            ),
            Site::Logger { what } => {
                if what.contains("simple_logger")
                    && facts
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
        let mut finding = Finding::new(Self::NAME, cand.span, message)
            .label(label)
            .note("a stdio server's stdout must carry JSON-RPC messages only; log to stderr");
        if let Some(transport) = facts.stdio.transport
            && transport.file == cand.span.file
        {
            finding = finding.secondary(transport, "the server speaks JSON-RPC over stdio here");
        }
        if let Some((message, edits, applicability)) = finding_help {
            finding = finding.fix(message, edits, applicability);
        }
        Some(finding)
    }
}
