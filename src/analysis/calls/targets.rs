//! Calls as the walker meets them: a path call, a method call resolved by its receiver's
//! type (or, when that is unknown, to every crate method of the name), and the calls inside
//! macro arguments and `json!` values.

use super::*;

impl Walker<'_, '_> {
    pub(super) fn call(&mut self, id: ExprId, func: ExprId, args: &[ExprId]) -> Option<Ty> {
        let body = self.body;
        let ExprKind::Path(path) = &body.expr(func).kind else {
            // `(self.handler)(args)`, `f(x)` with `f` a local.
            self.visit(func);
            let idx = self.record(id, CallKind::Call, Vec::new(), false);
            self.open.push(idx);
            self.visit_all(args);
            self.open.pop();
            return None;
        };
        let imports = &self.program.file_ir(self.func).imports;
        let resolved = imports.resolve_segments(path);
        let mut targets = self.types.resolve_path(self.program, self.func, &resolved);
        if targets.is_empty() && *resolved != **path {
            targets = self.types.resolve_path(self.program, self.func, path);
        }
        // A task started here catches its panics, unless the caller unwraps its join.
        let task = crate::analysis::std_types::runs_as_task(&resolved)
            && !self.unwrapped_tasks.contains(&id);
        let guard = task || path.last().is_some_and(|n| self.is_guard_name(n));
        let first = targets.first().copied();
        let idx = self.record(id, CallKind::Call, targets, false);
        self.open.push(idx);
        if guard {
            self.out.catches_panics |= path.last().is_some_and(|n| n == "catch_unwind");
            self.guard += 1;
        }
        let arg_tys: Vec<Option<Ty>> = args.iter().map(|&a| self.visit(a)).collect();
        if guard {
            self.guard -= 1;
        }
        self.open.pop();
        if let Some(t) = first {
            let owner = path
                .len()
                .checked_sub(2)
                .map(|i| path[i].as_str())
                .filter(|o| *o != "Self");
            return Some(self.fn_ret(t, owner.or(self.def.owner.as_deref())));
        }
        super::super::std_types::library_fn_type(&resolved)
            .or_else(|| constructed_type(path, &arg_tys, self.types, self.def.owner.as_deref()))
    }

    pub(super) fn method_call(
        &mut self,
        id: ExprId,
        receiver: ExprId,
        method: &str,
        args: &[ExprId],
    ) -> Option<Ty> {
        let body = self.body;
        let catch = method == "catch_unwind";
        if catch {
            self.out.catches_panics = true;
            self.guard += 1;
        }
        let recv_ty = self.visit(receiver);
        if catch {
            self.guard -= 1;
        }
        let is_self = matches!(body.expr(body.peel(receiver)).kind, ExprKind::SelfValue);
        let (targets, may) = self.method_targets(is_self, recv_ty.as_ref(), method, args.len());
        let first = targets.first().copied();
        let idx = self.record(id, CallKind::Method, targets, may);
        let guard = self.config_guards.iter().any(|g| g == method);
        self.open.push(idx);
        if guard {
            self.guard += 1;
        }
        if let Some(t) = recv_ty
            .as_ref()
            .and_then(|r| crate::analysis::std_types::closure_param_type(r, method))
        {
            for &a in args {
                if let ExprKind::Closure(c) = body.expr(a).kind
                    && self.expected_params.len() < 64
                {
                    self.expected_params.push((c, t.clone()));
                }
            }
        }
        self.visit_all(args);
        if guard {
            self.guard -= 1;
        }
        self.open.pop();
        if let Some(t) = first
            && !may
        {
            let owner = recv_ty.as_ref().and_then(type_name).map(str::to_string);
            return Some(self.fn_ret(t, owner.as_deref()));
        }
        match recv_ty {
            Some(recv_ty) => self
                .generated_getter(&recv_ty, method, args.len())
                .or_else(|| std_method_type(&recv_ty, method)),
            None => super::super::std_types::unknown_receiver_method_type(method),
        }
    }

    /// A method the crate does not define, without arguments, named after a field of the
    /// crate struct it is called on: the getter a derive macro wrote for that field
    /// (`#[derive(Getters)]`, `getset`): the field, by reference.
    fn generated_getter(&self, recv_ty: &Ty, method: &str, args: usize) -> Option<Ty> {
        if args > 0 {
            return None;
        }
        let owner = type_name(recv_ty)?;
        let field = self.types.field_ty(owner, method)?;
        Some(self.types.expand(field))
    }

