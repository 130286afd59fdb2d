//! Dispatch by behaviour, for servers that speak JSON-RPC themselves: the code that answers
//! `"tools/call"` (a `match` arm or an `if method == "tools/call"`), the fns that select a
//! tool by its name (a `match` on the name with string arms), the tools those arms run, and
//! where each tool's `Err` ends up: a JSON-RPC error object (a protocol error) or not.

use std::collections::VecDeque;

use super::Analysis;
use super::calls::CallKind;
use super::program::{FnId, NodeId};
use super::strings;
use super::types::TypeTable;
use super::value::{Fact, Part};
use crate::model::ir::*;

mod held_tools;

/// Hops from a `tools/call` arm to the fn that selects the tool (a fn whose whole body is
/// another's call is no hop).
const SELECTOR_HOPS: usize = 4;

#[derive(Debug, Default)]
pub struct Dispatch {
    /// Fns that answer `tools/call`: the first crate fn the arm runs, the fns on the way to
    /// the selector, and the selectors.
    pub dispatchers: Vec<FnId>,
    /// Fns a selector's arm delegates to.
    pub tools: Vec<FnId>,
    /// Selector arms that run a tool inline: (selector, arm body).
    pub inline_tools: Vec<(FnId, ExprId)>,
    /// Whether some `tools/call` arm exists: the crate serves tools.
    pub serves: bool,
    /// Fns that answer JSON-RPC requests by their method: the ones with a `tools/call` arm.
    pub requests: Vec<FnId>,
    /// `tools/call` arms that reach no selector, in a fn that is no dispatcher otherwise
    /// (the request loop in `main` unpacking the call for a router): the arm is the
    /// dispatcher, its own panics are the request's.
    pub arms: Vec<(FnId, ExprId)>,
    /// Fns and closures registered under a tool's name (`router.append("read", read)`,
    /// `tools.insert("read".into(), Box::new(|args| ..))`): the tools a registry holds.
    pub registered: Vec<FnId>,
    pub registered_closures: Vec<NodeId>,
    /// The name each registered closure is registered under.
    pub closure_names: Vec<(NodeId, String)>,
    /// Per fn: its `Err` becomes a JSON-RPC error object.
    pub protocol: Vec<bool>,
    /// The registered tools' `Err` becomes a JSON-RPC error object: a dispatcher calls a
    /// tool it looked up (`let tool = registry.get(name)?; match tool(args) { Err(e) =>
    /// rpc_error(..) }`) and answers its error so.
    pub registry_protocol: bool,
}

