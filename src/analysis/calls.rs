//! Call resolution with local type inference, one walk per fn in evaluation order.
//!
//! A local's type comes from its annotation, its parameter type, or its initializer:
//! constructors (`T::new()`, `T { .. }`), returns of resolved calls, fields, and peeling
//! `&`, `Arc`, `Box`, locks, `Option`/`Result` payloads. `x.m()` resolves by `x`'s type
//! (inherent and trait impls, provided methods, generic bounds, `dyn Trait`); when the type
//! is unknown, to every crate method `m` (a may-call), unless `m` is a common std method.
//! Fn values (`.map(parse_row)`), closures, and the crate's `macro_rules!` are calls too.

use super::program::{FnId, Program};
use super::std_types::*;
use super::types::{TypeTable, element, payload, peel, type_name, with_self};
use crate::model::ir::*;
use crate::model::resolve::Ty;

mod targets;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    Call,
    Method,
    /// A crate fn passed as a value (`.map(parse_row)`): it is called by the callee.
    FnValue,
    /// A crate macro's expansion, or names in macro tokens.
    Macro,
    /// A closure or async block defined here.
    Closure,
    /// The crate's `From::from` that `?` calls to turn the operand's error into the fn's.
    Conversion,
}

#[derive(Clone, Debug)]
pub struct CallSite {
    pub expr: ExprId,
    /// The body the call is made in: the fn itself or one of its closures.
    pub owner: Option<ClosureId>,
    pub targets: Vec<FnId>,
    /// For [`CallKind::Closure`]: the closure defined.
    pub closure: Option<ClosureId>,
    /// Resolved by name alone (the receiver's type is unknown).
    pub may: bool,
    pub kind: CallKind,
    /// Lexically inside the arguments of `catch_unwind` or a configured panic guard.
    pub guarded: bool,
    /// The call whose arguments hold this one.
    pub within: Option<u32>,
}

#[derive(Debug, Default)]
pub struct Resolved {
    pub calls: Vec<CallSite>,
    /// Indices into `calls` sorted by the call's expression (a `Call`/`MethodCall`/`Macro`/
    /// `Closure`), for the flow's lookups by expression: one array, not a list per call.
    by_expr: Vec<(ExprId, u32)>,
    pub local_tys: Vec<Option<Ty>>,
    /// The fn calls `catch_unwind` itself: a panic guard for the code it is given.
    pub catches_panics: bool,
}

