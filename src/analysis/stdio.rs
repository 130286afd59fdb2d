//! Does the crate serve MCP over stdio, and which code runs while it does?
//!
//! On the serving path: every body a handler reaches; the bodies that lead from an entry
//! point to the stdio transport, in the branches that lead there; and every body those
//! branches call. A branch exclusive with the serving one (another `match` arm, the other
//! side of an `if`, an `if` whose condition contradicts the serving one) or one that leaves
//! before serving (`--version` printing then `return`) is not; nor is code gated by a flag
//! whose value every serving-path caller fixes the other way (a literal, or the local that
//! also gates the serving branch: `log(stdio)` then `if stdio { serve }`).

use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt};

use super::Analysis;
use super::facts::{BranchInfo, Gate, Place};
use super::handlers::Handlers;
use super::program::{FnId, NodeId};
use crate::diagnostic::Span;
use crate::model::ir::{ExprKind, Lit};

/// Rounds of flag propagation: how many calls deep a flag passed on from fn to fn is known.
const FLAG_ROUNDS: usize = 4;

#[derive(Default)]
pub struct Stdio {
    /// The first place the crate starts a stdio server transport.
    pub transport: Option<Span>,
    /// Bodies on the serving path as a whole.
    whole: Vec<bool>,
    /// Per body: the places (branches, gates, position) that lead to the transport.
    serving: HashMap<NodeId, Vec<Place>>,
    /// Per fn: the value of each bool parameter whenever it runs on the serving path.
    known: HashMap<FnId, Vec<Option<bool>>>,
    /// `tools/call` arms a transport feeds (fn, byte range): they run while serving.
    served_arms: Vec<(FnId, u32, u32)>,
}

impl Stdio {
    /// `needs_handlers`: a transport counts only in a body that reaches a handler (hand-rolled
    /// servers, where reading stdin alone proves nothing: CLIs read it too).
    pub fn build(a: &Analysis<'_>, handlers: &Handlers, needs_handlers: bool) -> Stdio {
        let program = &a.program;
        let mut stdio = Stdio {
            whole: vec![false; program.nodes.len()],
            ..Stdio::default()
        };
        let mut sites: Vec<(Span, NodeId, Place)> = Vec::new();
        for f in program.fn_ids() {
            if !program.is_own(f) {
                continue;
            }
            for (expr, place) in &a.facts[f as usize].transports {
                let node = owner_node(a, f, *expr);
                sites.push((
                    program.site_span(super::program::Site {
                        func: f,
                        expr: *expr,
                    }),
                    node,
                    place.clone(),
                ));
            }
        }
        if needs_handlers {
            sites.retain(|(_, n, place)| feeds_handler(a, handlers, *n, place));
        }
        sites.sort_by_key(|s| s.0);
        stdio.served_arms = served_arms(a, handlers, &sites);
        let Some(first) = sites.first() else {
            return stdio;
        };
        stdio.transport = Some(first.0);
        // Backwards from the transport to the entry points.
        let mut callers: Vec<Vec<(NodeId, FnId, u32)>> = vec![Vec::new(); program.nodes.len()];
        for (from, edges) in a.graph.out.iter().enumerate() {
            for e in edges.iter().filter(|e| followed(a, e)) {
                callers[e.to as usize].push((from as NodeId, e.func, e.site));
            }
        }
        let mut queue = VecDeque::new();
        for (_, node, place) in &sites {
            stdio.serving.entry(*node).or_default().push(place.clone());
            queue.push_back(*node);
        }
        let mut seen = vec![false; program.nodes.len()];
        while let Some(n) = queue.pop_front() {
            if std::mem::replace(&mut seen[n as usize], true) {
                continue;
            }
            for &(caller, func, site) in &callers[n as usize] {
                let place = a.facts[func as usize].call_place(site);
                stdio.serving.entry(caller).or_default().push(place);
                queue.push_back(caller);
            }
        }
        // Forwards, then again while the flags known change (at most FLAG_ROUNDS times): each
        // later pass skips code gated by a flag whose value every serving-path caller fixes
        // the other way, and a flag passed on from fn to fn is known one call further.
        for _ in 0..FLAG_ROUNDS {
            stdio.propagate(a, handlers);
            let known = stdio.known_flags(a);
            if known == stdio.known {
                break;
            }
            stdio.known = known;
        }
        stdio.propagate(a, handlers);
        stdio
    }