impl Dispatch {
    pub fn find(a: &Analysis<'_>) -> Dispatch {
        let program = &a.program;
        let own: Vec<FnId> = program.fn_ids().filter(|&f| program.is_own(f)).collect();
        let mut d = Dispatch {
            protocol: vec![false; program.fn_count()],
            ..Dispatch::default()
        };
        // Fns that look a tool up by a name their callers hand them (`tools.get(name)`).
        let mut lookups = vec![false; program.fn_count()];
        for &f in &own {
            lookups[f as usize] = looks_up_by_name(&program.def(f).body, &a.tool_names[f as usize]);
        }
        // Fns that select a tool by its name: a `match` on it, or a registry lookup by it.
        let selectors: Vec<(FnId, Vec<ExprId>)> = own
            .iter()
            .filter_map(|&f| {
                let body = &program.def(f).body;
                let names = &a.tool_names[f as usize];
                let mut arms = name_arms(&a.types, body, names);
                arms.extend(&a.facts[f as usize].parsed_name_arms);
                let selects = !arms.is_empty()
                    || looks_up_by_name(body, names)
                    || calls_lookup_by_name(a, f, body, names, &lookups)
                    || calls_found_by_name(body, names);
                selects.then_some((f, arms))
            })
            .collect();
        let is_selector = |f: FnId| selectors.iter().any(|(s, _)| *s == f);
        // A `match` on the name is where tools are told apart; a registry lookup on the way
        // to one only checks the name exists.
        let is_arm_selector = |f: FnId| {
            selectors
                .iter()
                .any(|(s, arms)| *s == f && !arms.is_empty())
        };
        for &f in &own {
            let body = &program.def(f).body;
            for arm in tools_call_arms(&a.types, body) {
                d.serves = true;
                d.requests.push(f);
                let span = body.expr(arm).span;
                let mut entered = false;
                let mut delegates = false;
                for call in &a.resolved[f as usize].calls {
                    let inside = body.expr(call.expr).span;
                    if call.may
                        || !matches!(call.kind, CallKind::Call | CallKind::Method)
                        || inside.start < span.start
                        || inside.end > span.end
                    {
                        continue;
                    }
                    delegates |= call.targets.iter().any(|&t| program.is_own(t));
                    for &t in &call.targets {
                        let path = path_to_selector(a, t, &is_arm_selector)
                            .or_else(|| path_to_selector(a, t, &is_selector));
                        if let Some(path) = path {
                            entered = true;
                            d.dispatchers.extend(path);
                        }
                    }
                }
                if entered && arm_calls_held_value(body, span) {
                    // The lookup on the way only found the tool; this arm runs what it found
                    // (`let h = registry.get_tool(name); h(args).await`): it dispatches.
                    d.dispatchers.push(f);
                }
                if !entered && is_selector(f) {
                    d.dispatchers.push(f);
                } else if !entered && !delegates {
                    d.arms.push((f, arm));
                } else if !entered {
                    // The fn the `tools/call` arm hands the request to, whose answer is the
                    // arm's, answers `tools/call` whatever it is called, also when it selects
                    // no tool by name (a server of one tool). An arm that builds the answer
                    // itself from what it calls (`match run(args) { .. }`) is the dispatcher.
                    let answering = answering_callees(a, f, body, arm);
                    if answering.is_empty() && !answers_with_error_builder(a, f, body, arm) {
                        d.arms.push((f, arm));
                    }
                    d.dispatchers.extend(answering);
                }
            }
        }
        for (s, arms) in &selectors {
            if !d.dispatchers.contains(s) {
                continue;
            }
            let body = &program.def(*s).body;
            for &arm in arms {
                match delegate(a, *s, body, arm) {
                    Some(t) => d.tools.push(t),
                    None => d.inline_tools.push((*s, arm)),
                }
            }
        }
        for s in d.dispatchers.clone() {
            d.tools.extend(held_tools::selected_implementations(a, s));
        }
        if d.serves {
            registrations(a, &own, &mut d);
        }
        d.arms.retain(|(f, _)| !d.dispatchers.contains(f));
        d.requests.sort_unstable();
        d.requests.dedup();
        d.requests.retain(|f| !d.dispatchers.contains(f));
        d.dispatchers.sort_unstable();
        d.dispatchers.dedup();
        d.tools.retain(|t| !d.dispatchers.contains(t));
        d.tools.extend(d.registered.iter().copied());
        d.tools.retain(|t| !d.dispatchers.contains(t));
        d.tools.sort_unstable();
        d.tools.dedup();
        d.mark_protocol(a);
        d
    }

    /// Fns whose `Err` a caller turns into a JSON-RPC error object, and the fns whose errors
    /// those forward.
    fn mark_protocol(&mut self, a: &Analysis<'_>) {
        let mut queue: VecDeque<FnId> = VecDeque::new();
        let targets_of = |f: FnId, expr: ExprId| -> Vec<FnId> {
            a.resolved[f as usize]
                .targets(expr)
                .filter(|c| !c.may)
                .flat_map(|c| c.targets.iter().copied())
                .collect()
        };
        for f in a.program.fn_ids() {
            let facts = &a.facts[f as usize];
            let body = &a.program.def(f).body;
            for &(call, ctor) in &facts.rpc_error_calls {
                if self.dispatchers.contains(&f) && calls_held_value(body, call) {
                    self.registry_protocol = true;
                }
                // Inside a tool's own arm the error is converted there: that is the site,
                // and the callee is not a tool. A call that is the arm's value, converted
                // after the `match` that selects the tool, is the tool.
                let in_arm = |e: ExprId| facts.tool_arm_exprs.contains(&e);
                if !(in_arm(call) && in_arm(ctor)) {
                    queue.extend(targets_of(f, call));
                }
            }
        }
        if self.registry_protocol {
            queue.extend(self.registered.iter().copied());
        }
        while let Some(g) = queue.pop_front() {
            if std::mem::replace(&mut self.protocol[g as usize], true) {
                continue;
            }
            let body = &a.program.def(g).body;
            for exit in &a.facts[g as usize].exits {
                for o in exit.err.iter() {
                    if o.fact == Fact::Returned && o.site.func == g {
                        queue.extend(targets_of(g, o.site.expr));
                        // A dispatcher handing back what a tool held in its registry returns.
                        if self.dispatchers.contains(&g)
                            && calls_held_value(body, body.peel(o.site.expr))
                            && !self.registry_protocol
                        {
                            self.registry_protocol = true;
                            queue.extend(self.registered.iter().copied());
                        }
                    }
                }
            }
            // A dispatcher that hands a tool's error back as its value (`Err(e) => (None,
            // Some(e))`): the calls whose `Err` it binds there are answered so too.
            if !self.dispatchers.contains(&g) {
                continue;
            }
            for r in &a.facts[g as usize].returns {
                for o in r.val.iter() {
                    if o.fact != Fact::ErrValue || o.site.func != g || o.part == Part::Err {
                        continue;
                    }
                    let call = body.peel(o.site.expr);
                    if calls_held_value(body, call) && !self.registry_protocol {
                        self.registry_protocol = true;
                        queue.extend(self.registered.iter().copied());
                    }
                    queue.extend(targets_of(g, call));
                }
            }
        }
    }

