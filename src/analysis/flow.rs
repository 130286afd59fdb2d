//! The flow walk: one pass over a fn body in evaluation order (twice when a local is
//! reassigned after being read), computing each value's origins. Locals hold the union of
//! everything assigned to them; `match`/`if let` arms bind the `Ok`/`Err` payloads;
//! closures given to `map_err`, `unwrap_or_else`, .. get the error. Calls to crate fns take
//! their callee's summary, with parameters replaced by the arguments' origins.
//!
//! Along the way it records the fn's facts: error exits, returned values, failures put into
//! success results, error codes, panic sites, stdout writes, leaks, transports and where each
//! call sits (branches and conditions), and the fn's summary for its callers.

use std::sync::Arc;

use foldhash::{HashMap, HashMapExt, HashSet};

use super::calls::Resolved;
use super::facts::*;
use super::program::{FnId, Program, Site};
use super::types::TypeTable;
use super::value::*;
use crate::config::Config;
use crate::model::ir::*;
use crate::model::resolve::Imports;
use crate::sdk::Sdk;

mod bindings;
mod boundaries;
pub(crate) mod exits;
mod forwards;
mod handler_args;
mod name_parse;
mod search_loops;
mod slice_bounds;
mod tail_arms;
mod variants;

pub(crate) use boundaries::boundary_sum;
pub(crate) use variants::variant_arms;

const RED_ZONE: usize = 128 * 1024;
const GROW_BY: usize = 4 * 1024 * 1024;

/// At most this many index sites per summary.
pub(super) const MAX_INDEX_SITES: usize = 16;

pub struct Env<'p, 'a> {
    pub program: &'p Program<'a>,
    pub types: &'p TypeTable<'a>,
    pub sdk: Option<&'p dyn Sdk>,
    pub config: &'p Config,
    pub summaries: &'p [Summary],
    /// Per fn, the parameters' locals that callers pass a tool's name.
    pub tool_names: &'p [Vec<LocalId>],
}

