//! The flow walk's branching constructs: `if`, `match` (arms that bind `Ok`/`Err` payloads,
//! catch-all arms of a tool-name `match`), closures and `?`. Indexing is in `flow_index`.

use super::facts::*;
use super::flow::*;
use super::value::*;
use crate::model::ir::*;

impl Flow<'_, '_> {
    pub fn new_group(&mut self) -> u32 {
        self.next_group += 1;
        self.next_group
    }

    pub fn in_branch<T>(
        &mut self,
        group: u32,
        diverges: bool,
        gates: Vec<Gate>,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.facts.branches.push(BranchInfo { group, diverges });
        let id = self.facts.branches.len() as u32;
        self.branch.push(id);
        let before = self.gates.len();
        self.gates.extend(gates);
        self.branch_changed();
        let out = f(self);
        self.gates.truncate(before);
        self.branch.pop();
        self.branch_changed();
        out
    }

    pub(super) fn if_expr(
        &mut self,
        id: ExprId,
        cond: ExprId,
        then: ExprId,
        els: Option<ExprId>,
    ) -> Val {
        let group = self.new_group();
        // A test whose branches do nothing (`if x.is_none() {}`) guards nothing after it.
        let does_nothing = |e: ExprId| matches!(&self.body.expr(e).kind, ExprKind::Block { stmts, tail: None, .. } if stmts.is_empty());
        let checks_before =
            (does_nothing(then) && els.is_none_or(does_nothing)).then(|| self.checks.clone());
        self.eval(cond);
        if let Some(before) = checks_before {
            self.checks = before;
        }
        let gates = super::gates::gates_of(self.body, cond, true);
        let negated = super::gates::gates_of(self.body, cond, false);
        let then_diverges = super::text::diverges(self.body, then);
        // `if name == "read" { .. } else if .. else { .. }`: each `then` runs a tool, the last
        // `else` answers a name no tool has, as the arms of a `match` on the name do.
        let name_test = self.is_name_test(cond);
        // `if tool.name == name { .. }` in a search: the `then` runs the tool found.
        let selects = name_test || self.compares_with_name(cond);
        let flag = self.param_flag(cond);
        self.note_name_parse_chain(cond, els);
        let mut v = self.in_branch(group, then_diverges, gates, |f| {
            f.tool_arm += u32::from(selects);
            f.param_conds.extend(flag);
            let v = f.eval(then);
            f.note_arm_value(id, then, &v);
            f.param_conds
                .truncate(f.param_conds.len() - usize::from(flag.is_some()));
            f.tool_arm -= u32::from(selects);
            v
        });
        if let Some(e) = els {
            // `if let Some(tool) = tools.get(name) { .. } else { .. }`: the `else` answers a
            // name no tool has.
            let lookup = self.is_name_lookup(cond);
            let last_else = name_test && !self.continues_name_chain(e);
            let final_else = self.else_if_cond(e).is_none();
            let d = super::text::diverges(self.body, e);
            let ev = self.in_branch(group, d, negated, |f| {
                f.name_fallback += u32::from(lookup || last_else);
                f.fallback += u32::from(last_else);
                f.final_else += u32::from(final_else);
                f.param_conds.extend(flag.map(|(k, b)| (k, !b)));
                let v = f.eval(e);
                f.note_arm_value(id, e, &v);
                f.param_conds
                    .truncate(f.param_conds.len() - usize::from(flag.is_some()));
                f.name_fallback -= u32::from(lookup || last_else);
                f.fallback -= u32::from(last_else);
                f.final_else -= u32::from(final_else);
                if lookup || last_else {
                    f.fallback_value(e, &v);
                    if !d {
                        return f.answering_unknown_name(v, e);
                    }
                }
                v
            });
            if then_diverges || d {
                v.join(&ev);
            } else {
                v.join_alternative(&ev, self.site(then));
            }
        }
        v
    }

    /// `if flag` / `if !flag` on a `bool` parameter: the parameter, and its value in the
    /// `then` branch.
    fn param_flag(&self, cond: ExprId) -> Option<(u16, bool)> {
        let (inner, value) = match self.body.expr(cond).kind {
            ExprKind::Not(e) => (e, false),
            _ => (cond, true),
        };
        let ExprKind::Local(l) = self.body.expr(self.body.peel(inner)).kind else {
            return None;
        };
        let k = self.def.params.iter().position(|p| {
            matches!(self.body.pat(p.pat).kind, PatKind::Bind { local, sub: None } if local == l)
        })?;
        Some((u16::try_from(k).ok()?, value))
    }

