//! A string parsed into a crate enum by a `match` on string literals (`fn parse(s: &str) ->
//! Tool { match s { "read" => Tool::Read, _ => Tool::Unknown } }`) is the same selection as
//! the `match` on the string: a caller that `match`es the parsed value of a tool's name
//! selects a tool, and its arm for the variant the parse's catch-all gives answers a name no
//! tool has.

use super::*;

impl Flow<'_, '_> {
    /// Records, for the fn's summary, a `match` on parameter `k` (a string) whose arms test
    /// strings and whose catch-all gives a variant: `(k, that variant's name)`.
    pub(crate) fn note_name_parse(&mut self, scrutinee_val: &Val, arms: &[Arm]) {
        let mut params = scrutinee_val
            .iter()
            .filter(|o| o.part == Part::Plain)
            .filter_map(|o| match o.fact {
                Fact::Param(k) => Some(k),
                _ => None,
            });
        let (Some(k), None) = (params.next(), params.next()) else {
            return;
        };
        // A string arm: a literal or a crate constant holding one.
        let types = self.env.types;
        if !arms
            .iter()
            .any(|a| crate::analysis::strings::pattern_str(types, self.body, a.pat).is_some())
        {
            return;
        }
        for arm in arms {
            if arm.guard.is_some() || !super::super::text::is_fallback(self.body, arm.pat) {
                continue;
            }
            if let ExprKind::Path(p) = &self.body.expr(self.body.value_of(arm.body)).kind
                && let Some(variant) = p.last()
                && p.len() >= 2
                && !self
                    .name_parses
                    .iter()
                    .any(|(j, v)| *j == k && v == variant)
            {
                self.name_parses.push((k, variant.clone()));
            }
        }
    }

    /// Records, for the fn's summary, the last `else` of an `if s == "a" { A } else if ..
    /// else { Other }` chain on parameter `k` when it gives a variant: the parse's catch-all,
    /// as `_ => Other` of a `match`.
    pub(crate) fn note_name_parse_chain(&mut self, cond: ExprId, els: Option<ExprId>) {
        let Some(e) = els else { return };
        let body = self.body;
        if matches!(body.expr(body.value_of(e)).kind, ExprKind::If { .. }) {
            return;
        }
        let Some((subject, _)) = crate::analysis::strings::equality(self.env.types, body, cond)
        else {
            return;
        };
        let Some(k) = self.single_param(subject) else {
            return;
        };
        let variant = match crate::analysis::variant_strings::variant_made(body, e) {
            Some([.., v]) => v,
            _ => return,
        };
        if !self
            .name_parses
            .iter()
            .any(|(j, v)| *j == k && v == variant)
        {
            self.name_parses.push((k, variant.clone()));
        }
    }

    /// The parameter a local (or a parameter itself) holds, and nothing else.
    fn single_param(&self, e: ExprId) -> Option<u16> {
        let ExprKind::Local(l) = self.body.expr(self.body.peel(e)).kind else {
            return None;
        };
        let mut params = self.locals[l as usize]
            .iter()
            .filter(|o| o.part == Part::Plain)
            .filter_map(|o| match o.fact {
                Fact::Param(k) => Some(k),
                _ => None,
            });
        match (params.next(), params.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        }
    }

    /// The catch-all variant of a parse written in place (`match { match name { "a" => A,
    /// _ => Other } } { .. }`, or its `if` chain): the variant of the `_` arm or last `else`.
    fn inline_parse_fallbacks(&self, scrutinee: ExprId, of_name: bool) -> Option<Vec<Name>> {
        let body = self.body;
        let types = self.env.types;
        let mut at = body.value_of(body.peel(scrutinee));
        // Each step goes one `else` further; the bound is for hostile nesting.
        for _ in 0..64 {
            match &body.expr(at).kind {
                ExprKind::Match { scrutinee: s, arms } => {
                    let strings = arms.iter().any(|a| {
                        crate::analysis::strings::pattern_str(types, body, a.pat).is_some()
                    });
                    // The catch-all of a parse of a parse is the inner parse's catch-all variant
                    // (and the inner parse, of the name, makes this one of the name).
                    let inner = self.parsed_fallbacks(*s, of_name);
                    if !strings || (of_name && inner.is_none() && !self.mentions_name(*s)) {
                        return None;
                    }
                    let inner = inner.unwrap_or_default();
                    let catches_all = |p: PatId| {
                        super::super::text::is_fallback(body, p)
                            || matches!(&body.pat(p).kind, PatKind::Path(path)
                                if path.last().is_some_and(|l| inner.contains(l)))
                    };
                    let out: Vec<Name> = arms
                        .iter()
                        .filter(|a| a.guard.is_none() && catches_all(a.pat))
                        .filter_map(|a| {
                            crate::analysis::variant_strings::variant_made(body, a.body)
                        })
                        .filter_map(|p| p.last().cloned())
                        .collect();
                    return (!out.is_empty()).then_some(out);
                }
                ExprKind::If {
                    cond, els: Some(e), ..
                } => {
                    let (subject, _) = crate::analysis::strings::equality(types, body, *cond)?;
                    if of_name && !self.mentions_name(subject) {
                        return None;
                    }
                    let next = body.value_of(*e);
                    if !matches!(body.expr(next).kind, ExprKind::If { .. }) {
                        let p = crate::analysis::variant_strings::variant_made(body, *e)?;
                        return Some(vec![p.last()?.clone()]);
                    }
                    at = next;
                }
                // `let parsed = match .. { .. }; parsed`
                ExprKind::Local(l) => at = body.value_of(body.local(*l).init?),
                _ => return None,
            }
        }
        None
    }