    /// Handlers, as the summary line counts them: dispatchers, tools, inline tools.
    pub fn count(&self) -> usize {
        self.dispatchers.len() + self.tools.len() + self.inline_tools.len()
    }
}

/// Whether the body looks a tool up by its name: `tools.get(name)`, `registry.get(&params.name)`.
fn looks_up_by_name(body: &Body, names: &[LocalId]) -> bool {
    body.exprs.iter().any(|e| {
        matches!(&e.kind, ExprKind::MethodCall { method, args, .. }
            if matches!(method.as_str(), "get" | "get_mut")
                && args.len() == 1
                && super::text::mentions_name_given(body, args[0], names))
    })
}

/// Whether fn `f` hands the tool's name to a crate fn that looks a tool up by a name its
/// callers hand it (`registry.get_tool(name)` whose body is `self.tools.get(name).cloned()`):
/// a lookup by the name, one call away. `lookups`: per fn, whether it is such a lookup.
fn calls_lookup_by_name(
    a: &Analysis<'_>,
    f: FnId,
    body: &Body,
    names: &[LocalId],
    lookups: &[bool],
) -> bool {
    a.resolved[f as usize].calls.iter().any(|call| {
        let into_lookup = !call.may
            && call
                .targets
                .iter()
                .any(|&t| t != f && lookups.get(t as usize).copied().unwrap_or(false));
        into_lookup
            && match &body.expr(call.expr).kind {
                ExprKind::MethodCall { args, .. } | ExprKind::Call { args, .. } => args
                    .iter()
                    .any(|&arg| super::text::mentions_name_given(body, arg, names)),
                _ => false,
            }
    })
}

/// The crate fns whose result is the value of `arm` (in fn `f`), awaited or not.
fn answering_callees(a: &Analysis<'_>, f: FnId, body: &Body, arm: ExprId) -> Vec<FnId> {
    let mut value = body.value_of(arm);
    while let ExprKind::Await(inner) | ExprKind::Try { expr: inner, .. } = &body.expr(value).kind {
        value = body.value_of(*inner);
    }
    let resolved = &a.resolved[f as usize];
    resolved
        .at(value)
        .map(|i| &resolved.calls[i as usize])
        .filter(|c| !c.may && matches!(c.kind, CallKind::Call | CallKind::Method))
        .flat_map(|c| c.targets.iter().copied())
        .filter(|&t| a.program.is_own(t) && t != f && !builds_only_errors(a, t))
        .collect()
}

/// Whether the value of `arm` (in fn `f`) is what a crate fn that builds only JSON-RPC error
/// objects returns: the arm rejects the request (`error_response(id, BUSY, ..)`).
fn answers_with_error_builder(a: &Analysis<'_>, f: FnId, body: &Body, arm: ExprId) -> bool {
    let value = body.value_of(arm);
    a.resolved[f as usize]
        .targets(value)
        .flat_map(|c| c.targets.iter().copied())
        .any(|t| a.program.is_own(t) && builds_only_errors(a, t))
}

/// Whether what fn `t` returns is a JSON-RPC error object and nothing else (an
/// `error_response(id, code, message)` builder): it answers no tool.
fn builds_only_errors(a: &Analysis<'_>, t: FnId) -> bool {
    let ret = &a.summaries[t as usize].ret;
    ret.any(|o| matches!(o.fact, Fact::RpcErrorObject { .. }))
        && ret.iter().all(|o| {
            matches!(
                o.fact,
                Fact::RpcErrorObject { .. } | Fact::ErrJson | Fact::Param(_) | Fact::Returned
            )
        })
}