    /// A test of the requested tool's name against a tool's name (not a JSON-RPC method).
    fn is_name_test(&self, cond: ExprId) -> bool {
        super::strings::equality(self.env.types, self.body, cond).is_some_and(|(subject, v)| {
            !v.contains('/') && v != "initialize" && self.mentions_name(subject)
        })
    }

    /// The condition of `els` when it is `else if ..` (or `else { if .. }`, which is the
    /// same; a block with statements is not).
    fn else_if_cond(&self, els: ExprId) -> Option<ExprId> {
        let mut e = els;
        for _ in 0..8 {
            match &self.body.expr(e).kind {
                ExprKind::If { cond, .. } => return Some(*cond),
                ExprKind::Block {
                    stmts,
                    tail: Some(t),
                    ..
                } if stmts.is_empty() => e = *t,
                _ => return None,
            }
        }
        None
    }

    /// Whether an `else` goes on testing the name (`else if name == "b" { .. }`).
    fn continues_name_chain(&self, els: ExprId) -> bool {
        self.else_if_cond(els).is_some_and(|c| self.is_name_test(c))
    }

    /// `let Some(..) = <something with the tool's name>`: a lookup of the tool by name.
    pub(super) fn is_name_lookup(&self, cond: ExprId) -> bool {
        let body = self.body;
        matches!(&body.expr(cond).kind, ExprKind::Let { pat, expr }
            if matches!(&body.pat(*pat).kind, PatKind::TupleStruct { path, .. }
                if path.last().is_some_and(|l| l == "Some"))
                && self.mentions_name(*expr))
    }

    /// The value of a branch that answers an unknown tool name: a tool result in it (built
    /// there, by a helper, or held in a variable) is the answer, unless one was recorded at
    /// its constructor already.
    pub(super) fn fallback_value(&mut self, branch: ExprId, v: &Val) {
        let span = self.body.expr(branch).span;
        let body = self.body;
        let recorded = self.facts.fallback_results.iter().any(|r| {
            let at = body.expr(r.at).span;
            r.owner == self.owner && at.start >= span.start && at.end <= span.end
        });
        if recorded {
            return;
        }
        let result = v.iter().find_map(|o| match (o.fact, o.part) {
            (Fact::ToolError, Part::Plain | Part::Ok) => Some((false, o)),
            (Fact::Success, Part::Plain | Part::Ok) => Some((true, o)),
            _ => None,
        });
        if let Some((success, o)) = result {
            // At the helper call or constructor in the branch that made it, when there is one.
            // A site of another fn (a helper that built the result) indexes another body.
            let inside = |site: super::program::Site| {
                if site.func != self.func {
                    return None;
                }
                let at = body.expr(site.expr).span;
                (at.start >= span.start && at.end <= span.end).then_some(site.expr)
            };
            // Made deeper than the call in this branch (a helper's helper built it): the
            // value the branch ends with is where it enters.
            let at = o
                .via
                .and_then(inside)
                .or_else(|| inside(o.site))
                .unwrap_or_else(|| body.value_of(branch));
            self.facts.fallback_results.push(FallbackResult {
                owner: self.owner,
                at,
                success,
                from_error: false,
                made: None,
                shared: false,
            });
        }
    }