pub struct Flow<'p, 'a> {
    pub env: &'p Env<'p, 'a>,
    pub resolved: &'p Resolved,
    pub func: FnId,
    pub def: &'a FnDef,
    pub body: &'a Body,
    pub imports: &'a Imports,
    pub locals: Vec<Val>,
    read: Vec<bool>,
    /// Locals that hold a value on the path walked so far: an assignment to one of them is
    /// an alternative to what it held (see [`Val::join_alternative`]).
    assigned: Vec<bool>,
    pub grew_after_read: bool,
    pub owner: Option<ClosureId>,
    pub facts: FnFacts,
    pub branch: Vec<u32>,
    pub gates: Vec<Gate>,
    /// The context (in `facts.contexts`) of the places recorded since `branch` and `gates`
    /// last changed: they share it.
    shared_place: Option<u32>,
    /// Inside a catch-all match arm; inside one of a `match` on a tool's name.
    pub fallback: u32,
    pub name_fallback: u32,
    /// Inside the last `else` of an `if` or `if .. else if` chain: the branch no test
    /// selects, as a catch-all arm is of a `match`.
    pub final_else: u32,
    /// Inside an arm of a `match` on a tool's name that selects a tool.
    pub tool_arm: u32,
    /// Lexically under `catch_unwind` or a configured guard.
    pub catch: u32,
    /// Call sites whose arguments are being evaluated, innermost last.
    pub open: Vec<u32>,
    /// The value each closure evaluated to, for the calls that run it and hand back its
    /// result (`spawn_blocking(move || ..)`).
    pub closure_vals: HashMap<ClosureId, Val>,
    /// What the fields of each tuple struct or variant built here carry, by the call that
    /// builds it (see `with_passed_fields`).
    pub ctor_fields: HashMap<ExprId, Val>,
    /// Calls whose `Err` branch is being evaluated (`match call() { Err(_) => here }`, the
    /// `else` of `let Ok(v) = call() else { here }`): what is built here answers their
    /// failure, whether or not it uses the error value.
    pub err_context: Vec<ExprId>,
    /// Alongside [`Flow::err_context`]: where the other failures the branch answers were made
    /// in this fn (an `Err(..)` of its own, not a call's).
    pub err_others: Vec<ExprId>,
    /// The argument values of the format string evaluated last (see `sent`).
    pub(super) format_args: Vec<(ExprId, Val)>,
    /// The parameters whose `Err` the current branch answers (`match result { Err(e) => ..
    /// }` on a parameter): a JSON-RPC error made here answers the caller's failure.
    pub err_params: Vec<u16>,
    /// The values `break`s give each loop or labelled block, until it is done.
    pub break_vals: HashMap<ExprId, Val>,
    pub(super) next_group: u32,
    pub checks: Checks,
    pub sinks: Vec<u8>,
    pub index: Vec<(u16, Site)>,
    /// Parameters put into a success result, and where (see [`Summary::success_sinks`]).
    pub success_sinks: Vec<SuccessSink>,
    /// This fn's value per variant of the receiver or a parameter it `match`es on (see
    /// [`Summary::by_variant`]).
    pub by_variant: Vec<(u16, u32, Val)>,
    /// Parameters this fn parses into a crate enum, and the variant its catch-all gives
    /// (see [`Summary::name_parses`]).
    pub name_parses: Vec<(u16, Name)>,
    /// Locals bound to a crate enum parsed from a tool's name, with the variants the parse's
    /// catch-all gives (`let op = Op::of(name);`): a `match` on them selects a tool.
    pub(super) parsed_name_locals: Vec<(LocalId, Vec<Name>)>,
    /// The values of each range's bounds, for the slicing that uses the range.
    pub(super) range_bounds: HashMap<ExprId, Vec<Val>>,
    /// The `bool` parameters the branches being walked are decided by, and their value
    /// there (`if is_error { .. } else { .. }`).
    pub(super) param_conds: Vec<(u16, bool)>,
    /// The fn's own returned value (not its closures').
    pub ret: Val,
    /// The branches whose arms give a body's value, and the error side each arm gave (see
    /// `tail_arms`).
    tail_branches: HashSet<ExprId>,
    arm_errs: HashMap<ExprId, tail_arms::ArmErr>,
    /// Locals bound from a string search, found on the first slicing site.
    pub(super) found: Option<HashMap<LocalId, super::found::Found>>,
    /// Locals bound to keys of a map, with the map (see `map_keys`), once asked for.
    pub(super) key_locals: std::cell::OnceCell<Vec<(LocalId, ExprId)>>,
    /// Locals holding offsets std's char-boundary APIs gave or checked (see `boundaries`).
    pub(super) boundary_locals: std::cell::OnceCell<Vec<bool>>,
}

/// What the fn has checked before a site: lengths, variants, prefixes of places.
#[derive(Clone, Default)]
pub struct Checks {
    pub length: HashSet<String>,
    pub variant: HashSet<String>,
    pub affix: HashSet<String>,
    /// `s.starts_with(p)`: the place `s` and the place or literal `p`, so `&s[p.len()..]` is
    /// known to be in bounds.
    pub prefix: HashSet<(String, String)>,
    /// `m.contains_key(k)`, `m.insert(k, v)`, `m.entry(k)`: the map's place and the key's,
    /// so `m.get(k).unwrap()` finds its entry.
    pub keys: HashSet<(String, String)>,
    /// `s.ends_with(p)` for an ASCII literal `p`: the place `s` and `p`'s length in bytes, so
    /// `&s[..s.len() - k]` for `k` up to that length is in bounds and on a char boundary.
    pub ascii_suffix: HashSet<(String, usize)>,
    /// `s.starts_with(p)` for an ASCII literal `p`: the place `s` and `p`'s length in bytes,
    /// so `&s[k..]` for `k` up to that length is in bounds and on a char boundary.
    pub ascii_prefix: HashSet<(String, usize)>,
    /// `s.len() > max` (any order, any of `<`, `<=`, `>`, `>=`): the place `s` and the place
    /// `max` (or each local of a sum there, `i + 7`), so `&s[..max]` is a cut at a byte count,
    /// not at an offset found in `s`, and `&t[i..i + 7]` slices `t` at an offset of `s`.
    pub length_against: HashSet<(String, String)>,
    /// `i < s.len()` (or `s.len() > i`): the place `s` (through views of its bytes) and the
    /// cursor `i`, so `s[i..]` is not empty.
    pub length_below: HashSet<(String, String)>,
    /// `bytes[i + j] == b'%'` (or `bytes.get(i + j) == Some(&b'%')`) for an ASCII byte, with
    /// `bytes` a view of text `s`: the place `s`, the cursor `i` and the offset `j`. Those
    /// bytes are ASCII, so offsets past them up to there are char boundaries.
    pub ascii_bytes: HashSet<(String, String, u8)>,
}