/// Whether the body calls what it found by the tool's name: `(tool.handler)(args)` or
/// `tool.run(args)` on a `tool` a search by the name gave (`tools.iter().find(|t| t.name ==
/// name)`). A search whose result is only read (a description) selects nothing to run.
fn calls_found_by_name(body: &Body, names: &[LocalId]) -> bool {
    body.exprs.iter().any(|e| match &e.kind {
        ExprKind::Call { func, .. } => {
            matches!(
                body.expr(*func).kind,
                ExprKind::Field { .. } | ExprKind::Local(_)
            ) && super::text::mentions_name_given(body, *func, names)
        }
        ExprKind::MethodCall { receiver, .. } => {
            matches!(body.expr(*receiver).kind, ExprKind::Local(_))
                && super::text::mentions_name_given(body, *receiver, names)
                && found_by_search(body, *receiver)
        }
        _ => false,
    })
}

/// Whether a local holds what a search gave (`let Some(t) = tools.iter().find(..) else`).
fn found_by_search(body: &Body, e: ExprId) -> bool {
    let ExprKind::Local(l) = body.expr(e).kind else {
        return false;
    };
    let local = body.local(l);
    local.unwraps.or(local.init).is_some_and(|v| {
        matches!(&body.expr(body.peel(body.value_of(v))).kind, ExprKind::MethodCall { args, .. }
            if args.iter().any(|&a| matches!(body.expr(a).kind, ExprKind::Closure(_))))
    })
}

/// Whether the arm spanning `span` calls a value held in a local (what a lookup found).
fn arm_calls_held_value(body: &Body, span: crate::model::ir::Sp) -> bool {
    body.exprs.iter().enumerate().any(|(i, e)| {
        e.span.start >= span.start
            && e.span.end <= span.end
            && u32::try_from(i).is_ok_and(|id| calls_held_value(body, id))
    })
}

/// Whether `call` calls a value held in a local (a tool looked up in a registry).
fn calls_held_value(body: &Body, call: ExprId) -> bool {
    matches!(&body.expr(call).kind, ExprKind::Call { func, .. }
        if matches!(body.expr(*func).kind, ExprKind::Local(_)))
}

/// Registrations of tools under their names: a method call whose first argument is a
/// string that is not a JSON-RPC method and whose other argument is a crate fn or a closure.
fn registrations(a: &Analysis<'_>, own: &[FnId], d: &mut Dispatch) {
    let program = &a.program;
    for &f in own {
        let body = &program.def(f).body;
        for e in &body.exprs {
            let Some((key, values)) = registration(body, &e.kind) else {
                continue;
            };
            for value in values {
                let closure = super::program::closure_value(body, value);
                let forwarded = closure.and_then(|c| a.resolved[f as usize].eta_target(body, c));
                if let Some(t) = forwarded {
                    d.registered.push(t);
                } else if let Some(c) = closure {
                    let node = program.closure_node(f, c);
                    d.registered_closures.push(node);
                    d.closure_names.push((node, key.to_string()));
                } else if let Some(t) = fn_value(a, f, body, value) {
                    d.registered.push(t);
                }
            }
        }
    }
    d.registered_closures.sort_unstable();
    d.registered_closures.dedup();
}

/// A tool's name put together with the values that may be its handler, however the registry
/// is built: a call with the name first (`map.insert("read", read)`, `.tool("read", ..)`), a
/// pair (`HashMap::from([("read", read)])`, `[("read", read)].into_iter().collect()`,
/// `vec![("read", read)]`), or a struct literal with a name field (`Tool { name: "read",
/// handler: read }`).
fn registration<'b>(body: &'b Body, e: &'b ExprKind) -> Option<(&'b str, Vec<ExprId>)> {
    let named = |items: &[ExprId]| -> Option<(&'b str, Vec<ExprId>)> {
        let mut key = None;
        let mut values = Vec::new();
        for &item in items {
            match key_str(body, item).filter(|k| is_tool_name(k)) {
                Some(k) if key.is_none() => key = Some(k),
                _ => values.push(item),
            }
        }
        Some((key?, values)).filter(|(_, v)| !v.is_empty())
    };
    match e {
        ExprKind::MethodCall { args, method, .. } => {
            if super::std_types::VALUE_THEN_CLOSURE.contains(&method.as_str()) {
                return None;
            }
            let (first, rest) = args.split_first()?;
            let key = key_str(body, *first).filter(|k| is_tool_name(k))?;
            (!rest.is_empty()).then(|| (key, rest.to_vec()))
        }
        ExprKind::Tuple(items) => named(items),
        ExprKind::Struct { fields, .. } => {
            let items: Vec<ExprId> = fields.iter().map(|(_, v)| *v).collect();
            named(&items)
        }
        _ => None,
    }
}