    pub(super) fn match_expr(&mut self, id: ExprId, scrutinee: ExprId, arms: &[Arm]) -> Val {
        let sv = self.eval(scrutinee);
        // `match v.len() { 1 => .., _ => .. }` tests the length as `v.len() == 1` does.
        if let ExprKind::MethodCall {
            receiver, method, ..
        } = &self.body.expr(scrutinee).kind
            && method == "len"
            && let Some(p) = super::text::place_key(self.body, *receiver)
        {
            self.checks.length.insert(p);
        }
        self.note_name_parse(&sv, arms);
        // The fn's value decided by the variant of its receiver or a parameter.
        let by_variant = self.variant_input(id, scrutinee);
        let group = self.new_group();
        // A match on a tool's name, or on a crate enum parsed from it.
        let parsed = self.parsed_name_fallbacks(scrutinee);
        // A parse that fails (`Err(_)` of `name.parse::<Tool>()`) gives no tool that name.
        let enum_of_name = parsed.is_none() && self.matches_enum_of_name(scrutinee, arms);
        // `Ok(v)`/`Err(e)` arms test a result made with the name, not the name itself.
        let tests_result = !enum_of_name
            && arms.iter().any(|a| {
                is_variant_pattern(self.body, a.pat, "Ok") || is_err_pattern(self.body, a.pat)
            });
        let on_name = parsed.is_some() || (!tests_result && self.mentions_name(scrutinee));
        // `Some(other)` after `Some("read")` arms is every other name; after none, the tool
        // a lookup found.
        let types = self.env.types;
        let tests_strings = arms
            .iter()
            .any(|a| crate::analysis::strings::pattern_str(types, self.body, a.pat).is_some());
        // The catch-all variant of a parse of another string (`mode`) is that string's `_`.
        let other_parse = match parsed {
            Some(_) => None,
            None => self.parsed_fallbacks(scrutinee, false),
        };
        let unknown_variant = |body: &Body, pat: PatId| {
            parsed
                .as_ref()
                .or(other_parse.as_ref())
                .is_some_and(|variants| {
                    matches!(&body.pat(pat).kind, PatKind::Path(p)
                    if p.last().is_some_and(|l| variants.contains(l)))
                })
        };
        let mut out = Val::default();
        let mut ok_seen = false;
        // `Some(x) => .., _ => ..`: the catch-all after a `Some` that binds is the `None` of an
        // `Option`, not a name no arm matched, unless the option is a lookup by the name.
        let mut some_bound = false;
        let mut valued_arms = 0;
        // Serializing the crate's data to JSON does not fail on it (as for `?` and `unwrap`
        // on it): the `Err` branch of that call is no path the tool takes.
        let cannot_fail = self.serializes_to_json(scrutinee);
        for (i, arm) in arms.iter().enumerate() {
            if cannot_fail
                && (is_err_pattern(self.body, arm.pat)
                    || (ok_seen && super::text::is_fallback(self.body, arm.pat)))
            {
                continue;
            }
            let diverges = super::text::diverges(self.body, arm.body);
            // `None` of a lookup by name is the name no tool has.
            // A guarded catch-all (`name if is_math(name) => ..`) runs the tools it selects.
            // A catch-all after `Ok(..)` is the `Err` branch of a `Result`, not a fallback.
            let fallback = arm.guard.is_none()
                && (!ok_seen || enum_of_name)
                && (on_name || !some_bound)
                && (super::text::is_fallback(self.body, arm.pat)
                    || unknown_variant(self.body, arm.pat)
                    || (enum_of_name && is_err_pattern(self.body, arm.pat))
                    || (on_name
                        && ((tests_strings && super::text::is_some_fallback(self.body, arm.pat))
                            || matches!(&self.body.pat(arm.pat).kind,
                                PatKind::Path(p) if p.last().is_some_and(|l| l == "None")))));
            let selects = (parsed.is_some() && !fallback)
                || (enum_of_name && self.tests_crate_variant(arm.pat));
            if selects {
                self.facts.parsed_name_arms.push(arm.body);
            }
            let gates = super::gates::arm_gates(self.body, scrutinee, arms, i);
            let v = self.in_branch(group, diverges, gates, |f| {
                if fallback {
                    f.fallback += 1;
                    if on_name {
                        f.name_fallback += 1;
                    }
                } else if on_name {
                    f.tool_arm += 1;
                }
                f.bind(arm.pat, &sv, scrutinee);
                if let Some(g) = arm.guard {
                    f.eval(g);
                }
                // The `Err(..)` arm, or a catch-all after an `Ok(..)` arm: the call failed.
                let fails = is_err_pattern(f.body, arm.pat)
                    || (ok_seen && super::text::is_fallback(f.body, arm.pat));
                let (failing, others, params) = if fails {
                    (
                        f.failing_calls(&sv),
                        f.failing_others(&sv),
                        failing_params(&sv),
                    )
                } else {
                    (Vec::new(), Vec::new(), Vec::new())
                };
                let depth = (f.err_context.len(), f.err_params.len(), f.err_others.len());
                f.err_context.extend(failing);
                f.err_params.extend(params);
                f.err_others.extend(others);
                let v = f.eval(arm.body);
                f.note_arm_value(id, arm.body, &v);
                f.err_context.truncate(depth.0);
                f.err_params.truncate(depth.1);
                f.err_others.truncate(depth.2);
                if fallback {
                    f.fallback -= 1;
                    if on_name {
                        f.name_fallback -= 1;
                        f.fallback_value(arm.body, &v);
                        if !diverges {
                            return f.answering_unknown_name(v, arm.body);
                        }
                    }
                } else if on_name {
                    f.tool_arm -= 1;
                }
                v
            });
            if let Some(input) = by_variant {
                for variant in self.pattern_variants(arm.pat) {
                    if self.by_variant.len() < 64 {
                        self.by_variant.push((input, variant, v.clone()));
                    }
                }
            }
            // The arms that give the `match` its value are alternatives to each other.
            if diverges || valued_arms == 0 {
                out.join(&v);
            } else {
                out.join_alternative(&v, self.site(arm.body));
            }
            valued_arms += usize::from(!diverges);
            ok_seen |= is_variant_pattern(self.body, arm.pat, "Ok");
            some_bound |= super::text::is_some_fallback(self.body, arm.pat);
        }
        out
    }

