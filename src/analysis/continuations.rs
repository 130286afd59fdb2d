//! A dispatcher may hand its request on before it selects a tool: `call_tool` calls
//! `self.route(request).await`, and `route` (or a fn it hands the request to in turn) is the
//! one that `match`es on the tool's name. Such fns carry the dispatcher's selection on. A
//! catch-all arm there answers a name no tool has, the arms run the tools, and none of them is
//! a tool itself, whatever its error type: moving a dispatcher's body into a helper does not
//! change what the server answers.

use super::Analysis;
use super::program::FnId;
use crate::model::ir::{Body, ExprId, ExprKind, Name, PatKind};
use crate::sdk::Role;

/// Per fn, the dispatcher whose selection of a tool it carries on: a crate fn that a
/// dispatcher (or such a fn) calls before it has selected a tool, and that selects by the
/// tool's name itself or through such calls of its own.
pub(super) fn continuations(a: &Analysis<'_>, roles: &[Role]) -> Vec<Option<FnId>> {
    let program = &a.program;
    let leads = leads_to_selection(a);
    let mut out: Vec<Option<FnId>> = vec![None; roles.len()];
    let mut work: Vec<(FnId, FnId)> = program
        .fn_ids()
        .filter(|&f| roles[f as usize] == Role::Dispatcher && program.is_own(f))
        .map(|f| (f, f))
        .collect();
    // Each fn is pushed at most once (when `out` is first set for it): linear in the calls.
    while let Some((f, dispatcher)) = work.pop() {
        // A fn the whole body hands the request to runs as the dispatcher itself, however
        // it selects the tool (a registry, a router).
        let whole = forwarded_whole(a, f);
        for t in calls_before_selection(a, f) {
            // A fn the SDK would take for a tool by its signature alone (rust-mcp-sdk's
            // `Result<CallToolResult, CallToolError>`) is no tool when it selects one.
            if (leads[t as usize] || whole == Some(t))
                && t != dispatcher
                && matches!(roles[t as usize], Role::None | Role::Tool)
                && out[t as usize].is_none()
            {
                out[t as usize] = Some(dispatcher);
                work.push((t, dispatcher));
            }
        }
    }
    out
}

/// Per fn, whether it selects a tool by name, itself or through a crate fn it calls before
/// selecting: a walk back along those calls from the fns that select, each fn seen once.
fn leads_to_selection(a: &Analysis<'_>) -> Vec<bool> {
    let program = &a.program;
    let n = a.facts.len();
    let mut callers: Vec<Vec<FnId>> = vec![Vec::new(); n];
    for f in program.fn_ids().filter(|&f| program.is_own(f)) {
        for t in calls_before_selection(a, f) {
            callers[t as usize].push(f);
        }
    }
    let mut leads: Vec<bool> = (0..n)
        .map(|f| !a.facts[f].tool_arm_exprs.is_empty())
        .collect();
    let mut stack: Vec<usize> = (0..n).filter(|&f| leads[f]).collect();
    while let Some(t) = stack.pop() {
        for &f in &callers[t] {
            if !leads[f as usize] {
                leads[f as usize] = true;
                stack.push(f as usize);
            }
        }
    }
    leads
}

/// The crate fns `f` calls by type or path outside the arms where it has selected a tool (a
/// call inside such an arm runs that tool). Calls in closures are the closure body's: their
/// expressions are not the fn's, so they are left out.
fn calls_before_selection<'a>(a: &'a Analysis<'_>, f: FnId) -> impl Iterator<Item = FnId> + 'a {
    let facts = &a.facts[f as usize];
    a.resolved[f as usize]
        .calls
        .iter()
        .filter(move |c| {
            !c.may && c.owner.is_none() && facts.tool_arm_exprs.binary_search(&c.expr).is_err()
        })
        .flat_map(|c| c.targets.iter().copied())
        .filter(move |&t| t != f && a.program.is_own(t))
}