/// The string a registration key is (`"read"`, `"read".to_string()`, `String::from("read")`).
fn key_str(body: &Body, e: ExprId) -> Option<&str> {
    match &body.expr(e).kind {
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if args.is_empty() && matches!(method.as_str(), "to_string" | "into" | "to_owned") => {
            body.str_lit(*receiver)
        }
        ExprKind::Call { func, args }
            if args.len() == 1
                && matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|l| l == "from")) =>
        {
            body.str_lit(args[0])
        }
        _ => body.str_lit(e),
    }
}

/// A tool's name, not a JSON-RPC method's (`tools/list`, `initialize`, `ping`).
fn is_tool_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains('/')
        && !matches!(name, "initialize" | "ping")
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The crate fn a registration's value is: the fn itself, `f.into_dyn()`, `Box::new(f)`.
fn fn_value(a: &Analysis<'_>, f: FnId, body: &Body, mut e: ExprId) -> Option<FnId> {
    for _ in 0..4 {
        let found = a.resolved[f as usize]
            .targets(e)
            .find(|c| c.kind == CallKind::FnValue)
            .and_then(|c| c.targets.first().copied());
        if found.is_some() {
            return found;
        }
        e = match &body.expr(e).kind {
            ExprKind::MethodCall { receiver, args, .. } if args.is_empty() => *receiver,
            ExprKind::Call { args, .. } if args.len() == 1 => args[0],
            // `read as ToolFn`: the same fn, as a pointer.
            ExprKind::Cast { expr, .. } => *expr,
            _ => return None,
        };
    }
    None
}

/// Bodies of the arms that answer `"tools/call"`, however the method is compared (see
/// [`super::strings`]).
pub fn tools_call_arms(types: &TypeTable<'_>, body: &Body) -> Vec<ExprId> {
    method_arms(types, body, "tools/call")
}

/// Bodies of the arms that answer JSON-RPC `method`: `match` arms whose pattern is it, the
/// `then` of an `if` that tests for it, and a block that leaves early when the method is
/// another (`if method != "tools/call" { return .. }`): what follows runs for it alone.
pub fn method_arms(types: &TypeTable<'_>, body: &Body, method: &str) -> Vec<ExprId> {
    let mut out = Vec::new();
    for (id, e) in body.exprs.iter().enumerate() {
        match &e.kind {
            ExprKind::Block { stmts, .. } if guards_for(types, body, stmts, method) => {
                out.push(id as ExprId);
            }
            ExprKind::Match { arms, .. } => {
                for arm in arms {
                    // `"tools/call" => Method::ToolsCall` parses the method; the request is
                    // answered where the parsed value is matched.
                    if strings::pattern_is(types, body, arm.pat, method)
                        && super::variant_strings::variant_made(body, arm.body).is_none()
                    {
                        out.push(arm.body);
                    }
                }
            }
            ExprKind::If { cond, then, .. }
                if strings::equality(types, body, *cond).is_some_and(|(_, v)| v == method)
                    && super::variant_strings::variant_made(body, *then).is_none() =>
            {
                out.push(*then);
            }
            _ => {}
        }
    }
    out
}

/// Whether a statement of a block leaves it unless the method is `method`: `if m != method
/// { return .. }` (its `then` diverges, and it has no `else`).
fn guards_for(types: &TypeTable<'_>, body: &Body, stmts: &[Stmt], method: &str) -> bool {
    stmts.iter().any(|stmt| match stmt {
        Stmt::Expr { expr, .. } => matches!(&body.expr(*expr).kind,
            ExprKind::If { cond, then, els: None }
                if strings::inequality(types, body, *cond).is_some_and(|(_, v)| v == method)
                    && super::text::diverges(body, *then)),
        _ => false,
    })
}

