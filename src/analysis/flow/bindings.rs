//! Blocks, `let` and assignments in the flow walk: what a pattern binds from a value (the
//! `Ok`/`Err` payloads of `match` and `if let` arms), and what an assignment adds to a local
//! or a field.

use super::*;

impl Flow<'_, '_> {
    pub(super) fn block(&mut self, stmts: &[Stmt], tail: Option<ExprId>) -> Val {
        // After a loop that leaves when it finds the requested tool, no tool had its name.
        let mut not_found = false;
        for stmt in stmts {
            match stmt {
                Stmt::Let { pat, init, els, .. } => {
                    let v = match init {
                        Some(i) => self.eval(*i),
                        None => Val::default(),
                    };
                    if let Some(e) = els {
                        let group = self.new_group();
                        // `let Ok(v) = call() else { .. }`: the `else` answers the failure.
                        let failing = self.failing_calls(&v);
                        self.in_branch(group, true, Vec::new(), |f| {
                            let depth = f.err_context.len();
                            f.err_context.extend(failing);
                            f.eval(*e);
                            f.err_context.truncate(depth);
                        });
                    }
                    // `let parsed: Tool = ..` binds as `let parsed = ..` does.
                    let bound = self.body.untyped(*pat);
                    if let (Some(i), PatKind::Bind { local, sub: None }) =
                        (init, &self.body.pat(bound).kind)
                        && let Some(variants) = self.parsed_name_fallbacks(*i)
                    {
                        self.parsed_name_locals.push((*local, variants));
                    }
                    // `let x;` holds nothing yet: its first assignment is not an alternative.
                    if init.is_some() {
                        self.bind(*pat, &v, init.unwrap_or(0));
                    }
                }
                Stmt::Expr { expr, .. } => {
                    self.eval(*expr);
                    if !not_found && self.is_search_loop(*expr) {
                        not_found = true;
                        self.fallback += 1;
                        self.name_fallback += 1;
                    }
                }
            }
        }
        let v = match tail {
            Some(t) => self.eval(t),
            None => Val::default(),
        };
        if not_found {
            if let Some(t) = tail {
                self.fallback_value(t, &v);
            }
            self.fallback -= 1;
            self.name_fallback -= 1;
        }
        v
    }

    /// Binds a pattern to a value: `Ok(x)`/`Some(x)` get the success payload, `Err(e)` the
    /// error payload (and is an error value), anything else the whole value.
    pub fn bind(&mut self, pat: PatId, v: &Val, at: ExprId) {
        let body = self.body;
        match &body.pat(pat).kind {
            PatKind::Bind { local, sub } => {
                if let Some(s) = sub {
                    self.bind(*s, v, at);
                }
                self.add_to_local(*local, v);
            }
            PatKind::TupleStruct { path, elems } => {
                let last = path.last().map(Name::as_str).unwrap_or_default();
                let inner = match last {
                    "Ok" | "Some" => v.success(),
                    "Err" => {
                        let mut e = v.part(Part::Err);
                        // The value bound is an error; where it was made is known when the
                        // matched value carries its origin (a task's `Ok(Err(e))`).
                        let marker = self.err_marker(at, elems.first().copied());
                        // Failure text on the error side (a callee's `Err`, or one made here) is
                        // a value from here on: where it goes (a success, an error result) is
                        // this binding's doing.
                        for o in &mut e.0 {
                            if o.fact.is_failure() {
                                o.site = marker.site;
                                o.via = None;
                                o.local = marker.local;
                            }
                        }
                        if !e.any(|o| matches!(o.fact, Fact::Protocol(_))) {
                            e.push(marker);
                        }
                        e
                    }
                    _ => v.clone(),
                };
                for &p in elems {
                    self.bind(p, &inner, at);
                }
            }
            PatKind::Struct { fields, .. } => {
                for (_, p) in fields {
                    self.bind(*p, v, at);
                }
            }
            PatKind::Tuple(items) | PatKind::Slice(items) | PatKind::Or(items) => {
                for &p in items {
                    self.bind(p, v, at);
                }
            }
            PatKind::Ref(p) | PatKind::Typed { pat: p, .. } => self.bind(*p, v, at),
            _ => {}
        }
    }

    /// An error value bound at `at` (the value being matched) to pattern `pat`.
    pub fn err_marker(&self, at: ExprId, pat: Option<PatId>) -> Origin {
        let local = pat.and_then(|p| match self.body.pat(p).kind {
            PatKind::Bind { local, .. } => Some(local),
            _ => None,
        });
        Origin {
            fact: Fact::ErrValue,
            part: Part::Plain,
            site: self.site(at),
            via: None,
            wrap: None,
            local,
        }
    }

    pub(super) fn assign(&mut self, place: ExprId, value: ExprId, compound: bool) {
        let body = self.body;
        // `result.is_error = Some(true)`: the result is an error result now.
        if let ExprKind::Field { base, member } = &body.expr(place).kind
            && member == "is_error"
            && let ExprKind::Local(l) = body.expr(body.peel(*base)).kind
        {
            let marks_error = is_true_literal(body, value);
            self.eval(value);
            if marks_error {
                for o in &mut self.locals[l as usize].0 {
                    if o.fact == Fact::Success {
                        o.fact = Fact::ToolError;
                    }
                }
            }
            return;
        }
        let v = self.eval(value);
        if let ExprKind::Local(l) = body.expr(body.peel(place)).kind {
            if !compound {
                return self.replace_local(l, &v, place);
            }
            // `i += n`: a number not followed further (text appended with `+=` keeps its
            // origins).
            let mut v = v;
            if v.iter().all(|o| {
                matches!(
                    o.fact,
                    Fact::Int(_) | Fact::Boundary { .. } | Fact::Untracked
                )
            }) {
                v.push(self.origin(Fact::Untracked, place));
            }
            return self.add_to_local(l, &v);
        }
        let mut target = place;
        loop {
            match &body.expr(target).kind {
                ExprKind::Field { base, .. } | ExprKind::Index { base, .. } => target = *base,
                ExprKind::Deref(e) => target = *e,
                ExprKind::Local(l) => {
                    self.add_to_local(*l, &v);
                    return;
                }
                _ => {
                    self.eval(place);
                    return;
                }
            }
        }
    }
}

fn is_true_literal(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Lit(Lit::Bool(true)) => true,
        ExprKind::Call { func, args } => {
            matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "Some"))
                && args.first().is_some_and(|&a| is_true_literal(body, a))
        }
        _ => false,
    }
}