    pub(super) fn method_targets(
        &self,
        is_self: bool,
        recv: Option<&Ty>,
        method: &str,
        arity: usize,
    ) -> (Vec<FnId>, bool) {
        if self.budget.spent() {
            return (Vec::new(), false);
        }
        if is_self {
            if let FnKind::TraitDefault { .. } = self.def.kind
                && let Some(tr) = &self.def.owner
            {
                return (self.types.trait_method(tr, method), false);
            }
            if let Some(owner) = &self.def.owner {
                // `impl<T: Tool> Dyn for T { .. self.m() .. }`: the bound's implementations.
                if let Some(g) = self.def.generics.iter().find(|g| g.name == *owner) {
                    let found: Vec<FnId> = g
                        .bounds
                        .iter()
                        .flat_map(|b| self.types.trait_method(b, method))
                        .filter(|&t| t != self.func)
                        .collect();
                    return (found, false);
                }
                let found = self.types.method_of(owner, method);
                if !found.is_empty() {
                    return (found, false);
                }
            }
        }
        if let Some(ty) = recv {
            match peel(ty) {
                Ty::Traits(bounds) => {
                    let found: Vec<FnId> = bounds
                        .iter()
                        .flat_map(|b| self.types.trait_method(b, method))
                        .collect();
                    return (found, false);
                }
                Ty::Path { path, .. } => {
                    if let [name] = &path[..]
                        && let Some(g) = self
                            .def
                            .generics
                            .iter()
                            .find(|g| &g.name == name || g.name == format!("impl {name}"))
                    {
                        let found = g
                            .bounds
                            .iter()
                            .flat_map(|b| self.types.trait_method(b, method))
                            .collect();
                        return (found, false);
                    }
                    if let Some(name) = path.last() {
                        if self.types.is_trait(name) {
                            return (self.types.trait_method(name, method), false);
                        }
                        let found = self.types.method_of(name, method);
                        if !found.is_empty() || self.types.is_crate_type(name) {
                            return (found, false);
                        }
                        // A type from elsewhere: not a crate method.
                        return (Vec::new(), false);
                    }
                }
                _ => {}
            }
        }
        if STD_METHODS.contains(&method) {
            return (Vec::new(), false);
        }
        // By name alone, only a method that `x.m(..)` can call: one taking `self` and as many
        // arguments as the call gives (`uri.query()` is not `Index::query(&self, text)`).
        let callable = |&&t: &&FnId| {
            let def = self.program.def(t);
            def.has_receiver && def.params.len() == arity
        };
        let found: Vec<FnId> = self
            .types
            .methods_named(method)
            .iter()
            .filter(callable)
            .copied()
            .collect();
        (found, true)
    }

    pub(super) fn macro_call(&mut self, id: ExprId, m: &MacroCall) {
        let mut targets = Vec::new();
        let mut may = false;
        for def in self.types.macros_named(&m.name) {
            for path in &def.calls {
                targets.extend(self.types.resolve_path(self.program, self.func, path));
            }
            for method in &def.method_calls {
                if !STD_METHODS.contains(&method.as_str()) {
                    targets.extend(self.types.methods_named(method).iter().copied());
                    may = true;
                }
            }
        }
        for name in &m.calls {
            targets.extend(self.types.resolve_path(
                self.program,
                self.func,
                std::slice::from_ref(name),
            ));
        }
        targets.sort_unstable();
        targets.dedup();
        let idx = (!targets.is_empty()).then(|| self.record(id, CallKind::Macro, targets, may));
        if let Some(i) = idx {
            self.open.push(i);
        }
        self.visit_all(&m.args);
        if let Some(f) = &m.format {
            self.visit_all(&f.args);
        }
        if let Some(j) = &m.json {
            self.json(j);
        }
        if idx.is_some() {
            self.open.pop();
        }
    }

    pub(super) fn json(&mut self, j: &Json) {
        match j {
            Json::Object(members) => {
                for m in members {
                    self.json(&m.value);
                }
            }
            Json::Array(items) => {
                for i in items {
                    self.json(i);
                }
            }
            Json::Expr(e) => {
                self.visit(*e);
            }
            Json::Null | Json::Lit(..) => {}
        }
    }

    /// `?` on a `Result<_, E>` in a fn returning `Result<_, F>` calls `<F as From<E>>::from`
    /// when the error types differ: the crate's impl runs on that error path, its panics too.
    /// Only the fn's own `?` (a closure's returns the closure's error) and only impls whose
    /// source and target are the two error types.
    pub(super) fn conversion_at_try(&mut self, id: ExprId, operand: &Ty) {
        if self.owner.is_some() {
            return;
        }
        let Some((_, err)) = peel(operand).as_result() else {
            return;
        };
        let ret = self.types.expand(self.types.ret(self.func));
        let Some((_, into)) = ret.as_result() else {
            return;
        };
        let named = |t: &Ty| self.types.expand(t).last_segment().map(Name::new);
        let (Some(from), Some(into)) = (named(err), named(into)) else {
            return;
        };
        if from == into {
            return;
        }
        let targets: Vec<FnId> = (self.types.trait_method("From", "from").into_iter())
            .filter(|&f| {
                let def = self.program.def(f);
                let FnKind::Method { impl_idx } = def.kind else {
                    return false;
                };
                let imp = self.program.file_ir(f).impls.get(impl_idx as usize);
                imp.is_some_and(|i| named(&i.self_ty).as_ref() == Some(&into))
                    && def.params.first().and_then(|p| named(&p.ty)).as_ref() == Some(&from)
            })
            .collect();
        if !targets.is_empty() {
            self.record(id, CallKind::Conversion, targets, false);
        }
    }
}
