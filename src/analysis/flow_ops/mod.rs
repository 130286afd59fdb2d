//! What calls, method calls, struct literals and `json!` values make of their inputs: SDK
//! constructors (protocol errors with their codes, success and error results, text
//! content), crate fns (their summaries), the `Result`/`Option` combinators, text
//! conversions, and the sites these reveal (error codes, failures put into successes).

mod calls;
mod infallible;
mod literals;
mod macros;
mod methods;
mod sites;
mod unwraps;

use super::calls::CallKind;
use super::facts::*;
use super::flow::{Flow, variant_arms};
use super::program::FnId;
use super::text;
use super::value::*;
use crate::model::ir::*;
use crate::sdk::ErrorCtor;

/// Methods whose result carries their receiver's origins (text and error conversions,
/// borrowing, JSON access).
const PASSTHROUGH: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_ref",
    "as_deref",
    "trim",
    "trim_start",
    "trim_end",
    "to_lowercase",
    "to_uppercase",
    "replace",
    "borrow",
    "as_object",
    "as_array",
    "to_vec",
    "into_owned",
    "as_bytes",
    "into_bytes",
    "concat",
    "join",
    "into_iter",
    "iter",
    "collect",
    "cloned",
    "copied",
    // Iterator adapters that keep (some of) the receiver's elements: a list made from the
    // caller's list by them is as long as the caller chooses.
    "filter",
    "filter_map",
    "skip",
    "take",
    "rev",
    "lock",
    "unwrap_or_default",
    // `Option<Result<T, E>>` ⇄ `Result<Option<T>, E>`: the same error.
    "transpose",
];

/// Integer methods whose result is one of their operands or made from them: a number the
/// caller chose stays chosen through them (`args.count.min(16)`).
pub(in crate::analysis) const NUMERIC_COMBINATORS: &[&str] = &[
    "min",
    "max",
    "clamp",
    "saturating_add",
    "saturating_sub",
    "saturating_mul",
    "wrapping_add",
    "wrapping_sub",
    "abs_diff",
    "div_ceil",
    "next_multiple_of",
];

impl Flow<'_, '_> {
    pub(super) fn origin(&self, fact: Fact, at: ExprId) -> Origin {
        Origin {
            fact,
            part: Part::Plain,
            site: self.site(at),
            via: None,
            wrap: None,
            local: None,
        }
    }

    /// Evaluates arguments with call site `id` open (for `within`), under a guard when the
    /// callee is one.
    pub(super) fn args_within(&mut self, id: ExprId, args: &[ExprId], guard: bool) -> Vec<Val> {
        let site = self.place_calls(id);
        if let Some(s) = site {
            self.open.push(s);
        }
        if guard {
            self.catch += 1;
        }
        let vals = self.eval_all(args);
        if guard {
            self.catch -= 1;
        }
        if site.is_some() {
            self.open.pop();
        }
        vals
    }

    pub(super) fn crate_targets(&self, id: ExprId, kind: CallKind) -> Vec<FnId> {
        self.resolved
            .targets(id)
            .filter(|c| c.kind == kind && !c.may)
            .flat_map(|c| c.targets.iter().copied())
            .collect()
    }
}

/// How telling a failure origin is for a message (lower is better).
pub fn failure_rank(o: &Origin) -> u8 {
    match (o.fact, o.local.is_some()) {
        (Fact::ErrText { .. } | Fact::ErrJson, true) => 0,
        (Fact::ErrValue, true) => 1,
        (Fact::ErrText { .. }, false) => 2,
        (Fact::ErrJson, false) => 3,
        (Fact::FailText, _) => 4,
        _ => 5,
    }
}

/// Error values a fn makes (rather than forwards).
fn is_made_error(f: Fact) -> bool {
    matches!(
        f,
        Fact::Protocol(_) | Fact::RpcErrorObject { .. } | Fact::Foreign { .. }
    )
}

/// An error that rejects the arguments: -32602 / `invalid_params`.
fn is_invalid_params(f: Fact) -> bool {
    match f {
        Fact::Protocol(p) => p.ctor == ErrorCtor::InvalidParams || p.code == Some(-32602),
        Fact::RpcErrorObject { code, request } => code == Some(-32602) && !request,
        _ => false,
    }
}

fn is_error_fact(f: Fact) -> bool {
    matches!(
        f,
        Fact::ErrValue
            | Fact::Foreign { .. }
            | Fact::Protocol(_)
            | Fact::ToolError
            | Fact::RpcErrorObject { .. }
    ) || f.is_failure()
}

fn plain_params(v: &Val) -> Val {
    Val(v
        .iter()
        .filter(|o| o.part == Part::Plain && matches!(o.fact, Fact::Param(_)))
        .copied()
        .collect())
}

fn is_true_literal_expr(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Lit(Lit::Bool(true)) => true,
        ExprKind::Call { func, args } => {
            matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "Some"))
                && args.first().is_some_and(|&a| is_true_literal_expr(body, a))
        }
        _ => false,
    }
}

/// Writers that keep stdout clean: anything but stdout itself (stderr, files, sinks,
/// appenders, test writers excepted).
fn writer_keeps_stdout_clean(body: &Body, w: ExprId) -> bool {
    let mut mentions_stdout = false;
    let mut mentions_stderr = false;
    let mut stack = vec![w];
    let mut steps = 0;
    while let Some(e) = stack.pop() {
        steps += 1;
        if steps > 64 {
            break;
        }
        match &body.expr(e).kind {
            ExprKind::Path(p) => {
                mentions_stdout |= p.iter().any(|s| s == "stdout");
                mentions_stderr |= p.iter().any(|s| s == "stderr");
            }
            ExprKind::Call { func, args } => {
                stack.push(*func);
                stack.extend(args.iter().copied());
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                mentions_stdout |= method == "stdout";
                mentions_stderr |= method == "stderr";
                stack.push(*receiver);
                stack.extend(args.iter().copied());
            }
            ExprKind::Closure(_) | ExprKind::Local(_) => {}
            ExprKind::Ref(i) => stack.push(*i),
            _ => {}
        }
    }
    !mentions_stdout || mentions_stderr
}

/// The span of the last segment of a call's path (`success` in `CallToolResult::success`).
fn last_segment_span(body: &Body, call: ExprId) -> Sp {
    let ExprKind::Call { func, .. } = &body.expr(call).kind else {
        return body.expr(call).span;
    };
    let span = body.expr(*func).span;
    match &body.expr(*func).kind {
        ExprKind::Path(p) => {
            let len = p.last().map_or(0, |s| s.len()) as u32;
            Sp {
                start: span.end.saturating_sub(len),
                end: span.end,
            }
        }
        _ => span,
    }
}