    fn propagate(&mut self, a: &Analysis<'_>, handlers: &Handlers) {
        let program = &a.program;
        self.whole = vec![false; program.nodes.len()];
        let mut queue: VecDeque<NodeId> = VecDeque::new();
        for (n, r) in handlers.reach.iter().enumerate() {
            if r.is_some_and(|r| r.parent.is_none()) {
                queue.push_back(n as NodeId);
            }
        }
        // `#[ctor]` fns run before `main`, in the serving process too.
        for f in program.fn_ids().filter(|&f| program.is_own(f)) {
            if crate::model::ir::has_attr(&program.def(f).attrs, "ctor") {
                queue.push_back(program.fn_node(f));
            }
        }
        for &n in self.serving.keys() {
            for e in a.graph.out[n as usize].iter().filter(|e| followed(a, e)) {
                let place = &a.facts[e.func as usize].call_place(e.site);
                if !self.serving.contains_key(&e.to)
                    && self.on_branch(a, n, place)
                    && !self.gated_off(a, e.func, &place.gates)
                {
                    queue.push_back(e.to);
                }
            }
        }
        while let Some(n) = queue.pop_front() {
            if std::mem::replace(&mut self.whole[n as usize], true) {
                continue;
            }
            for e in a.graph.out[n as usize].iter().filter(|e| followed(a, e)) {
                let place = &a.facts[e.func as usize].call_place(e.site);
                if !self.whole[e.to as usize] && !self.gated_off(a, e.func, &place.gates) {
                    queue.push_back(e.to);
                }
            }
        }
    }

    /// Per fn: the parameters every call on the serving path passes with the same known
    /// value: a `true`/`false` literal, or a local that gates the caller's serving branch.
    fn known_flags(&self, a: &Analysis<'_>) -> HashMap<FnId, Vec<Option<bool>>> {
        let program = &a.program;
        let mut seen: HashMap<FnId, Vec<Option<Option<bool>>>> = HashMap::new();
        for (n, edges) in a.graph.out.iter().enumerate() {
            let n = n as NodeId;
            let whole = self.whole[n as usize];
            if !whole && !self.serving.contains_key(&n) {
                continue;
            }
            for e in edges.iter().filter(|e| followed(a, e)) {
                let place = &a.facts[e.func as usize].call_place(e.site);
                if !whole && !self.on_branch(a, n, place) {
                    continue;
                }
                let target = program.node(e.to);
                if target.closure.is_some() {
                    continue;
                }
                let params = program.def(target.func).params.len();
                let serving = (!whole).then(|| self.serving.get(&n)).flatten();
                let values = arg_values(
                    a,
                    e.func,
                    e.site,
                    serving.map_or(&[], Vec::as_slice),
                    self.known.get(&e.func),
                );
                // Per parameter: `None` before the first call, then the value all calls agree on.
                let entry = seen
                    .entry(target.func)
                    .or_insert_with(|| vec![None; params]);
                for (i, slot) in entry.iter_mut().enumerate() {
                    let v = values.get(i).copied().flatten();
                    *slot = Some(match *slot {
                        None => v,
                        Some(prev) if prev == v => v,
                        Some(_) => None,
                    });
                }
            }
        }
        seen.into_iter()
            .map(|(f, flags)| (f, flags.into_iter().map(Option::flatten).collect()))
            .collect()
    }

    /// Whether code under these gates of fn `f` never runs on the serving path.
    fn gated_off(&self, a: &Analysis<'_>, f: FnId, gates: &[Gate]) -> bool {
        let Some(flags) = self.known.get(&f) else {
            return false;
        };
        let params = &a.program.def(f).params;
        gates.iter().any(|g| {
            params
                .iter()
                .position(|p| p.name.as_deref() == Some(g.key.as_str()))
                .and_then(|i| flags.get(i).copied().flatten())
                .is_some_and(|value| value != g.positive)
        })
    }

    pub fn serves_stdio(&self) -> bool {
        self.transport.is_some()
    }