/// The crate fns whose result, unchanged, is the value of an arm where `f` has selected a
/// tool (`"fetch" => self.fetch(url).await`): each runs that tool. A fn called for part of
/// an arm's work (`let args = parse(request)?;`) is the tool code's helper, not a tool.
pub(super) fn arm_tools(a: &Analysis<'_>, f: FnId) -> Vec<FnId> {
    let body = &a.program.def(f).body;
    let facts = &a.facts[f as usize];
    let resolved = &a.resolved[f as usize];
    let mut out = Vec::new();
    let mut arm_value = |e: ExprId| {
        let call = forwarded_call(body, e);
        if facts.tool_arm_exprs.binary_search(&call).is_err() {
            return;
        }
        for i in resolved.at(call) {
            let c = &resolved.calls[i as usize];
            if !c.may && c.owner.is_none() {
                out.extend(c.targets.iter().copied().filter(|&t| a.program.is_own(t)));
            }
        }
    };
    for e in &body.exprs {
        match &e.kind {
            ExprKind::Match { arms, .. } => arms.iter().for_each(|arm| arm_value(arm.body)),
            ExprKind::If { then, .. } => arm_value(*then),
            ExprKind::Return(Some(v)) => arm_value(*v),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The call whose result `e` is, through blocks' tails, `.await`, `return` and `?`.
fn forwarded_call(body: &Body, mut e: ExprId) -> ExprId {
    loop {
        e = body.value_of(e);
        match &body.expr(e).kind {
            ExprKind::Await(inner) | ExprKind::Return(Some(inner)) => e = *inner,
            ExprKind::Try { expr, .. } => e = *expr,
            _ => return e,
        }
    }
}

/// A fn the SDK takes for a tool by its signature, whose every caller in the crate is a tool
/// that returns its value unchanged (`fn call_tool(&self) -> R { self.run() }` with `run`
/// of the same signature), is that tool's body, not a tool of its own.
pub(super) fn demote_tool_bodies(
    a: &Analysis<'_>,
    roles: &mut [Role],
    by_signature: impl Fn(FnId) -> bool,
) {
    let program = &a.program;
    // Per fn: (called by a tool that forwards it, called otherwise).
    let mut calls = vec![(false, false); roles.len()];
    for f in program.fn_ids().filter(|&f| program.is_own(f)) {
        let tool = matches!(roles[f as usize], Role::Tool | Role::TraitTool);
        let returned = &a.facts[f as usize].returned_calls;
        for c in &a.resolved[f as usize].calls {
            let forward =
                tool && !c.may && c.owner.is_none() && returned.binary_search(&c.expr).is_ok();
            for &t in c.targets.iter().filter(|&&t| t != f) {
                let entry = &mut calls[t as usize];
                if forward {
                    entry.0 = true;
                } else {
                    entry.1 = true;
                }
            }
        }
    }
    for f in program.fn_ids() {
        if roles[f as usize] == Role::Tool && calls[f as usize] == (true, false) && by_signature(f)
        {
            roles[f as usize] = Role::None;
        }
    }
}

/// Per fn, whether a dispatcher's whole body hands the request to it (through a few such
/// wrappers): it runs as that dispatcher.
pub(super) fn dispatcher_bodies(a: &Analysis<'_>, roles: &[Role]) -> Vec<bool> {
    let mut out = vec![false; roles.len()];
    for f in a.program.fn_ids() {
        if roles[f as usize] != Role::Dispatcher {
            continue;
        }
        let mut at = f;
        for _ in 0..4 {
            match forwarded_whole(a, at) {
                Some(t) if !out[t as usize] && roles[t as usize] != Role::Dispatcher => {
                    out[t as usize] = true;
                    at = t;
                }
                _ => break,
            }
        }
    }
    out
}

/// Per handler fn, the fn that is its body: the one its whole body hands its parameters to
/// (through a few such wrappers), when no other code calls that fn. Its exits are the
/// handler's: moving a handler's body into a helper does not move where its failures are.
pub(super) fn handler_bodies(a: &Analysis<'_>, roles: &[Role]) -> Vec<Option<FnId>> {
    let program = &a.program;
    let whole: Vec<Option<FnId>> = program
        .fn_ids()
        .map(|f| program.is_own(f).then(|| forwarded_whole(a, f)).flatten())
        .collect();
    // Per fn, whether some crate code calls it other than as one handler's whole body: a
    // fn that is the whole body of several handlers is a helper they share.
    let mut shared = vec![false; roles.len()];
    let mut bodies_of = vec![0u32; roles.len()];
    for f in program.fn_ids().filter(|&f| program.is_own(f)) {
        for c in &a.resolved[f as usize].calls {
            for &t in &c.targets {
                let as_body = whole[f as usize] == Some(t) && !c.may;
                shared[t as usize] |= !as_body;
                bodies_of[t as usize] += u32::from(as_body);
            }
        }
    }
    for (s, &n) in shared.iter_mut().zip(&bodies_of) {
        *s |= n > 1;
    }
    let mut out = vec![None; roles.len()];
    for f in program.fn_ids() {
        if !roles[f as usize].is_handler() {
            continue;
        }
        let mut body = None;
        let mut at = f;
        for _ in 0..4 {
            match whole[at as usize] {
                Some(t) if roles[t as usize] == Role::None && !shared[t as usize] && t != f => {
                    body = Some(t);
                    at = t;
                }
                _ => break,
            }
        }
        out[f as usize] = body;
    }
    out
}

/// The one crate fn fn `f` calls with its own parameters (and `self`) for its result,
/// awaited or not: `f`'s only value and only way to fail (statements beside it, a log line,
/// change neither).
pub fn forwarded_whole(a: &Analysis<'_>, f: FnId) -> Option<FnId> {
    let program = &a.program;
    let body = &program.def(f).body;
    let root = body.root?;
    let value = body.value_of(root);
    let call = body.peel(value);
    let facts = &a.facts[f as usize];
    let within = body.expr(value).span;
    let only_exit = facts.exits.iter().all(|x| {
        let at = body.expr(x.at).span;
        within.start <= at.start && at.end <= within.end
    });
    if facts.returned_calls != [call] || !only_exit {
        return None;
    }
    let (receiver, args) = match &body.expr(call).kind {
        ExprKind::Call { args, .. } => (None, args),
        ExprKind::MethodCall { receiver, args, .. } => (Some(*receiver), args),
        _ => return None,
    };
    if !receiver
        .into_iter()
        .chain(args.iter().copied())
        .all(|e| own_value(a, f, body, e))
    {
        return None;
    }
    let mut targets = a.resolved[f as usize]
        .targets(call)
        .filter(|c| !c.may)
        .flat_map(|c| c.targets.iter().copied());
    match (targets.next(), targets.next()) {
        (Some(t), None) if t != f && program.is_own(t) => Some(t),
        _ => None,
    }
}

/// Whether argument `e` (of fn `f`) is one of `f`'s parameters, `self`, a value made of
/// nothing (a unit struct, a constant, a literal), or a parameter rebuilt from the names its
/// pattern bound (`Parameters(args)` for a parameter written `Parameters(args): Parameters<T>`):
/// the callee gets the request and nothing computed from it.
fn own_value(a: &Analysis<'_>, f: FnId, body: &Body, e: ExprId) -> bool {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Local(_) | ExprKind::SelfValue | ExprKind::Path(_) | ExprKind::Lit(_) => true,
        ExprKind::Call { func, args } => match &body.expr(*func).kind {
            ExprKind::Path(p) => rebuilds_a_parameter(a, f, body, p, args),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `path(args..)` puts back together a parameter of `f` that its pattern took apart:
/// the same tuple struct, and each argument the name bound at that position.
fn rebuilds_a_parameter(
    a: &Analysis<'_>,
    f: FnId,
    body: &Body,
    path: &[Name],
    args: &[ExprId],
) -> bool {
    let imports = &a.program.file_ir(f).imports;
    let called = imports.resolve_segments(path);
    a.program.def(f).params.iter().any(|param| {
        let PatKind::TupleStruct {
            path: pat_path,
            elems,
        } = &body.pat(body.untyped(param.pat)).kind
        else {
            return false;
        };
        elems.len() == args.len()
            && imports.resolve_segments(pat_path) == called
            && elems.iter().zip(args).all(|(&p, &x)| {
                matches!((&body.pat(body.untyped(p)).kind, &body.expr(body.peel(x)).kind),
                    (PatKind::Bind { local, .. }, ExprKind::Local(l)) if local == l)
            })
    })
}
