//! Panics reachable from a handler: no SDK catches them, so the client never gets an answer
//! for that request (or, with `panic = "abort"`, the server dies).

use syn::spanned::Spanned;

use super::exprs::{call_path, macro_name, peel};
use super::{Lint, declare_lint};
use crate::diagnostic::{Finding, Span};
use crate::facts::{Facts, Reach};
use crate::model::Candidate;
use crate::model::walk::{ExprCx, place_key};
use crate::sdk::Channel;
use crate::source::span_of;

declare_lint!(
    PanicInTool,
    "panic_in_tool",
    Warn,
    "correctness",
    "a panic reachable from a tool or request handler leaves the request unanswered"
);

pub(crate) struct Site {
    /// `` `.unwrap()` ``, `` `panic!` ``, ..
    pub what: String,
    pub kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Unwrap,
    Expect,
    Macro,
    Exit,
    Index,
}

const PANIC_MACROS: &[&str] = &[
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "assert",
    "assert_eq",
    "assert_ne",
];

/// Methods whose `unwrap` only fails on lock poisoning.
const LOCK_METHODS: &[&str] = &["lock", "read", "write"];

/// Whether an expression is built from literals and constants only, so an `unwrap` on it
/// cannot fail on caller data (`Regex::new("^a+$").unwrap()`, `"5".parse::<u8>().unwrap()`).
fn is_constant(expr: &syn::Expr) -> bool {
    let mut fuel = CONSTANT_NODES;
    is_constant_within(expr, &mut fuel)
}

/// At most this many nodes are looked at to call an expression constant: bigger ones are
/// taken as data (so a chain of n unwraps costs O(n), not O(n²)).
const CONSTANT_NODES: usize = 64;

fn is_constant_within(expr: &syn::Expr, fuel: &mut usize) -> bool {
    if *fuel == 0 || crate::budget::helper_too_deep() {
        return false;
    }
    *fuel -= 1;
    match peel(expr) {
        syn::Expr::Lit(_) => true,
        syn::Expr::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident.to_string().chars().all(|c| !c.is_lowercase())),
        syn::Expr::Call(c) => {
            matches!(&*c.func, syn::Expr::Path(_))
                && c.args.iter().all(|a| is_constant_within(a, fuel))
        }
        syn::Expr::MethodCall(m) => {
            is_constant_within(&m.receiver, fuel)
                && m.args.iter().all(|a| is_constant_within(a, fuel))
        }
        syn::Expr::Macro(m) => match macro_name(&m.mac).as_str() {
            "concat" => true,
            // `json!({"type": "object"})` with no variables in it.
            "json" => m.mac.tokens.clone().into_iter().all(token_is_constant),
            _ => false,
        },
        syn::Expr::Unary(u) => is_constant_within(&u.expr, fuel),
        _ => false,
    }
}

fn token_is_constant(token: proc_macro2::TokenTree) -> bool {
    if crate::budget::helper_too_deep() {
        return false;
    }
    match token {
        proc_macro2::TokenTree::Ident(i) => i == "true" || i == "false" || i == "null",
        proc_macro2::TokenTree::Group(g) => g.stream().into_iter().all(token_is_constant),
        _ => true,
    }
}

/// The local a method chain starts from (`v.iter().next()` → `v`), and the first method.
fn chain_root(expr: &syn::Expr) -> (Option<String>, Option<String>) {
    let mut cur = peel(expr);
    let mut first = None;
    // A chain longer than this is not a checked local's: bounded, so chains stay linear.
    let mut links = 0..64;
    while let syn::Expr::MethodCall(m) = cur {
        if links.next().is_none() {
            return (None, None);
        }
        first = Some(m.method.to_string());
        cur = peel(&m.receiver);
    }
    (place_key(cur), first)
}

/// An `unwrap` the same fn has made safe: `x.is_some() && x.unwrap()`,
/// `if v.len() == 1 { v.into_iter().next().unwrap() }`,
/// `if s.starts_with(p) { s.strip_prefix(p).unwrap() }`.
fn checked_before(cx: &ExprCx<'_>, receiver: &syn::Expr) -> bool {
    let (root, first) = chain_root(receiver);
    let Some(root) = root else { return false };
    let state = cx.state;
    match first.as_deref() {
        None => state.variant_checked.contains(&root),
        Some("strip_prefix" | "strip_suffix") => state.affix_checked.contains(&root),
        // `if it.peek().is_some() { it.next().unwrap() }`.
        Some("next") if state.variant_checked.contains(&root) => true,
        Some(
            "iter" | "into_iter" | "chars" | "first" | "last" | "next" | "pop" | "keys" | "values",
        ) => state.length_checked.contains(&root),
        _ => false,
    }
}