    /// Whether a site of body `node` (fn `f`) at `place` runs while the stdio server runs.
    pub fn on_serving_path(&self, a: &Analysis<'_>, f: FnId, node: NodeId, place: &Place) -> bool {
        if !self.serves_stdio() || self.gated_off(a, f, &place.gates) {
            return false;
        }
        if self.whole.get(node as usize).copied().unwrap_or(false) {
            return true;
        }
        self.on_branch(a, node, place)
    }

    /// Whether a site at `place` of body `node` runs on the way to the transport: not in a
    /// branch exclusive with the serving one, not under a condition the serving one
    /// contradicts, not in a branch that leaves first, and not after a serving branch that
    /// leaves the fn when serving ends.
    fn on_branch(&self, a: &Analysis<'_>, node: NodeId, place: &Place) -> bool {
        let Some(serving) = self.serving.get(&node) else {
            return false;
        };
        let f = a.program.node(node).func;
        let in_served_arm = self
            .served_arms
            .iter()
            .any(|&(g, start, end)| g == f && (start..end).contains(&place.at));
        in_served_arm || serving.iter().any(|s| runs_on_the_way(a, f, place, s))
    }
}

/// Whether code at `place` of fn `f` runs on a path that goes on to `serving` (in the same
/// body): not in a branch exclusive with it, not under a condition it contradicts, not in a
/// branch that leaves first, and not after a branch holding it that leaves the fn.
fn runs_on_the_way(a: &Analysis<'_>, f: FnId, place: &Place, serving: &Place) -> bool {
    let info: &[BranchInfo] = &a.facts[f as usize].branches;
    let get = |b: u32| info.get(b as usize - 1).copied().unwrap_or_default();
    let contradicts = place.gates.iter().any(|g| {
        serving
            .gates
            .iter()
            .any(|h| h.key == g.key && h.positive != g.positive)
    });
    if contradicts {
        return false;
    }
    let branch = &place.branch;
    let i = branch
        .iter()
        .zip(serving.branch.iter())
        .take_while(|(x, y)| x == y)
        .count();
    if place.at > serving.at && serving.branch[i..].iter().any(|&b| get(b).diverges) {
        return false;
    }
    if i == branch.len() {
        return true;
    }
    if i < serving.branch.len() && get(branch[i]).group == get(serving.branch[i]).group {
        return false;
    }
    !branch[i..].iter().any(|&b| get(b).diverges)
}

/// Whether the serving path goes along call edge `e`: not along a call resolved by name alone
/// to more methods than the panic lint follows (`task.run()` on a value of unknown type is
/// not every `run` of the crate, and would put the whole crate on the serving path).
fn followed(a: &Analysis<'_>, e: &super::graph::Edge) -> bool {
    !(e.may && super::handlers::fanout(a, e.func, e.site) > super::handlers::MAY_FANOUT)
}

/// The body holding expression `expr` of fn `f`: the fn, or its innermost closure around it.
pub fn owner_node(a: &Analysis<'_>, f: FnId, expr: crate::model::ir::ExprId) -> NodeId {
    let body = &a.program.def(f).body;
    let span = body.expr(expr).span;
    let mut best: Option<(u32, u32)> = None;
    for (i, c) in body.closures.iter().enumerate() {
        if c.span.start <= span.start && span.end <= c.span.end {
            let len = c.span.end - c.span.start;
            if best.is_none_or(|(_, l)| len < l) {
                best = Some((i as u32, len));
            }
        }
    }
    match best {
        Some((c, _)) => a.program.closure_node(f, c),
        None => a.program.fn_node(f),
    }
}

