//! The code that answers a request runs as part of it. A server that reads its requests
//! itself calls its request handler from a loop of its own, then turns the handler's result
//! into the answer it writes: an `Err` into an error object (`ErrorBody::from(e)`), a value
//! into a response. A panic in that code leaves the request unanswered as one in the handler
//! does, so the handler reaches what the answer calls.
//!
//! What holds the result is followed forwards through the caller's body in the order values
//! are made: the locals a `let`, a `match` arm or a combinator's closure binds from it, the
//! code that uses them, and the arms of a `match` on it.

use std::collections::BTreeMap;

use super::Analysis;
use super::calls::CallKind;
use super::graph::Edge;
use super::program::{FnId, NodeId};
use crate::model::ir::{Body, ExprId, ExprKind, PatId, Sp, Stmt};
use crate::sdk::Role;

/// The calls that answer a handler's result in a fn that calls the handler itself, as edges
/// from the handler: from the tool dispatchers it reaches, when it answers other requests
/// too (a `tools/call` arm that hands the request to a dispatcher), whose tools' failures
/// its result carries.
pub(super) fn answer_edges(
    a: &Analysis<'_>,
    roles: &[Role],
    reached: &[Option<super::graph::Reached>],
) -> Vec<(NodeId, Edge)> {
    let program = &a.program;
    // Per fn, the calls of a handler it makes itself and the handlers called.
    let mut answering: Vec<(FnId, Vec<ExprId>, Vec<FnId>)> = Vec::new();
    let mut memo = vec![None; roles.len()];
    for g in program.fn_ids().filter(|&g| program.is_own(g)) {
        // A fn a handler reaches answers within that handler already.
        if reached[program.fn_node(g) as usize].is_some() {
            continue;
        }
        let (mut calls, mut hs) = (Vec::new(), Vec::new());
        for call in &a.resolved[g as usize].calls {
            if call.may || !matches!(call.kind, CallKind::Call | CallKind::Method) {
                continue;
            }
            let behind = |t: &FnId| handler_behind(a, roles, &mut memo, *t);
            if let Some(h) = call.targets.iter().find_map(behind) {
                calls.push(call.expr);
                hs.push(h);
            }
        }
        if !calls.is_empty() {
            hs.sort_unstable();
            hs.dedup();
            answering.push((g, calls, hs));
        }
    }
    if answering.is_empty() {
        return Vec::new();
    }
    let handlers: Vec<FnId> = answering.iter().flat_map(|(_, _, hs)| hs.clone()).collect();
    let sources = sources(a, roles, &handlers);
    let mut out = Vec::new();
    for (g, calls, hs) in answering {
        let res = &a.resolved[g as usize];
        let body = &program.def(g).body;
        let answer = Answer::of(body, &calls);
        let mut from: Vec<NodeId> = hs.iter().flat_map(|&h| sources(h)).collect();
        from.sort_unstable();
        from.dedup();
        for (j, c) in res.calls.iter().enumerate() {
            let sp = body.expr(c.expr).span;
            // Not a handler's call, nor a body such a call sits in.
            if calls.iter().any(|&h| sp.contains(body.expr(h).span)) || !answer.covers(sp) {
                continue;
            }
            let targets: Vec<NodeId> = match (c.kind, c.closure) {
                (CallKind::Closure, Some(k)) => vec![program.closure_node(g, k)],
                _ => c.targets.iter().map(|&t| program.fn_node(t)).collect(),
            };
            for &to in &targets {
                for &src in &from {
                    let edge = Edge {
                        to,
                        func: g,
                        site: j as u32,
                        guarded: c.guarded,
                        may: c.may,
                    };
                    out.push((src, edge));
                }
            }
        }
    }
    out.sort_by_key(|(from, _)| *from);
    out
}

/// The handler fn `t` is: itself, or the one its whole body hands on to, however many fns
/// pass it on so (`fn handle(r) { inner(r) }`). `memo` keeps each fn's answer, so every
/// chain is walked once.
fn handler_behind(
    a: &Analysis<'_>,
    roles: &[Role],
    memo: &mut [Option<Option<FnId>>],
    t: FnId,
) -> Option<FnId> {
    let mut path = Vec::new();
    let mut cur = Some(t);
    let found = loop {
        let Some(f) = cur else { break None };
        if let Some(known) = memo[f as usize] {
            break known;
        }
        if roles[f as usize].is_handler() {
            break Some(f);
        }
        // Marked before the next step: a cycle of forwards meets it and ends.
        memo[f as usize] = Some(None);
        path.push(f);
        cur = super::continuations::forwarded_whole(a, f);
    };
    for f in path {
        memo[f as usize] = Some(found);
    }
    found
}

/// Where the answer to a handler's result is reached from, per handler: the handler, or
/// for a request handler the tool dispatchers it reaches (each found from the handler
/// nearest to it, in one walk from all of them: linear in the graph).
fn sources(a: &Analysis<'_>, roles: &[Role], hs: &[FnId]) -> impl Fn(FnId) -> Vec<NodeId> + use<> {
    let program = &a.program;
    let reach = a
        .graph
        .reach(hs.iter().map(|&h| program.fn_node(h)), |_, _| true);
    let mut by_root: Vec<(NodeId, NodeId)> = program
        .fn_ids()
        .filter(|&f| roles[f as usize] == Role::Dispatcher)
        .filter_map(|f| {
            let n = program.fn_node(f);
            reach[n as usize].map(|r| (r.root, n))
        })
        .collect();
    by_root.sort_unstable();
    let nodes: Vec<NodeId> = program.fn_ids().map(|f| program.fn_node(f)).collect();
    let request: Vec<bool> = roles.iter().map(|&r| r == Role::Request).collect();
    move |h: FnId| {
        let node = nodes[h as usize];
        let first = by_root.partition_point(|&(r, _)| r < node);
        let found: Vec<NodeId> = (by_root[first..].iter())
            .take_while(|&&(r, _)| r == node)
            .map(|&(_, d)| d)
            .collect();
        if request[h as usize] && !found.is_empty() {
            found
        } else {
            vec![node]
        }
    }
}