    /// Whether `e` looks a value up by the requested tool's name (`tools.get(name)`,
    /// `registry.get_mut(&request.name)`): not a read of the name itself (`get("name")`).
    pub(crate) fn looks_up_by_name(&self, e: ExprId) -> bool {
        let body = self.body;
        match &body.expr(body.peel(e)).kind {
            ExprKind::MethodCall { method, args, .. }
                if matches!(method.as_str(), "get" | "get_mut") && args.len() == 1 =>
            {
                body.str_lit(args[0]).is_none() && self.mentions_name(args[0])
            }
            _ => false,
        }
    }

    /// Whether `e` is, or is made from, the tool's name: read from the request, or from a
    /// parameter a caller passes it.
    pub(crate) fn mentions_name(&self, e: ExprId) -> bool {
        let names = self.env.tool_names.get(self.func as usize);
        super::super::text::mentions_name_given(self.body, e, names.map_or(&[], Vec::as_slice))
    }

    /// The variants a crate fn's catch-all gives when `scrutinee` is a call of it that parses
    /// a tool's name (the argument it parses mentions the name); `None` when it is no such
    /// call.
    pub(crate) fn parsed_name_fallbacks(&self, scrutinee: ExprId) -> Option<Vec<Name>> {
        self.parsed_fallbacks(scrutinee, true)
    }

    /// The variants a crate fn's catch-all gives when `scrutinee` is a call of it that parses
    /// a string (`of_name`: the tool's name): an arm for one of them is the catch-all of the
    /// strings, as `_ =>` of a `match` on the string is.
    pub(crate) fn parsed_fallbacks(&self, scrutinee: ExprId, of_name: bool) -> Option<Vec<Name>> {
        // `{ let parsed = parse(name); parsed }` is what its tail is.
        let call = self
            .body
            .peel(self.body.value_of(self.body.peel(scrutinee)));
        if let ExprKind::Local(l) = &self.body.expr(call).kind {
            let held = self.parsed_name_locals.iter().find(|(m, _)| m == l);
            return held.map(|(_, variants)| variants.clone());
        }
        let args: Vec<ExprId> = match &self.body.expr(call).kind {
            // A method's parameters are numbered after its receiver.
            ExprKind::Call { args, .. } | ExprKind::MethodCall { args, .. } => args.to_vec(),
            _ => return self.inline_parse_fallbacks(scrutinee, of_name),
        };
        let mut out = Vec::new();
        for site in self.resolved.targets(call).filter(|c| !c.may) {
            for &t in &site.targets {
                let Some(summary) = self.env.summaries.get(t as usize) else {
                    continue;
                };
                for (k, variant) in &summary.name_parses {
                    let passes_name = args
                        .get(*k as usize)
                        .is_some_and(|&a| !of_name || self.mentions_name(a));
                    if passes_name {
                        out.push(variant.clone());
                    }
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether a `match` on `scrutinee` with `arms` tells tools apart by the variants of a
    /// crate enum parsed from the tool's name by any means (`FromStr`, a derive, serde):
    /// the scrutinee is made from the name and some arm tests a variant of a crate enum,
    /// bare or inside `Ok(..)`/`Some(..)`.
    pub(crate) fn matches_enum_of_name(&self, scrutinee: ExprId, arms: &[Arm]) -> bool {
        self.mentions_name(scrutinee) && arms.iter().any(|a| self.tests_crate_variant(a.pat))
    }

    /// Whether pattern `pat` tests a variant of a crate enum, bare or inside `Ok`/`Some`.
    pub(crate) fn tests_crate_variant(&self, pat: PatId) -> bool {
        if !self.pattern_variants(pat).is_empty() {
            return true;
        }
        match &self.body.pat(pat).kind {
            PatKind::TupleStruct { path, elems }
                if elems.len() == 1
                    && path.len() == 1
                    && path.last().is_some_and(|l| l == "Ok" || l == "Some") =>
            {
                !self.pattern_variants(elems[0]).is_empty()
            }
            _ => false,
        }
    }
}