/// Per argument of call `site` in fn `f`: its value while the server serves, when known: a
/// `true`/`false` literal, or a local that every one of the caller's `serving` places is
/// gated on (`if stdio { serve }`: `stdio` is true there, so it was true at the call).
fn arg_values(
    a: &Analysis<'_>,
    f: FnId,
    site: u32,
    serving: &[Place],
    known: Option<&Vec<Option<bool>>>,
) -> Vec<Option<bool>> {
    let def = a.program.def(f);
    let body = &def.body;
    let Some(call) = a.resolved[f as usize].calls.get(site as usize) else {
        return Vec::new();
    };
    let args = match &body.expr(call.expr).kind {
        ExprKind::Call { args, .. } | ExprKind::MethodCall { args, .. } => &args[..],
        _ => &[],
    };
    let gated = |name: &str| {
        let mut value = None;
        for place in serving {
            let g = place.gates.iter().find(|g| g.key == name)?;
            if value.is_some_and(|v| v != g.positive) {
                return None;
            }
            value = Some(g.positive);
        }
        value
    };
    // The caller's own flag passed on (`index_all(quiet)`): its value on the serving path.
    let forwarded = |name: &str| {
        let i = def
            .params
            .iter()
            .position(|p| p.name.as_deref() == Some(name))?;
        known?.get(i).copied().flatten()
    };
    args.iter()
        .map(|&x| match body.expr(x).kind {
            ExprKind::Lit(Lit::Bool(b)) => Some(b),
            ExprKind::Local(l) => {
                let name = &body.locals[l as usize].name;
                // A local that holds a condition (`let stdio = matches!(mode, Mode::Stdio)`)
                // is true where that condition is.
                super::gates::condition_key(body, x)
                    .and_then(|key| gated(&key))
                    .or_else(|| forwarded(name))
            }
            _ => None,
        })
        .collect()
}

/// Whether a stdin read at `place` of body `n` can feed a handler: `n` is a handler, or
/// calls toward one on a path that runs after the read (a CLI prompt after the branch that
/// serves and returns reads stdin too, and serves nothing).
fn feeds_handler(a: &Analysis<'_>, handlers: &Handlers, n: NodeId, place: &Place) -> bool {
    if handlers.is_handler_node(&a.program, n) {
        return true;
    }
    let f = a.program.node(n).func;
    let feeds_an_arm = handlers
        .arms
        .iter()
        .any(|&(g, arm)| g == f && feeds_arm(a, f, place, arm));
    feeds_an_arm
        || a.graph.out[n as usize].iter().any(|e| {
            let call = a.facts[e.func as usize].call_place(e.site);
            runs_on_the_way(a, e.func, place, &call) && reaches_handler(a, handlers, e.to)
        })
}

/// Whether a stdin read at `place` of fn `f` runs on the way to `tools/call` arm `arm`.
fn feeds_arm(a: &Analysis<'_>, f: FnId, place: &Place, arm: crate::model::ir::ExprId) -> bool {
    code_place(a, f, arm).is_some_and(|at| runs_on_the_way(a, f, place, &at))
}

/// The `tools/call` arms that run the tool themselves and that a stdin read of `sites`
/// feeds: all their code runs while serving.
fn served_arms(
    a: &Analysis<'_>,
    handlers: &Handlers,
    sites: &[(Span, NodeId, Place)],
) -> Vec<(FnId, u32, u32)> {
    handlers
        .arms
        .iter()
        .filter(|&&(f, arm)| {
            sites
                .iter()
                .any(|(_, n, place)| a.program.node(*n).func == f && feeds_arm(a, f, place, arm))
        })
        .map(|&(f, arm)| {
            let span = a.program.def(f).body.expr(arm).span;
            (f, span.start, span.end)
        })
        .collect()
}

/// The place of the code of expression `expr` of fn `f`: that of the first call inside it.
fn code_place(a: &Analysis<'_>, f: FnId, expr: crate::model::ir::ExprId) -> Option<Place> {
    let body = &a.program.def(f).body;
    let within = body.expr(expr).span;
    let facts = &a.facts[f as usize];
    a.resolved[f as usize]
        .calls
        .iter()
        .enumerate()
        .find(|(_, c)| {
            let at = body.expr(c.expr).span;
            at.start >= within.start && at.end <= within.end
        })
        .map(|(i, _)| facts.call_place(i as u32))
}

/// Whether body `n` is a handler or calls one, directly or through other bodies.
fn reaches_handler(a: &Analysis<'_>, handlers: &Handlers, n: NodeId) -> bool {
    let mut seen = vec![false; a.program.nodes.len()];
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x as usize], true) {
            continue;
        }
        if handlers.is_handler_node(&a.program, x) {
            return true;
        }
        stack.extend(a.graph.out[x as usize].iter().map(|e| e.to));
    }
    false
}