/// The parts of a body that work on the value of one call.
struct Answer {
    /// Spans that hold the value (the call, uses of the locals bound from it), by start.
    holds: BTreeMap<u32, u32>,
    /// Code that runs on it, disjoint, by start: the arms of a `match` on it, statements
    /// and `let` initialisers that use it, after the call.
    regions: Vec<Sp>,
}

impl Answer {
    /// What works on the values of `calls` (at least one).
    fn of(body: &Body, calls: &[ExprId]) -> Answer {
        // Code after the first call's value is made; each call's value is held.
        let first_end = calls
            .iter()
            .map(|&c| body.expr(c).span.end)
            .min()
            .unwrap_or(0);
        let mut uses: Vec<Vec<Sp>> = vec![Vec::new(); body.locals.len()];
        let mut events: Vec<(u32, Event)> = Vec::new();
        for (id, e) in body.exprs.iter().enumerate() {
            match &e.kind {
                ExprKind::Local(l) => uses[*l as usize].push(e.span),
                ExprKind::Match { scrutinee, .. }
                | ExprKind::Let {
                    expr: scrutinee, ..
                } => {
                    events.push((body.expr(*scrutinee).span.end, Event::Matched(id as ExprId)));
                }
                ExprKind::MethodCall { receiver, .. } => {
                    events.push((body.expr(*receiver).span.end, Event::Combined(id as ExprId)));
                }
                ExprKind::Block { stmts, .. } => {
                    for s in stmts {
                        match s {
                            Stmt::Let {
                                pat,
                                init: Some(init),
                                ..
                            } => {
                                events.push((body.expr(*init).span.end, Event::Bound(*pat, *init)))
                            }
                            Stmt::Expr { expr, .. } => {
                                events.push((body.expr(*expr).span.end, Event::Used(*expr)));
                            }
                            Stmt::Let { .. } => {}
                        }
                    }
                }
                _ => {}
            }
        }
        events.sort_by_key(|(at, _)| *at);
        let mut answer = Answer {
            holds: calls
                .iter()
                .map(|&c| (body.expr(c).span.start, body.expr(c).span.end))
                .collect(),
            regions: Vec::new(),
        };
        let mut bound = Vec::new();
        for (at, event) in events {
            if at < first_end {
                continue;
            }
            bound.clear();
            let after = |sp: Sp| sp.start >= first_end;
            match event {
                Event::Bound(pat, init) => {
                    let sp = body.expr(init).span;
                    if answer.holds_within(sp) {
                        body.bindings(pat, &mut bound);
                        if after(sp) {
                            answer.regions.push(sp);
                        }
                    }
                }
                Event::Used(e) => {
                    let sp = body.expr(e).span;
                    if after(sp) && answer.holds_within(sp) {
                        answer.regions.push(sp);
                    }
                }
                Event::Matched(e) => match &body.expr(e).kind {
                    ExprKind::Match { scrutinee, arms }
                        if answer.holds_within(body.expr(*scrutinee).span) =>
                    {
                        for arm in arms {
                            body.bindings(arm.pat, &mut bound);
                            answer.regions.push(body.expr(arm.body).span);
                        }
                    }
                    ExprKind::Let { pat, expr } if answer.holds_within(body.expr(*expr).span) => {
                        body.bindings(*pat, &mut bound);
                    }
                    _ => {}
                },
                Event::Combined(e) => {
                    if let ExprKind::MethodCall { receiver, args, .. } = &body.expr(e).kind
                        && answer.holds_within(body.expr(*receiver).span)
                    {
                        for &arg in args {
                            if let ExprKind::Closure(c) = body.expr(arg).kind {
                                bound.extend(body.closure(c).params.iter().flat_map(|&p| {
                                    let mut v = Vec::new();
                                    body.bindings(p, &mut v);
                                    v
                                }));
                            }
                        }
                    }
                }
            }
            for &l in &bound {
                answer.hold(&uses[l as usize]);
            }
        }
        answer.merge_regions();
        answer
    }

    fn hold(&mut self, spans: &[Sp]) {
        for sp in spans {
            self.holds.insert(sp.start, sp.end);
        }
    }

    /// Whether some span that holds the value lies within `sp` (spans of one body nest).
    fn holds_within(&self, sp: Sp) -> bool {
        self.holds
            .range(sp.start..=sp.end)
            .any(|(_, &end)| end <= sp.end)
    }

    fn merge_regions(&mut self) {
        self.regions.sort_by_key(|r| r.start);
        let mut merged: Vec<Sp> = Vec::with_capacity(self.regions.len());
        for r in self.regions.drain(..) {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        self.regions = merged;
    }

    /// Whether code at `sp` works on the value: it uses it, or lies in a region.
    fn covers(&self, sp: Sp) -> bool {
        if self.holds_within(sp) {
            return true;
        }
        let i = self.regions.partition_point(|r| r.start <= sp.start);
        i > 0 && self.regions[i - 1].contains(sp)
    }
}

#[derive(Clone, Copy)]
enum Event {
    /// `let pat = init`.
    Bound(PatId, ExprId),
    /// An expression statement.
    Used(ExprId),
    /// A `match` or `if let`.
    Matched(ExprId),
    /// A method call, whose closures receive what its receiver holds.
    Combined(ExprId),
}