    /// Evaluates a closure's body with its parameters bound to `params`; returns its value.
    pub fn closure(&mut self, c: ClosureId, params: &[Val]) -> Val {
        let def = self.body.closure(c);
        for (i, &p) in def.params.iter().enumerate() {
            if let Some(v) = params.get(i) {
                self.bind(p, v, def.body);
            }
        }
        let outer = self.owner.replace(c);
        let (exits, returns) = (self.facts.exits.len(), self.facts.returns.len());
        let mut v = self.eval(def.body);
        let tail = self.body.closure_value(c);
        self.finish_body(tail, v.clone());
        self.owner = outer;
        // A closure's `?` and `return` leave the closure, not the fn: what they hand back is
        // the closure's value too (`.map(|s| { let id = parse(s)?; Ok(id) }).collect()`).
        // An `async` block's are its future's output, followed where the future is returned.
        if def.is_async_block {
            return v;
        }
        for e in self.facts.exits[exits.min(self.facts.exits.len())..]
            .iter()
            .filter(|e| e.owner == Some(c))
        {
            v.join(&e.err.tagged(Part::Err));
        }
        for r in self.facts.returns[returns.min(self.facts.returns.len())..]
            .iter()
            .filter(|r| r.owner == Some(c))
        {
            v.join(&r.val);
        }
        v
    }

    /// `expr?`: an exit with the error side; the value is the success side.
    pub(super) fn question(&mut self, id: ExprId, expr: ExprId, question: Sp) -> Val {
        let v = self.eval(expr);
        let (operand, option, lock_failure) = super::text::question_operand(self.body, expr);
        let mut err = v.part(Part::Err);
        // A callee's error of another type is converted here (`From`): this `?` makes it.
        // An error of known variants goes through the crate's `From` impl that picks by
        // variant: the error it makes for those variants is made here.
        if self.owner.is_none()
            && let Some(converted) = self.converted_by_variant(&err, id)
        {
            err = converted;
        } else if self.owner.is_none() && self.converts_at(operand) {
            let about_args = err.any(|o| {
                matches!(
                    o.fact,
                    Fact::Foreign {
                        about_args: true,
                        ..
                    }
                )
            });
            let unknown_tool = err.any(|o| {
                matches!(
                    o.fact,
                    Fact::Foreign {
                        unknown_tool: true,
                        ..
                    }
                )
            });
            // The callee's errors are content now: neither they nor the call are forwarded.
            err.retain(|o| {
                o.fact != Fact::Returned
                    && (o.via.is_none()
                        || matches!(o.fact, Fact::Protocol(_) | Fact::RpcErrorObject { .. }))
            });
            if err.is_empty() {
                err.push(Origin {
                    fact: Fact::Foreign {
                        about_args,
                        unknown_tool,
                    },
                    part: Part::Plain,
                    site: self.site(id),
                    via: None,
                    wrap: None,
                    local: None,
                });
            }
        }
        // An error of a call we cannot see into (std, another crate) is made at this `?`.
        // (`Url::parse("https://..")?` on a constant cannot fail on caller data.)
        if err.is_empty()
            && !super::text::is_constant(self.body, self.body.peel(operand))
            && !self.serializes_to_json(operand)
        {
            let parsed = if self.deserializes_handler_arguments(operand) {
                Some(true)
            } else {
                super::text::parses_arguments(self.body, operand)
            };
            err.push(Origin {
                fact: Fact::Foreign {
                    about_args: parsed == Some(true),
                    unknown_tool: parsed == Some(false),
                },
                part: Part::Plain,
                site: self.site(id),
                via: None,
                wrap: None,
                local: None,
            });
        }
        self.facts.exits.push(Exit {
            owner: self.owner,
            kind: ExitKind::Question,
            at: id,
            question: Some(question),
            operand: Some(operand),
            option,
            err,
            in_fallback: self.fallback > 0,
            lock_failure,
        });
        v.success()
    }