/// Analyses fn `func`; returns its facts and summary.
pub fn analyse_fn(env: &Env<'_, '_>, resolved: &Resolved, func: FnId) -> (FnFacts, Summary) {
    let def = env.program.def(func);
    let mut flow = Flow::new(env, resolved, func);
    flow.run();
    if flow.grew_after_read {
        // A local was assigned after it was read (a loop, a reassignment): once more with
        // what the first pass learnt.
        let locals = std::mem::take(&mut flow.locals);
        flow = Flow::new(env, resolved, func);
        flow.locals = locals;
        flow.run();
    }
    flow.convert_exits();
    // Sorted, for the lookups by expression of the lints and the handler search.
    for exprs in [
        &mut flow.facts.tool_arm_exprs,
        &mut flow.facts.fallback_exprs,
    ] {
        exprs.sort_unstable();
        exprs.dedup();
    }
    let summary = flow.summary(def.params.len());
    (flow.facts, summary)
}

impl<'p, 'a> Flow<'p, 'a> {
    fn new(env: &'p Env<'p, 'a>, resolved: &'p Resolved, func: FnId) -> Self {
        let def = env.program.def(func);
        Flow {
            env,
            resolved,
            func,
            def,
            body: &def.body,
            imports: &env.program.file_ir(func).imports,
            locals: vec![Val::default(); def.body.locals.len()],
            read: vec![false; def.body.locals.len()],
            assigned: vec![false; def.body.locals.len()],
            grew_after_read: false,
            owner: None,
            facts: FnFacts {
                call_places: vec![CallPlace::default(); resolved.calls.len()],
                returned_calls: forwards::returned_calls(&def.body),
                ..FnFacts::default()
            },
            branch: Vec::new(),
            gates: Vec::new(),
            shared_place: None,
            fallback: 0,
            name_fallback: 0,
            final_else: 0,
            tool_arm: 0,
            catch: 0,
            open: Vec::new(),
            ctor_fields: HashMap::new(),
            err_context: Vec::new(),
            err_others: Vec::new(),
            format_args: Vec::new(),
            err_params: Vec::new(),
            break_vals: HashMap::new(),
            closure_vals: HashMap::new(),
            next_group: 0,
            checks: Checks::default(),
            sinks: vec![0; def.params.len()],
            index: Vec::new(),
            success_sinks: Vec::new(),
            param_conds: Vec::new(),
            range_bounds: HashMap::new(),
            by_variant: Vec::new(),
            name_parses: Vec::new(),
            parsed_name_locals: Vec::new(),
            ret: Val::default(),
            tail_branches: tail_arms::tail_branches(&def.body),
            arm_errs: HashMap::new(),
            found: None,
            key_locals: std::cell::OnceCell::new(),
            boundary_locals: std::cell::OnceCell::new(),
        }
    }

    fn run(&mut self) {
        for (k, p) in self.def.params.iter().enumerate() {
            let v = Val::one(Fact::Param(k as u16), self.site(0));
            self.bind(p.pat, &v, 0);
        }
        let Some(root) = self.body.root else { return };
        let v = self.eval(root);
        let tail = self.body.value_of(root);
        self.finish_body(tail, v);
    }

    pub fn site(&self, expr: ExprId) -> Site {
        Site {
            func: self.func,
            expr,
        }
    }

    pub fn place(&mut self, at: u32) -> Place {
        let context = self.context();
        let (branch, gates) = &self.facts.contexts[context as usize];
        Place {
            branch: branch.clone(),
            gates: gates.clone(),
            at,
        }
    }