/// The branches that select a tool by its name: arms of a `match` on the name with a string
/// pattern, and the `then` of an `if` that tests the name for a string (an `if`/`else if`
/// chain), unless the strings are JSON-RPC method names.
fn name_arms(types: &TypeTable<'_>, body: &Body, names: &[LocalId]) -> Vec<ExprId> {
    let mut out = Vec::new();
    let is_method = |s: &str| s.contains('/') || s == "initialize";
    for e in &body.exprs {
        match &e.kind {
            ExprKind::Match { scrutinee, arms } => {
                if !super::text::mentions_name_given(body, *scrutinee, names) {
                    continue;
                }
                let names: Vec<(ExprId, &str)> = arms
                    .iter()
                    .filter_map(|a| Some((a.body, strings::pattern_str(types, body, a.pat)?)))
                    .collect();
                // Arms that only give a variant parse the name: the tool is selected where
                // the parsed value is matched.
                let parses = names
                    .iter()
                    .all(|&(b, _)| super::variant_strings::variant_made(body, b).is_some());
                if !parses && !names.iter().any(|(_, s)| is_method(s)) {
                    out.extend(names.into_iter().map(|(b, _)| b));
                }
            }
            ExprKind::If { cond, then, .. } => {
                if let Some((subject, value)) = strings::equality(types, body, *cond)
                    && !is_method(value)
                    && super::text::mentions_name_given(body, subject, names)
                {
                    out.push(*then);
                }
            }
            _ => {}
        }
    }
    out
}

/// The fns from `start` to the first selector it reaches (breadth-first, a few hops).
fn path_to_selector(
    a: &Analysis<'_>,
    start: FnId,
    is_selector: &dyn Fn(FnId) -> bool,
) -> Option<Vec<FnId>> {
    let program = &a.program;
    // Per fn reached: the fewest hops to it and the fn it was reached from.
    let mut best: std::collections::HashMap<FnId, (usize, Option<FnId>)> = Default::default();
    let mut queue = VecDeque::from([(start, 0usize)]);
    best.insert(start, (0, None));
    while let Some((f, depth)) = queue.pop_front() {
        if best.get(&f).is_some_and(|&(d, _)| d < depth) {
            continue;
        }
        if is_selector(f) {
            let mut path = vec![f];
            let mut cur = f;
            while let Some(&(_, Some(p))) = best.get(&cur) {
                path.push(p);
                cur = p;
            }
            return Some(path);
        }
        if depth >= SELECTOR_HOPS {
            continue;
        }
        // A fn whose whole body is another's call is that fn: no hop (0-1 breadth-first).
        let whole = super::continuations::forwarded_whole(a, f);
        let node: NodeId = program.fn_node(f);
        for e in &a.graph.out[node as usize] {
            let t = program.node(e.to).func;
            let hops = if whole == Some(t) { depth } else { depth + 1 };
            if !e.may && program.is_own(t) && best.get(&t).is_none_or(|&(d, _)| hops < d) {
                best.insert(t, (hops, Some(f)));
                if hops == depth {
                    queue.push_front((t, hops));
                } else {
                    queue.push_back((t, hops));
                }
            }
        }
    }
    None
}

/// The crate fn an arm hands the call to, when the arm does nothing else
/// (`"read" => self.read(args).await`, `=> Ok(run(args)?)`, `=> { return tool(x); }`).
fn delegate(a: &Analysis<'_>, f: FnId, body: &Body, mut e: ExprId) -> Option<FnId> {
    for _ in 0..8 {
        match &body.expr(e).kind {
            ExprKind::Block {
                stmts,
                tail: Some(t),
                ..
            } if stmts.is_empty() => e = *t,
            ExprKind::Block {
                stmts, tail: None, ..
            } if stmts.len() == 1 => match &stmts[0] {
                Stmt::Expr { expr, .. } => e = *expr,
                Stmt::Let { .. } => return None,
            },
            ExprKind::Return(Some(v)) | ExprKind::Await(v) | ExprKind::Try { expr: v, .. } => {
                e = *v
            }
            ExprKind::Call { func, args } if args.len() == 1 => {
                let wrapper = matches!(&body.expr(*func).kind,
                    ExprKind::Path(p) if p.len() == 1 && (p[0] == "Ok" || p[0] == "Some"));
                if wrapper {
                    e = args[0];
                } else {
                    return single_target(a, f, e);
                }
            }
            ExprKind::Call { .. } | ExprKind::MethodCall { .. } => return single_target(a, f, e),
            _ => return None,
        }
    }
    None
}

fn single_target(a: &Analysis<'_>, f: FnId, e: ExprId) -> Option<FnId> {
    let mut targets = a.resolved[f as usize]
        .targets(e)
        .filter(|c| !c.may)
        .flat_map(|c| c.targets.iter().copied());
    match (targets.next(), targets.next()) {
        (Some(t), None) if a.program.is_own(t) => Some(t),
        _ => None,
    }
}