/// Words with which an `expect` message states an invariant the author has established
/// (`.expect("normalized to an object above")`, `.expect("a TOML document always has a root")`).
const INVARIANT_WORDS: &[&str] = &[
    "always",
    "above",
    "invariant",
    "infallible",
    "cannot fail",
    "can't fail",
    "never fails",
    "guaranteed",
    "checked",
    "validated",
];

fn states_invariant(call: &syn::ExprMethodCall) -> bool {
    if call.method != "expect" {
        return false;
    }
    match call.args.first() {
        Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        })) => {
            let text = s.value().to_lowercase();
            INVARIANT_WORDS.iter().any(|w| text.contains(w))
        }
        _ => false,
    }
}

/// `serde_json::to_string(&value)` and friends: serializing in-memory data fails only for
/// maps with non-string keys or a failing custom `Serialize`, so these unwraps are not
/// reported by default.
fn is_serialization(cx: &ExprCx<'_>, receiver: &syn::Expr) -> bool {
    call_path(peel(receiver)).is_some_and(|(path, _)| {
        let resolved = cx.imports.resolve_segments(&path);
        resolved.first().is_some_and(|r| r == "serde_json")
            && resolved.last().is_some_and(|l| {
                matches!(
                    l.as_str(),
                    "to_value" | "to_string" | "to_string_pretty" | "to_vec" | "to_vec_pretty"
                )
            })
    })
}

fn is_lock_unwrap(receiver: &syn::Expr) -> bool {
    matches!(peel(receiver), syn::Expr::MethodCall(m)
        if m.args.is_empty() && LOCK_METHODS.contains(&m.method.to_string().as_str()))
}

/// Integer-like index expressions: arithmetic, `len()`-based, or a range with a variable
/// bound. A plain name could be a map or `serde_json::Value` key, which does not panic.
fn index_can_panic(index: &syn::Expr) -> bool {
    match peel(index) {
        syn::Expr::Range(r) => [&r.start, &r.end]
            .into_iter()
            .flatten()
            .any(|b| !matches!(peel(b), syn::Expr::Lit(_))),
        syn::Expr::Binary(b) => matches!(b.op, syn::BinOp::Add(_) | syn::BinOp::Sub(_)),
        syn::Expr::MethodCall(m) => m.method == "len",
        _ => false,
    }
}

/// A panic site at this expression: `unwrap`/`expect`, `process::exit`, risky indexing.
pub(crate) fn panic_site(
    cx: &ExprCx<'_>,
    expr: &syn::Expr,
    include_guarded: bool,
) -> Option<(Span, Site)> {
    if cx.fn_idx.is_none() || (cx.state.catch_unwind > 0 && !include_guarded) {
        return None;
    }
    let site = match expr {
        syn::Expr::MethodCall(m) if m.method == "unwrap" || m.method == "expect" => {
            if is_lock_unwrap(&m.receiver)
                || is_serialization(cx, &m.receiver)
                || is_constant(&m.receiver)
                || checked_before(cx, &m.receiver)
                || states_invariant(m)
            {
                return None;
            }
            let start = span_of(cx.file, m.method.span()).start;
            let span = Span {
                start,
                ..cx.span(expr)
            };
            let kind = if m.method == "unwrap" {
                Kind::Unwrap
            } else {
                Kind::Expect
            };
            (span, format!("`.{}()`", m.method), kind)
        }
        syn::Expr::Call(_) => {
            let (path, call) = cx.call?;
            let resolved = cx.imports.resolve_segments(path);
            let is_exit = resolved.len() >= 2
                && resolved[resolved.len() - 2] == "process"
                && matches!(resolved.last().map(String::as_str), Some("exit" | "abort"));
            if !is_exit {
                return None;
            }
            (
                cx.span(call),
                format!("`{}`", resolved.join("::")),
                Kind::Exit,
            )
        }
        syn::Expr::Index(i) => {
            if !index_can_panic(&i.index) {
                return None;
            }
            if place_key(&i.expr).is_some_and(|n| cx.state.length_checked.contains(&n)) {
                return None;
            }
            (cx.span(expr), "indexing".to_string(), Kind::Index)
        }
        _ => return None,
    };
    let (span, what, kind) = site;
    Some((span, Site { what, kind }))
}