impl Resolved {
    /// The indices of the call sites recorded at `expr`, in the order they were recorded.
    pub fn at(&self, expr: ExprId) -> impl Iterator<Item = u32> + '_ {
        let from = self.by_expr.partition_point(|&(e, _)| e < expr);
        self.by_expr[from..]
            .iter()
            .take_while(move |&&(e, _)| e == expr)
            .map(|&(_, i)| i)
    }

    pub fn targets(&self, expr: ExprId) -> impl Iterator<Item = &CallSite> {
        self.at(expr).map(|i| &self.calls[i as usize])
    }

    /// The fn closure `c` stands for when all it does is call that fn with its own
    /// parameters, in order (`|args| read(args)`, `|a| async move { read(a).await }`): by
    /// eta-equivalence the closure and the fn are one handler, so a tool registered either
    /// way is the same tool at the same place.
    pub fn eta_target(&self, body: &Body, c: ClosureId) -> Option<FnId> {
        let closure = body.closure(c);
        let params: Vec<LocalId> = (closure.params.iter())
            .map(|&p| match body.pat(p).kind {
                PatKind::Bind { local, sub: None } => Some(local),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let mut e = body.value_of(closure.body);
        // Each step goes into a strictly smaller expression; the bound is for hostile nesting.
        for _ in 0..8 {
            match &body.expr(e).kind {
                ExprKind::Await(inner) => e = body.value_of(*inner),
                ExprKind::Closure(inner) if body.closure(*inner).is_async_block => {
                    e = body.closure(*inner).body;
                }
                // The async block's own body: a block that only gives the call's value.
                ExprKind::Block {
                    stmts,
                    tail: Some(t),
                    ..
                } if stmts.is_empty() => e = body.value_of(*t),
                // `f(a, b)`, or a method of a value the closure captures (`self.f(a, b)`).
                ExprKind::Call { args, .. } | ExprKind::MethodCall { args, .. } => {
                    let forwards = args.len() == params.len()
                        && args.iter().zip(&params).all(
                            |(&a, p)| matches!(body.expr(a).kind, ExprKind::Local(l) if l == *p),
                        );
                    let site = self
                        .targets(e)
                        .find(|s| matches!(s.kind, CallKind::Call | CallKind::Method))?;
                    return match site.targets[..] {
                        [t] if forwards && !site.may => Some(t),
                        _ => None,
                    };
                }
                _ => return None,
            }
        }
        None
    }

    fn index_by_expr(&mut self) {
        self.by_expr = (self.calls.iter().enumerate())
            .map(|(i, c)| (c.expr, i as u32))
            .collect();
        self.by_expr.sort_unstable();
    }
}

/// Call edges a crate may have in all: past it, calls are not followed (and that is
/// reported). Real servers have tens of thousands; a generated file with thousands of
/// implementations of one method, called from thousands of places, would have millions.
pub const MAX_EDGES: usize = 1 << 21;

/// What is left of [`MAX_EDGES`] while a crate's calls are resolved, and the first call
/// that found it spent.
#[derive(Debug)]
pub struct EdgeBudget {
    left: std::cell::Cell<usize>,
    pub spent_at: std::cell::Cell<Option<(FnId, ExprId)>>,
}

impl Default for EdgeBudget {
    fn default() -> Self {
        EdgeBudget {
            left: std::cell::Cell::new(MAX_EDGES),
            spent_at: std::cell::Cell::new(None),
        }
    }
}

impl EdgeBudget {
    fn spent(&self) -> bool {
        self.spent_at.get().is_some()
    }

    /// Takes `n` edges for the call at `at`; `false` (and the budget marked spent) when
    /// there are not that many left.
    fn take(&self, n: usize, at: (FnId, ExprId)) -> bool {
        if self.spent() || n > self.left.get() {
            if !self.spent() {
                self.spent_at.set(Some(at));
            }
            return false;
        }
        self.left.set(self.left.get() - n);
        true
    }
}

struct Walker<'p, 'a> {
    program: &'p Program<'a>,
    budget: &'p EdgeBudget,
    types: &'p TypeTable<'a>,
    config_guards: &'p [String],
    func: FnId,
    def: &'a FnDef,
    body: &'a Body,
    out: Resolved,
    owner: Option<ClosureId>,
    guard: u32,
    open: Vec<u32>,
    /// Calls whose task is joined and unwrapped on the spot (see `std_types`).
    unwrapped_tasks: Vec<ExprId>,
    /// The type a closure's first parameter receives from the method it is given to
    /// (`r.map_err(|e| ..)`: `r`'s error type), when the closure does not say.
    expected_params: Vec<(ClosureId, Ty)>,
}

/// Resolves the calls of fn `func`.
pub fn resolve_fn(
    program: &Program<'_>,
    types: &TypeTable<'_>,
    panic_guards: &[String],
    func: FnId,
    budget: &EdgeBudget,
) -> Resolved {
    let def = program.def(func);
    let mut w = Walker {
        program,
        budget,
        types,
        config_guards: panic_guards,
        func,
        def,
        body: &def.body,
        out: Resolved {
            local_tys: vec![None; def.body.locals.len()],
            ..Resolved::default()
        },
        owner: None,
        guard: 0,
        open: Vec::new(),
        unwrapped_tasks: super::std_types::tasks_unwrapped(&def.body),
        expected_params: Vec::new(),
    };
    for p in &def.params {
        let ty = w.normalize(types.expand(&p.ty));
        w.bind(p.pat, Some(ty));
    }
    if let Some(root) = def.body.root {
        w.visit(root);
    }
    w.out.index_by_expr();
    w.out
}

impl Walker<'_, '_> {
    fn record(&mut self, expr: ExprId, kind: CallKind, targets: Vec<FnId>, may: bool) -> u32 {
        let targets = if self.budget.take(targets.len(), (self.func, expr)) {
            targets
        } else {
            Vec::new()
        };
        let idx = self.out.calls.len() as u32;
        self.out.calls.push(CallSite {
            expr,
            owner: self.owner,
            targets,
            closure: None,
            may,
            kind,
            guarded: self.guard > 0,
            within: self.open.last().copied(),
        });
        idx
    }

    fn bind(&mut self, pat: PatId, ty: Option<Ty>) {
        // `Cmd::Serve(args)` / `Self::Serve(args)`: the variant's own field types, whatever is
        // known of the value matched.
        if let PatKind::TupleStruct { path, elems } = &self.body.pat(pat).kind
            && let Some(fields) = self.variant_fields(path, ty.as_ref())
            && fields.len() == elems.len()
        {
            for (&p, t) in elems.iter().zip(&fields) {
                let t = self.types.expand(t);
                self.bind(p, Some(t));
            }
            return;
        }
        let Some(ty) = ty.filter(|t| !matches!(t, Ty::Other)) else {
            return;
        };
        match &self.body.pat(pat).kind {
            PatKind::Bind { local, sub } => {
                if let Some(s) = sub {
                    self.bind(*s, Some(ty.clone()));
                }
                self.out.local_tys[*local as usize] = Some(ty);
            }
            PatKind::Typed { pat, ty: declared } => {
                let declared = self.types.expand(declared);
                self.bind(*pat, Some(declared));
            }
            PatKind::Ref(p) => self.bind(*p, Some(ty)),
            PatKind::TupleStruct { path, elems } if elems.len() == 1 => {
                let last = path.last().map(Name::as_str).unwrap_or_default();
                let inner = match last {
                    "Some" | "Ok" => payload(&ty).cloned(),
                    "Err" => match peel(&ty) {
                        Ty::Path { args, .. } if args.len() == 2 => args.get(1).cloned(),
                        _ => None,
                    },
                    // `Parameters(args): Parameters<Args>`, `Json(x): Json<T>`.
                    _ => match peel(&ty) {
                        Ty::Path { path: tp, args }
                            if tp.last().map(Name::as_str) == Some(last) =>
                        {
                            args.first().cloned()
                        }
                        _ => None,
                    },
                };
                self.bind(elems[0], inner);
            }
            PatKind::Struct { path, fields } => {
                let name = path.last().map(Name::as_str).unwrap_or_default();
                let name = if name == "Self" {
                    self.def.owner.as_deref().unwrap_or(name)
                } else {
                    name
                };
                for (field, p) in fields {
                    let fty = self
                        .types
                        .field_ty(name, field)
                        .map(|t| self.types.expand(t));
                    self.bind(*p, fty);
                }
            }
            PatKind::Tuple(elems) => {
                if let Ty::Tuple(items) = peel(&ty) {
                    for (p, t) in elems.iter().zip(items.clone()) {
                        self.bind(*p, Some(t));
                    }
                }
            }
            _ => {}
        }
    }

    /// The field types of the crate enum variant a tuple pattern names: `Enum::Variant`,
    /// `Self::Variant` in the enum's impl, or a bare `Variant` matched on a value of the enum.
    fn variant_fields(&self, path: &[Name], matched: Option<&Ty>) -> Option<Vec<Ty>> {
        let (variant, before) = path.split_last()?;
        let owner = match before.last().map(Name::as_str) {
            Some("Self") => self.def.owner.as_deref()?,
            Some(name) => name,
            None => matched.map(peel)?.last_segment()?,
        };
        self.types
            .variant_fields(owner, variant)
            .map(<[Ty]>::to_vec)
    }

    /// `Self::Args` in a method of an impl that says `type Args = FooArgs;`: `FooArgs`.
    fn normalize(&self, ty: Ty) -> Ty {
        let FnKind::Method { impl_idx } = self.def.kind else {
            return ty;
        };
        match &ty {
            Ty::Path { path, .. } if path.len() == 2 && path[0] == "Self" => self
                .program
                .file_ir(self.func)
                .impls
                .get(impl_idx as usize)
                .and_then(|i| i.assoc_types.iter().find(|(n, _)| *n == path[1]))
                .map_or(ty.clone(), |(_, t)| t.clone()),
            _ => ty,
        }
    }

    fn self_ty(&self) -> Option<Ty> {
        self.def.owner.as_ref().map(|o| Ty::Path {
            path: [o.clone()].into(),
            args: Vec::new(),
        })
    }

    fn fn_ret(&self, target: FnId, owner: Option<&str>) -> Ty {
        let def = self.program.def(target);
        let owner = owner.or(def.owner.as_deref());
        with_self(self.types.ret(target), owner)
    }

    fn visit_all(&mut self, ids: &[ExprId]) {
        for &id in ids {
            self.visit(id);
        }
    }

    /// Visits an expression; returns its type when known.
    fn visit(&mut self, id: ExprId) -> Option<Ty> {
        stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.visit_inner(id))
    }

    fn visit_inner(&mut self, id: ExprId) -> Option<Ty> {
        let body = self.body;
        match &body.expr(id).kind {
            ExprKind::Lit(Lit::Str(_)) => Some(simple("str")),
            ExprKind::Lit(_) | ExprKind::Opaque | ExprKind::Continue => None,
            ExprKind::Local(l) => self.out.local_tys[*l as usize].clone(),
            ExprKind::SelfValue => self.self_ty(),
            ExprKind::Path(path) => {
                // A crate fn used as a value: the callee it is given to calls it.
                if path
                    .last()
                    .is_some_and(|n| n.chars().next().is_some_and(char::is_lowercase))
                {
                    let imports = &self.program.file_ir(self.func).imports;
                    let resolved = imports.resolve_segments(path);
                    let targets = self.types.resolve_path(self.program, self.func, &resolved);
                    if !targets.is_empty() {
                        self.record(id, CallKind::FnValue, targets, false);
                    }
                    return None;
                }
                // A unit struct's value (`Handler.run()`).
                match &path[..] {
                    [name] if self.types.is_struct(name) => Some(simple(name)),
                    _ => None,
                }
            }
            ExprKind::Call { func, args } => self.call(id, *func, args),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => self.method_call(id, *receiver, method, args),
            ExprKind::Macro(m) => {
                self.macro_call(id, m);
                match m.name.as_str() {
                    "format" => Some(simple("String")),
                    _ => None,
                }
            }
            ExprKind::Field { base, member } => {
                let base_ty = self.visit(*base)?;
                let name = type_name(&base_ty)?;
                let fty = self.types.field_ty(name, member)?;
                Some(with_self(&self.types.expand(fty), Some(name)))
            }
            ExprKind::Index { base, index, .. } => {
                let t = self.visit(*base);
                self.visit(*index);
                t.and_then(|t| element(&t).cloned())
            }
            ExprKind::Try { expr, .. } => {
                let t = self.visit(*expr)?;
                self.conversion_at_try(id, &t);
                Some(payload(&t).cloned().unwrap_or(t))
            }
            ExprKind::Await(e) | ExprKind::Ref(e) | ExprKind::Deref(e) => self.visit(*e),
            ExprKind::Not(e) | ExprKind::Neg(e) => {
                self.visit(*e);
                None
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                let t = self.visit(*lhs);
                self.visit(*rhs);
                t
            }
            ExprKind::Assign { place, value, .. } => {
                let t = self.visit(*value);
                self.visit(*place);
                if let ExprKind::Local(l) = body.expr(*place).kind
                    && self.out.local_tys[l as usize].is_none()
                {
                    self.out.local_tys[l as usize] = t;
                }
                None
            }
            ExprKind::Cast { expr, ty } => {
                self.visit(*expr);
                Some((**ty).clone())
            }
            ExprKind::Block { stmts, tail, .. } => {
                for stmt in stmts {
                    match stmt {
                        Stmt::Let { pat, ty, init, els } => {
                            let init_ty = init.and_then(|i| self.visit(i));
                            if let Some(e) = els {
                                self.visit(*e);
                            }
                            let ty = ty
                                .as_ref()
                                .map(|t| self.normalize(self.types.expand(t)))
                                .or(init_ty);
                            // `let Some(x) = opt else { .. }`.
                            self.bind(*pat, ty);
                        }
                        Stmt::Expr { expr, .. } => {
                            self.visit(*expr);
                        }
                    }
                }
                tail.and_then(|t| self.visit(t))
            }
            ExprKind::If { cond, then, els } => {
                self.visit(*cond);
                let t = self.visit(*then);
                let e = els.and_then(|e| self.visit(e));
                t.or(e)
            }
            ExprKind::Let { pat, expr } => {
                let t = self.visit(*expr);
                self.bind(*pat, t);
                None
            }
            ExprKind::Match { scrutinee, arms } => {
                let st = self.visit(*scrutinee);
                let mut out = None;
                for arm in arms {
                    self.bind(arm.pat, st.clone());
                    if let Some(g) = arm.guard {
                        self.visit(g);
                    }
                    let t = self.visit(arm.body);
                    out = out.or(t);
                }
                out
            }
            ExprKind::Loop { body: b } => {
                self.visit(*b);
                None
            }
            ExprKind::While { cond, body: b } => {
                self.visit(*cond);
                self.visit(*b);
                None
            }
            ExprKind::For { pat, iter, body: b } => {
                let t = self.visit(*iter);
                self.bind(*pat, t.and_then(|t| loop_item(&t)));
                self.visit(*b);
                None
            }
            ExprKind::Closure(c) => {
                let def = body.closure(*c);
                let idx = self.record(id, CallKind::Closure, Vec::new(), false);
                self.out.calls[idx as usize].closure = Some(*c);
                for (i, (p, ty)) in def.params.iter().zip(&def.param_tys).enumerate() {
                    let expected = || {
                        self.expected_params
                            .iter()
                            .find(|(k, _)| i == 0 && k == c)
                            .map(|(_, t)| t.clone())
                    };
                    let ty = ty.clone().or_else(expected);
                    self.bind(*p, ty);
                }
                let outer = self.owner.replace(*c);
                self.open.push(idx);
                self.visit(def.body);
                self.open.pop();
                self.owner = outer;
                None
            }
            ExprKind::Return(v) | ExprKind::Break(v) => {
                if let Some(v) = v {
                    self.visit(*v);
                }
                None
            }
            ExprKind::Struct { path, fields, rest } => {
                for (_, f) in fields {
                    self.visit(*f);
                }
                if let Some(r) = rest {
                    self.visit(*r);
                }
                let name = match path.last().map(Name::as_str) {
                    Some("Self") => self.def.owner.clone()?,
                    Some(n) => Name::from(n),
                    None => return None,
                };
                Some(simple(&name))
            }
            ExprKind::Tuple(items) => {
                // Each element's type is known on its own: `(code, format!(..))` binds a
                // `String` to its second element whatever the first is.
                let tys: Vec<Option<Ty>> = items.iter().map(|&i| self.visit(i)).collect();
                (tys.iter().any(Option::is_some))
                    .then(|| Ty::Tuple(tys.into_iter().map(|t| t.unwrap_or(Ty::Other)).collect()))
            }
            ExprKind::Repeat { value, len } => {
                self.visit(*len);
                self.visit(*value).map(|t| Ty::Path {
                    path: [Name::new("Vec")].into(),
                    args: vec![t],
                })
            }
            ExprKind::Array(items) => {
                let mut first = None;
                for &i in items {
                    let t = self.visit(i);
                    first = first.or(t);
                }
                first.map(|t| Ty::Path {
                    path: [Name::new("Vec")].into(),
                    args: vec![t],
                })
            }
            ExprKind::Range { start, end, .. } => {
                for e in [start, end].into_iter().flatten() {
                    self.visit(*e);
                }
                None
            }
        }
    }

    fn is_guard_name(&self, name: &str) -> bool {
        name == "catch_unwind" || self.config_guards.iter().any(|g| g == name)
    }
}

/// What a `for` loop binds for each item of `iter`'s type: an element, or a map's
/// `(key, value)` entry.
fn loop_item(iter: &Ty) -> Option<Ty> {
    let value = element(iter).cloned()?;
    Some(match crate::analysis::types::map_key(iter) {
        Some(key) => Ty::Tuple(vec![key, value]),
        None => value,
    })
}