    /// Whether `?` on `operand`, a call to crate fns, converts their error into this fn's
    /// error type (they differ).
    pub(super) fn converts_at(&self, operand: ExprId) -> bool {
        let types = self.env.types;
        let Some(own) = super::types::error_type(types.ret(self.func)) else {
            return false;
        };
        let mut targets = self
            .resolved
            .targets(self.body.peel(operand))
            .filter(|c| !c.may)
            .flat_map(|c| c.targets.iter().copied())
            .peekable();
        targets.peek().is_some()
            && targets.all(|t| super::types::error_type(types.ret(t)).is_some_and(|e| e != own))
    }
}

/// The parameters a matched value is (`match result { .. }` on parameter `result`): in its
/// `Err` arm the fn answers the failure its caller passed.
fn failing_params(v: &Val) -> Vec<u16> {
    v.iter()
        .filter(|o| o.part == Part::Plain)
        .filter_map(|o| match o.fact {
            Fact::Param(k) => Some(k),
            _ => None,
        })
        .collect()
}

impl Flow<'_, '_> {
    /// The value of a branch that answers a name no tool has: text it gives
    /// (`other => format!("no tool {other}")`) is that answer wherever it goes, a result
    /// built from it later included, and is marked so.
    fn answering_unknown_name(&self, mut v: Val, branch: ExprId) -> Val {
        if is_plain_text(&v) {
            v.push(self.origin(Fact::ErrText { unknown_tool: true }, branch));
        }
        // An `Err` it gives is that answer too, wherever the fn takes it (an exit marks
        // it the same way: see `exits::as_unknown_tool`).
        if v.any(|o| o.part == Part::Err) {
            let err = super::flow::exits::as_unknown_tool(&v.part(Part::Err), self.site(branch));
            let mut out: Val = Val::default();
            for o in v.iter().filter(|o| o.part != Part::Err) {
                out.push(*o);
            }
            out.join(&err.tagged(Part::Err));
            return out;
        }
        v
    }
}

/// Whether a value is text and nothing of a result or an error: no tool result, JSON-RPC
/// error object, `Ok`/`Err` side.
fn is_plain_text(v: &Val) -> bool {
    !v.is_empty()
        && v.iter().all(|o| {
            o.part == Part::Plain
                && !matches!(
                    o.fact,
                    Fact::Success
                        | Fact::ToolError
                        | Fact::RpcErrorObject { .. }
                        | Fact::Protocol(_)
                        | Fact::ErrJson
                        | Fact::Variant(_)
                )
        })
}

/// `Err(..)`: the pattern of a `Result`'s failure.
fn is_err_pattern(body: &Body, pat: PatId) -> bool {
    is_variant_pattern(body, pat, "Err")
}

/// `Ok(..)` / `Err(..)` as a pattern.
fn is_variant_pattern(body: &Body, pat: PatId, variant: &str) -> bool {
    matches!(&body.pat(pat).kind,
        PatKind::TupleStruct { path, .. } if path.last().is_some_and(|l| l == variant))
}