/// A panicking macro: `panic!`, `todo!`, `assert!`, ..
pub(crate) fn panic_macro(
    cx: &ExprCx<'_>,
    mac: &syn::Macro,
    include_guarded: bool,
) -> Option<(Span, Site)> {
    let name = macro_name(mac);
    if cx.fn_idx.is_none()
        || (cx.state.catch_unwind > 0 && !include_guarded)
        || !PANIC_MACROS.contains(&name.as_str())
    {
        return None;
    }
    let span = span_of(cx.file, mac.path.span());
    let end = span_of(cx.file, mac.delimiter.span().join()).end;
    Some((
        Span { end, ..span },
        Site {
            what: format!("`{name}!`"),
            kind: Kind::Macro,
        },
    ))
}

/// How a panic site is reached from a handler, when it is: not under a panic guard, and
/// (for indexing) in the handler itself.
/// How a panic site is reached from a handler, when it is: not under a panic guard (the SDK's
/// or the project's), and (for indexing) in the handler itself. With `panic = "abort"` no
/// guard can catch anything, so `under_abort` counts guarded sites too.
pub(crate) fn reached(
    cand: &Candidate,
    site: &Site,
    facts: &Facts<'_>,
    under_abort: bool,
) -> Option<Reach> {
    let reach = if under_abort {
        facts.reach(cand)?
    } else {
        if facts.sdk.is_some_and(|sdk| sdk.catches_panics()) {
            return None;
        }
        let id = facts.fn_id(cand)?;
        if facts.graph.inside_guard(facts.files, id, cand.within) {
            return None;
        }
        facts.panic_reach(cand)?
    };
    // Offsets in helpers are mostly computed from the same data (`find`, `clamp`):
    // indexing is only reported in the handler itself, where arguments arrive.
    if site.kind == Kind::Index && reach.chain.len() > 1 {
        return None;
    }
    Some(reach)
}

impl Lint for PanicInTool {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        if let Some((span, site)) = panic_site(cx, expr, false) {
            out.push(cx.candidate(Self::NAME, span, site));
        }
    }

    fn check_macro(&self, cx: &ExprCx<'_>, mac: &syn::Macro, out: &mut Vec<Candidate>) {
        if let Some((span, site)) = panic_macro(cx, mac, false) {
            out.push(cx.candidate(Self::NAME, span, site));
        }
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let site = cand.data.downcast_ref::<Site>()?;
        let id = facts.fn_id(cand)?;
        let reach = reached(cand, site, facts, false)?;
        let handler = facts.handler_phrase(reach.handler);
        let place = if reach.chain.len() > 1 {
            format!(
                "in `{}`, reached from {handler}",
                facts.fn_model(id).display_name()
            )
        } else {
            format!("in {handler}")
        };
        let verb = match site.kind {
            Kind::Exit => "ends the server process",
            _ => "can panic",
        };
        let mut finding = Finding::new(
            Self::NAME,
            cand.span,
            format!("{} {verb} {place}", site.what),
        )
        .label(match site.kind {
            Kind::Exit => "the server exits: every request in flight is lost",
            _ => "if this panics, the client gets no response for this request",
        });
        if reach.chain.len() > 1 {
            finding = finding.note(format!("call chain: {}{}", handler, facts.via(&reach)));
        }
        finding = finding.note(
            "no MCP SDK catches panics: the request's task dies and the client waits until it times out",
        );
        let handler_channel = facts.graph.channels[reach.handler];
        let in_handler = reach.chain.len() == 1;
        let help = match (site.kind, in_handler, handler_channel) {
            (Kind::Unwrap | Kind::Expect, true, Channel::ToolError) => {
                "return the failure to the model instead: `.map_err(|e| e.to_string())?` for a `Result`, `.ok_or(\"what was missing\")?` for an `Option`".to_string()
            }
            (Kind::Unwrap | Kind::Expect, true, _) => facts.sdk.map_or_else(
                || "handle the `Err`/`None` case and report it as a tool error".to_string(),
                |sdk| {
                    format!(
                        "handle the failure and report it as a tool error:\n    let value = match result {{\n        Ok(value) => value,\n        Err(e) => return {},\n    }};",
                        sdk.error_result(facts.role(reach.handler), "e.to_string()")
                    )
                },
            ),
            (Kind::Unwrap | Kind::Expect, false, _) => {
                "return a `Result` from this helper and let the handler turn `Err` into a tool error".to_string()
            }
            (Kind::Index, ..) => "use `.get(..)` and handle `None` as a tool error".to_string(),
            (Kind::Exit, ..) => "return an error from the handler instead of exiting".to_string(),
            (Kind::Macro, ..) => "return an error result instead of panicking".to_string(),
        };
        Some(finding.help(help))
    }
}