    /// The context of the current stretch of code, recorded on first use.
    fn context(&mut self) -> u32 {
        if let Some(c) = self.shared_place {
            return c;
        }
        let c = self.facts.contexts.len() as u32;
        let branch: Arc<[u32]> = self.branch.as_slice().into();
        let gates: Arc<[Gate]> = self.gates.as_slice().into();
        self.facts.contexts.push((branch, gates));
        self.shared_place = Some(c);
        c
    }

    /// To be called whenever `branch` or `gates` change: later places get lists of their own.
    pub(super) fn branch_changed(&mut self) {
        self.shared_place = None;
    }

    /// Records the value a body ends with: a return and, when it holds an `Err`, an exit.
    pub(super) fn finish_body(&mut self, tail: ExprId, v: Val) {
        self.note_returned_async(tail);
        self.facts.returns.push(Return {
            owner: self.owner,
            at: tail,
            val: v.clone(),
        });
        let err = v.part(Part::Err);
        // `async { .. }.await` as the body's value: the block's own exits are the body's.
        if !err.is_empty() && !self.awaits_async_block(tail) {
            self.tail_exits(tail, err);
        }
        if self.owner.is_none() {
            self.ret.join(&v.success_side());
        }
    }

    /// Whether `e` awaits an async block written in place (`async move { .. }.await`).
    fn awaits_async_block(&self, e: ExprId) -> bool {
        let body = self.body;
        matches!(&body.expr(e).kind, ExprKind::Await(inner)
            if matches!(body.expr(body.peel(*inner)).kind,
                ExprKind::Closure(c) if body.closure(c).is_async_block))
    }

    /// `Box::pin(async move { .. })` or `async move { .. }` returned by the fn.
    fn note_returned_async(&mut self, mut e: ExprId) {
        for _ in 0..4 {
            match &self.body.expr(self.body.peel(e)).kind {
                ExprKind::Closure(c) if self.body.closure(*c).is_async_block => {
                    match self.owner {
                        None => self.facts.returned_async.push(*c),
                        Some(owner) => self.facts.closure_async.push((owner, *c)),
                    }
                    return;
                }
                ExprKind::Call { args, .. } if args.len() == 1 => e = args[0],
                ExprKind::Block { tail: Some(t), .. } => e = *t,
                _ => return,
            }
        }
    }

    pub fn exit(&mut self, kind: ExitKind, at: ExprId, err: Val) {
        let err = if self.name_fallback > 0 {
            exits::as_unknown_tool(&err, self.site(at))
        } else {
            err
        };
        self.facts.exits.push(Exit {
            owner: self.owner,
            kind,
            at,
            question: None,
            operand: None,
            option: false,
            err,
            in_fallback: self.fallback > 0,
            lock_failure: false,
        });
    }

    pub fn eval(&mut self, id: ExprId) -> Val {
        stacker::maybe_grow(RED_ZONE, GROW_BY, || self.eval_inner(id))
    }

    pub fn eval_all(&mut self, ids: &[ExprId]) -> Vec<Val> {
        ids.iter().map(|&i| self.eval(i)).collect()
    }

    fn read_local(&mut self, l: LocalId) -> Val {
        self.read[l as usize] = true;
        self.locals[l as usize].clone()
    }

    pub fn add_to_local(&mut self, l: LocalId, v: &Val) {
        self.assigned[l as usize] = true;
        let slot = &mut self.locals[l as usize];
        let before = slot.0.len();
        slot.join(v);
        if slot.0.len() != before && self.read[l as usize] {
            self.grew_after_read = true;
        }
    }

    /// `l = v`: the local now holds `v` instead of what it held, which stays a possibility
    /// on other paths (locals are not flow-sensitive).
    pub fn replace_local(&mut self, l: LocalId, v: &Val, at: ExprId) {
        if !self.assigned[l as usize] {
            return self.add_to_local(l, v);
        }
        let mut merged = self.locals[l as usize].clone();
        merged.join_alternative(v, self.site(at));
        self.add_to_local(l, &merged);
    }

    /// Fills in where the call sites recorded at `id` sit.
    pub fn place_calls(&mut self, id: ExprId) -> Option<u32> {
        let indices: Vec<u32> = self.resolved.at(id).collect();
        let at = self.body.expr(id).span.start;
        for &i in &indices {
            if (i as usize) < self.facts.call_places.len() {
                let context = self.context();
                self.facts.call_places[i as usize] = CallPlace { context, at };
            }
        }
        indices.first().copied()
    }

    fn eval_inner(&mut self, id: ExprId) -> Val {
        let body = self.body;
        if matches!(
            body.expr(id).kind,
            ExprKind::Call { .. }
                | ExprKind::MethodCall { .. }
                | ExprKind::Macro(_)
                | ExprKind::Struct { .. }
        ) {
            if self.fallback > 0 {
                self.facts.fallback_exprs.push(id);
            }
            if self.tool_arm > 0 {
                self.facts.tool_arm_exprs.push(id);
            }
        }
        match &body.expr(id).kind {
            ExprKind::Lit(Lit::Str(s)) => {
                if super::text::is_failure_text(s) {
                    Val::one(Fact::FailText, self.site(id))
                } else if super::text::is_sql(s) {
                    Val::one(Fact::Internals(Internals::Sql), self.site(id))
                } else {
                    Val::default()
                }
            }
            ExprKind::Lit(Lit::Int(v)) => Val::one(Fact::Int(*v), self.site(id)),
            ExprKind::Lit(Lit::Bool(b)) => Val::one(Fact::Bool(*b), self.site(id)),
            ExprKind::Lit(_) | ExprKind::SelfValue | ExprKind::Continue | ExprKind::Opaque => {
                Val::default()
            }
            ExprKind::Local(l) => self.read_local(*l),
            ExprKind::Path(path) => {
                self.place_calls(id);
                self.path_value(id, path)
            }
            ExprKind::Call { func, args } => self.call(id, *func, args),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => self.method_call(id, *receiver, method, args),
            ExprKind::Macro(m) => self.macro_call(id, m),
            ExprKind::Field { base, .. } => self.eval(*base),
            ExprKind::Index {
                base,
                index,
                bracket,
            } => self.index(id, *base, *index, *bracket),
            ExprKind::Try { expr, question } => self.question(id, *expr, *question),
            ExprKind::Await(e)
            | ExprKind::Ref(e)
            | ExprKind::Deref(e)
            | ExprKind::Cast { expr: e, .. } => self.eval(*e),
            ExprKind::Not(e) => {
                let v = self.eval(*e);
                Val(v
                    .iter()
                    .filter_map(|o| match o.fact {
                        Fact::Bool(b) => Some(Origin {
                            fact: Fact::Bool(!b),
                            ..*o
                        }),
                        _ => None,
                    })
                    .collect())
            }
            ExprKind::Neg(e) => {
                let v = self.eval(*e);
                Val(v
                    .iter()
                    .filter_map(|o| match o.fact {
                        Fact::Int(i) => Some(Origin {
                            fact: Fact::Int(-i),
                            site: self.site(id),
                            ..*o
                        }),
                        _ => None,
                    })
                    .collect())
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.note_length_check(*op, *lhs, *rhs);
                self.note_byte_test(*op, *lhs, *rhs);
                let l = self.eval(*lhs);
                let r = self.eval(*rhs);
                if *op == BinOp::Add {
                    match boundary_sum(&l, &r, self.func) {
                        Some(sum) => Val::one(sum, self.site(id)),
                        None => {
                            // Not a boundary: a number this analysis does not follow.
                            let numeric = |v: &Val| {
                                v.is_empty()
                                    || v.any(|o| {
                                        matches!(
                                            o.fact,
                                            Fact::Boundary { .. } | Fact::Int(_) | Fact::Untracked
                                        )
                                    })
                            };
                            let untracked = numeric(&l) || numeric(&r);
                            let mut sum = l.joined(&r).text();
                            if untracked {
                                sum.push(self.origin(Fact::Untracked, id));
                            }
                            sum
                        }
                    }
                } else if matches!(op, BinOp::Sub | BinOp::Arith) {
                    // A number computed from a parameter is still the caller's choice
                    // (`lines[at - 1]` in a helper indexes where its caller's `at` says).
                    let mut v = Val::one(Fact::Untracked, self.site(id));
                    for o in l.iter().chain(r.iter()) {
                        if o.part == Part::Plain && matches!(o.fact, Fact::Param(_)) {
                            v.push(*o);
                        }
                    }
                    v
                } else {
                    Val::default()
                }
            }
            ExprKind::Assign {
                place,
                value,
                compound,
            } => {
                self.note_assigned_variant(*place, *value);
                self.assign(*place, *value, *compound);
                Val::default()
            }
            ExprKind::Block { stmts, tail, .. } => {
                let mut v = self.block(stmts, *tail);
                if let Some(broken) = self.break_vals.remove(&id) {
                    v.join(&broken);
                }
                v
            }
            ExprKind::If { cond, then, els } => self.if_expr(id, *cond, *then, *els),
            ExprKind::Let { pat, expr } => {
                let v = self.eval(*expr);
                self.bind(*pat, &v, *expr);
                Val::default()
            }
            ExprKind::Match { scrutinee, arms } => self.match_expr(id, *scrutinee, arms),
            ExprKind::Loop { body: b } => {
                self.eval(*b);
                self.break_vals.remove(&id).unwrap_or_default()
            }
            ExprKind::While { cond, body: b } => {
                self.eval(*cond);
                self.eval(*b);
                Val::default()
            }
            ExprKind::For { pat, iter, body: b } => {
                let v = self.eval(*iter);
                self.bind(*pat, &v.success(), *iter);
                self.eval(*b);
                Val::default()
            }
            ExprKind::Closure(c) => {
                self.place_calls(id);
                let v = self.closure(*c, &[]);
                if body.closure(*c).is_async_block {
                    v
                } else {
                    self.closure_vals.insert(*c, v);
                    Val::default()
                }
            }
            ExprKind::Return(v) => {
                let val = match v {
                    Some(v) => self.eval(*v),
                    None => Val::default(),
                };
                if let Some(v) = v {
                    self.note_returned_async(*v);
                    // `_ => return Ok(reply(..))`: what a catch-all of a selection by name
                    // returns is its answer to an unknown tool, as its value would be.
                    if self.name_fallback > 0 {
                        self.fallback_value(*v, &val);
                    }
                }
                self.facts.returns.push(Return {
                    owner: self.owner,
                    at: id,
                    val: val.clone(),
                });
                let err = val.part(Part::Err);
                if !err.is_empty() {
                    self.exit(ExitKind::Return, id, err);
                }
                if self.owner.is_none() {
                    self.ret.join(&val.success_side());
                }
                Val::default()
            }
            ExprKind::Break(v) => {
                if let Some(v) = v {
                    let val = self.eval(*v);
                    if let Some(target) = body.break_target(id) {
                        self.break_vals.entry(target).or_default().join(&val);
                    }
                }
                Val::default()
            }
            ExprKind::Struct { path, fields, rest } => self.struct_lit(id, path, fields, *rest),
            ExprKind::Tuple(items) | ExprKind::Array(items) => {
                self.note_stdio_pair(id, items);
                let mut out = Val::default();
                for v in self.eval_all(items) {
                    out.join(&v);
                }
                out
            }
            ExprKind::Repeat { value, len } => {
                self.eval(*len);
                self.eval(*value)
            }
            ExprKind::Range { start, end, .. } => {
                let bounds = [start, end]
                    .into_iter()
                    .flatten()
                    .map(|e| self.eval(*e))
                    .collect();
                self.range_bounds.insert(id, bounds);
                Val::default()
            }
        }
    }

    /// A constant's value (`const CODE: i64 = -32050;`).
    fn path_value(&mut self, id: ExprId, path: &[Name]) -> Val {
        let Some(last) = path.last() else {
            return Val::default();
        };
        let constant = last
            .chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '_');
        if constant && let Some(v) = self.env.types.const_value(last) {
            return Val::one(Fact::Int(v), self.site(id));
        }
        // A unit variant of a crate enum.
        match self.variant_of(path) {
            Some(variant) => Val::one(Fact::Variant(variant), self.site(id)),
            None => Val::default(),
        }
    }
}

impl Val {
    /// The success side of a returned value (the `Ok` payload and plain origins) with the
    /// parts kept, for summaries.
    pub fn success_side(&self) -> Val {
        Val(self
            .0
            .iter()
            .filter(|o| o.part != Part::Err)
            .copied()
            .collect())
    }
}
