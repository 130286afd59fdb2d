//! Method calls: closures run by combinators, `Result`/`Option` adapters, child processes
//! and stdout handles (unwraps: `unwraps.rs`).

use super::*;

impl Flow<'_, '_> {
    /// A function argument of a combinator: a closure (evaluated with `params`), a path to
    /// a constructor or crate fn, or another expression.
    pub(super) fn callable(&mut self, id: ExprId, arg: ExprId, params: &[Val]) -> Val {
        let body = self.body;
        match &body.expr(arg).kind {
            ExprKind::Closure(c) => {
                self.place_calls(arg);
                self.closure(*c, params)
            }
            ExprKind::Path(path) => {
                self.place_calls(arg);
                let aliased = self.through_type_alias(path);
                let path = aliased.as_deref().unwrap_or(path);
                if let Some(sdk) = self.env.sdk
                    && let Some(ctor) = sdk.error_ctor(self.imports, path)
                {
                    return Val(vec![self.protocol(arg, ctor, false, &[], params)]);
                }
                if let Some(sdk) = self.env.sdk
                    && sdk.is_error_result_ctor(self.imports, path)
                {
                    return Val::one(Fact::ToolError, self.site(arg));
                }
                let targets: Vec<FnId> = self
                    .resolved
                    .targets(arg)
                    .filter(|c| c.kind == CallKind::FnValue)
                    .flat_map(|c| c.targets.iter().copied())
                    .collect();
                // A method named as a fn (`StoreError::to_rpc`) takes its receiver first.
                let program = self.env.program;
                if let ([first, rest @ ..], true) = (
                    params,
                    !targets.is_empty() && targets.iter().all(|&t| program.def(t).has_receiver),
                ) {
                    return self.apply_summaries_to(id, &targets, Some(first), rest);
                }
                if !targets.is_empty() {
                    return self.apply_summaries(id, &targets, params);
                }
                // A tuple variant as a fn (`.map_err(AppError::Io)`) makes that variant.
                if let Some(variant) = self.variant_of(path) {
                    return Val::one(Fact::Variant(variant), self.site(arg));
                }
                // `Into::into`, `ToString::to_string`, `String::from`: the value itself.
                let last = path.last().map(Name::as_str).unwrap_or_default();
                if matches!(last, "into" | "from" | "to_string" | "new") {
                    return params
                        .first()
                        .map(|p| self.to_text(p, arg))
                        .unwrap_or_default();
                }
                Val::default()
            }
            _ => self.eval(arg),
        }
    }

    /// `value.to_string()`-like: an error value becomes text built from it.
    pub(super) fn to_text(&self, v: &Val, at: ExprId) -> Val {
        let mut out = Val::default();
        for o in v.iter() {
            match o.fact {
                // The text of an error that says the tool does not exist stays where that
                // error was made: the place that decided the name is unknown.
                Fact::ErrValue | Fact::Foreign { .. } | Fact::Protocol(_) => out.push(Origin {
                    fact: Fact::ErrText {
                        unknown_tool: says_unknown_tool(o.fact),
                    },
                    part: o.part,
                    site: if says_unknown_tool(o.fact) {
                        o.site
                    } else {
                        self.site(at)
                    },
                    via: o.via.filter(|_| says_unknown_tool(o.fact)),
                    wrap: None,
                    local: o.local,
                }),
                _ => out.push(*o),
            }
        }
        out
    }

    /// The error side of `v` for a closure parameter: its `Err` origins and a marker.
    pub(super) fn error_param(&self, v: &Val, at: ExprId, closure_arg: Option<ExprId>) -> Val {
        let mut e = v.part(Part::Err);
        let pat = closure_arg.and_then(|a| match self.body.expr(a).kind {
            ExprKind::Closure(c) => self.body.closure(c).params.first().copied(),
            _ => None,
        });
        e.push(self.err_marker(at, pat));
        e
    }

    pub fn method_call(
        &mut self,
        id: ExprId,
        receiver: ExprId,
        method: &str,
        args: &[ExprId],
    ) -> Val {
        let body = self.body;
        let catch = method == "catch_unwind";
        if catch {
            self.catch += 1;
        }
        let rv = self.eval(receiver);
        if catch {
            self.catch -= 1;
        }
        let site_idx = self.place_calls(id);
        if let Some(s) = site_idx {
            self.open.push(s);
        }
        let guard = self.env.config.panic_guards.iter().any(|g| g == method);
        if guard {
            self.catch += 1;
        }
        let v = self.method_value(id, receiver, method, args, &rv);
        if guard {
            self.catch -= 1;
        }
        if site_idx.is_some() {
            self.open.pop();
        }
        self.note_method_checks(receiver, method, args);
        if let Some(sdk) = self.env.sdk
            && sdk.is_stdio_method(method)
        {
            let place = self.place(body.expr(id).span.start);
            self.facts.transports.push((id, place));
        }
        v
    }

    pub(super) fn method_value(
        &mut self,
        id: ExprId,
        receiver: ExprId,
        method: &str,
        args: &[ExprId],
        rv: &Val,
    ) -> Val {
        let body = self.body;
        let arg0 = args.first().copied();
        let ok = || rv.part(Part::Ok).tagged(Part::Ok);
        let err = || rv.part(Part::Err).tagged(Part::Err);
        // A method the receiver's type resolves to in the crate is the crate's, whatever it is
        // called: its summary, never what a std or library method of that name would do.
        let own = self.crate_targets(id, CallKind::Method);
        if !own.is_empty() && args.is_empty() && own.iter().all(|&f| self.is_field_getter(f)) {
            return rv.clone();
        }
        if !own.is_empty() {
            let vals = self.eval_all(args);
            let vals = self.with_passed_fields(args, vals);
            self.forward_variants(id, &own, Some(receiver), args);
            return self.apply_summaries_to(id, &own, Some(rv), &vals);
        }
        match method {
            "map_err" => {
                let Some(a) = arg0 else { return rv.clone() };
                let e = self.error_param(rv, receiver, Some(a));
                let mapped = self.callable(id, a, &[e]);
                let mut out = ok();
                // The error of serializing to JSON is not a path the tool takes.
                if self.serializes_to_json(receiver) {
                    return out.joined(&plain_params(rv));
                }
                let mut mapped = mapped.success();
                if mapped.is_empty() {
                    mapped.push(self.foreign(a, None));
                }
                out.join(&mapped.tagged(Part::Err));
                out.joined(&plain_params(rv))
            }
            "ok_or" | "ok_or_else" => {
                let mut e = match arg0 {
                    Some(a) if method == "ok_or" => self.eval(a),
                    Some(a) => self.callable(id, a, &[]),
                    None => Val::default(),
                };
                if !e.any(|o| is_error_fact(o.fact)) {
                    let msg = arg0.and_then(|a| text::message_text(body, closure_value(body, a)));
                    e.push(self.foreign(arg0.unwrap_or(id), msg.as_deref()));
                }
                // `tools.get(name).ok_or(..)`: the `None` of a lookup by the requested
                // name is a name no tool has.
                if self.looks_up_by_name(receiver) {
                    e = crate::analysis::flow::exits::as_unknown_tool(&e, self.site(id));
                }
                rv.success()
                    .tagged(Part::Ok)
                    .joined(&e.success().tagged(Part::Err))
            }
            "unwrap_or_else" | "or_else" | "map_or_else" => {
                let e = self.error_param(rv, receiver, arg0);
                let fallback = match arg0 {
                    Some(a) => self.callable(id, a, &[e]),
                    None => Val::default(),
                };
                let mut ok_side = rv.success();
                if method == "map_or_else"
                    && let Some(&f) = args.get(1)
                {
                    ok_side = self.callable(id, f, &[rv.success()]);
                }
                let at = self.site(id);
                if method == "or_else" {
                    let mut out = ok();
                    out.join_alternative(&fallback, at);
                    return out;
                }
                ok_side.join_alternative(&fallback, at);
                ok_side
            }
            "unwrap_or" | "map_or" => {
                let d = arg0.map(|a| self.eval(a)).unwrap_or_default();
                let at = self.site(id);
                if method == "map_or"
                    && let Some(&f) = args.get(1)
                {
                    let mut out = d;
                    out.join_alternative(&self.callable(id, f, &[rv.success()]), at);
                    return out;
                }
                let mut out = rv.success();
                out.join_alternative(&d, at);
                out
            }
            "unwrap" | "expect" | "unwrap_unchecked" => {
                self.unwrap_site(id, receiver, method, arg0);
                rv.success()
            }
            "map" | "and_then" | "inspect" | "filter_map" | "then" => {
                let mapped = match arg0 {
                    Some(a) => self.callable(id, a, &[rv.success()]),
                    None => Val::default(),
                };
                let result_like = rv.any(|o| o.part != Part::Plain);
                if !result_like {
                    // What a map over the caller's list gives is as many items as the caller
                    // sent (fewer for `filter_map`): the list's provenance stays.
                    let mut mapped = mapped;
                    for o in rv.iter().filter(|o| matches!(o.fact, Fact::Param(_))) {
                        mapped.push(*o);
                    }
                    return mapped;
                }
                let mapped = if method == "map" {
                    mapped.success().tagged(Part::Ok)
                } else {
                    mapped
                };
                mapped.joined(&err())
            }
            "err" => rv.part(Part::Err).tagged(Part::Ok),
            "ok" => ok(),
            "context" | "with_context" | "wrap_err" => {
                for &a in args {
                    self.callable(id, a, &[]);
                }
                let mut out = rv.clone();
                if !out.any(|o| o.part == Part::Err) {
                    // `.context("tool not found")` on an `Option`: the message is the error's.
                    let message =
                        arg0.and_then(|a| text::message_text(body, closure_value(body, a)));
                    out.push(Origin {
                        part: Part::Err,
                        ..self.foreign(id, message.as_deref())
                    });
                }
                out
            }
            "push_str" | "push" | "extend" | "insert" | "extend_from_slice" => {
                let vals = self.eval_all(args);
                if let ExprKind::Local(l) = body.expr(body.peel(receiver)).kind {
                    // Text appended to a string buffer; an element put into a collection
                    // keeps what it is.
                    for v in &vals {
                        let v = if method == "push_str" {
                            v.appended_text()
                        } else {
                            v.text()
                        };
                        self.add_to_local(l, &v);
                    }
                }
                Val::default()
            }
            "with_writer" | "with_test_writer" => {
                let stderr = method == "with_writer"
                    && arg0.is_some_and(|a| writer_keeps_stdout_clean(body, a));
                for &a in args {
                    self.eval(a);
                }
                let mut out = Val::default();
                for o in rv.iter() {
                    match o.fact {
                        Fact::Logger { installs, .. } if stderr => {
                            let _ = installs;
                        }
                        Fact::Logger { installs, .. } => out.push(Origin {
                            fact: Fact::Logger {
                                installs,
                                writer: Some(id),
                            },
                            ..*o
                        }),
                        _ => out.push(*o),
                    }
                }
                out
            }
            "init" | "try_init" => {
                self.eval_all(args);
                self.install_loggers(rv);
                Val::default()
            }
            "with" => {
                let vals = self.eval_all(args);
                let mut out = rv.clone();
                for v in &vals {
                    out.join(v);
                }
                out
            }
            "status" | "spawn" => {
                self.eval_all(args);
                self.child_process(id, receiver, method);
                Val::default()
            }
            "write_all" | "write" | "write_fmt" | "write_str" | "write_line" => {
                self.eval_all(args);
                if rv.any(|o| o.fact == Fact::Stdout) {
                    let span = body.expr(id).span;
                    self.stdout_site(self.site(id), span, StdoutKind::Write { bare: true });
                }
                Val::default()
            }
            "target" if self.is_env_logger_stdout(receiver, arg0) => {
                let span = body.expr(id).span;
                self.stdout_site(
                    self.site(id),
                    span,
                    StdoutKind::LoggerCrate {
                        what: "`env_logger` with `Target::Stdout`".into(),
                    },
                );
                rv.clone()
            }
            // A string's length, and where a search of it found its pattern, are char
            // boundaries of it (`Option<usize>` for the search).
            "len" if args.is_empty() && self.is_text(receiver) => {
                match text::text_place_hash(body, receiver) {
                    Some(of) => Val::one(
                        Fact::Boundary {
                            of,
                            ascii_after: 0,
                            length: true,
                        },
                        self.site(id),
                    ),
                    None => Val::default(),
                }
            }
            // How many of a string's first chars pass a test only ASCII chars pass
            // (`s.chars().take_while(|c| *c == '#').count()`): that many bytes, on a boundary.
            "count" if args.is_empty() => match self.leading_ascii_chars(receiver) {
                Some(of) => Val::one(
                    Fact::Boundary {
                        of,
                        ascii_after: 0,
                        length: false,
                    },
                    self.site(id),
                ),
                None => Val::default(),
            },
            // `Iterator::find` takes a predicate; `str::find` a pattern, a closure only when
            // it tests chars.
            "find" | "rfind"
                if self.is_text(receiver)
                    || arg0.is_some_and(|a| !matches!(body.expr(a).kind, ExprKind::Closure(_))) =>
            {
                self.eval_all(args);
                let Some(of) = text::text_place_hash(body, receiver) else {
                    return Val::default();
                };
                let types = self.env.types;
                let ascii_after = arg0
                    .and_then(|p| crate::analysis::strings::expr_str(types, body, p))
                    .filter(|p| p.is_ascii())
                    .map_or(0, |p| u8::try_from(p.len()).unwrap_or(u8::MAX));
                let found = Fact::Boundary {
                    of,
                    ascii_after,
                    length: false,
                };
                Val::one(found, self.site(id)).tagged(Part::Ok)
            }
            "backtrace" => Val::one(Fact::Internals(Internals::Backtrace), self.site(id)),
            "downcast_ref" | "downcast" => {
                Val::one(Fact::Internals(Internals::PanicPayload), self.site(id))
            }
            _ => {
                let vals = self.eval_all(args);
                // `Handle::current().block_on(async { .. })`, `executor.block_on(fut)`: the
                // future's value, here and now.
                if method == "block_on" && vals.len() == 1 {
                    return vals[0].clone();
                }
                // A getter a derive macro wrote for a field is that field.
                if args.is_empty() && self.generated_getter(receiver, method) {
                    return rv.clone();
                }
                if NUMERIC_COMBINATORS.contains(&method) {
                    let mut out = Val::default();
                    for v in std::iter::once(rv).chain(&vals) {
                        for o in v.iter().filter(|o| matches!(o.fact, Fact::Param(_))) {
                            out.push(*o);
                        }
                    }
                    return out;
                }
                if PASSTHROUGH.contains(&method) {
                    if matches!(method, "to_string" | "into" | "to_owned") {
                        return self.to_text(rv, id);
                    }
                    return rv.clone();
                }
                // The stdout handle's lock is the handle.
                if method == "lock" || method == "flush" {
                    return rv.clone();
                }
                // Builders (`fmt().with_ansi(false)`) and the stdout handle carry on, and so
                // does an SDK error given a message (`Error::new(code).with_message(..)`).
                let error_builder = self.env.sdk.is_some_and(|s| s.is_error_builder(method));
                Val(rv
                    .iter()
                    .filter(|o| {
                        matches!(o.fact, Fact::Stdout | Fact::Logger { .. })
                            || (error_builder && matches!(o.fact, Fact::Protocol(_)))
                    })
                    .copied()
                    .collect())
            }
        }
    }

    /// Whether crate fn `f` only hands out a field of its receiver (`&self.limit`,
    /// `self.name.clone()`): a getter, whose value is the receiver's field as it is, as the
    /// getter a derive macro writes.
    fn is_field_getter(&self, f: crate::analysis::program::FnId) -> bool {
        let def = self.env.program.def(f);
        let body = &def.body;
        let Some(root) = body.root else { return false };
        let mut e = body.value_of(root);
        loop {
            match &body.expr(e).kind {
                ExprKind::Ref(inner) | ExprKind::Deref(inner) => e = *inner,
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } if args.is_empty() && crate::analysis::std_types::keeps_its_value(method) => {
                    e = *receiver
                }
                ExprKind::Field { base, .. } => {
                    return matches!(body.expr(body.peel(*base)).kind, ExprKind::SelfValue);
                }
                _ => return false,
            }
        }
    }

    /// Whether `receiver.method()`, which the crate does not define, is named after a field
    /// of the crate struct `receiver` is: the getter a derive macro wrote for it.
    fn generated_getter(&self, receiver: ExprId, method: &str) -> bool {
        self.base_ty(receiver, 0)
            .and_then(crate::analysis::types::type_name)
            .is_some_and(|owner| self.env.types.field_ty(owner, method).is_some())
    }

    /// `Command::new(..)...status()` / `.spawn()` without `.stdout(..)`: the child inherits
    /// stdout.
    pub(super) fn child_process(&mut self, id: ExprId, receiver: ExprId, method: &str) {
        let body = self.body;
        let start = text::chain_start(body, receiver);
        let is_command = match &body.expr(start).kind {
            ExprKind::Call { func, .. } => match &body.expr(*func).kind {
                ExprKind::Path(p) => {
                    let r = self.imports.resolve_segments(p);
                    r.ends_with(&["Command".into(), "new".into()])
                        && r.first().is_some_and(|f| f == "std" || f == "tokio")
                }
                _ => false,
            },
            _ => false,
        };
        if !is_command || text::chain_has_method(body, receiver, &["stdout"]) {
            return;
        }
        let span = body.expr(id).span;
        self.stdout_site(
            self.site(id),
            span,
            StdoutKind::Child {
                method: method.to_string(),
            },
        );
    }

    pub(super) fn is_env_logger_stdout(&self, receiver: ExprId, arg: Option<ExprId>) -> bool {
        let body = self.body;
        let Some(arg) = arg else { return false };
        let stdout = matches!(&body.expr(arg).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "Stdout"));
        let start = text::chain_start(body, receiver);
        let env_logger = match &body.expr(start).kind {
            ExprKind::Call { func, .. } => matches!(&body.expr(*func).kind,
                ExprKind::Path(p) if self.imports.resolve_segments(p).first().is_some_and(|f| f == "env_logger")),
            _ => false,
        } || self
            .imports
            .names_any(&["Target".into()], &[&["env_logger", "Target"]]);
        stdout && env_logger
    }

    /// `stdout()`, `io::stdout().lock()`, a local named `stdout`.
    pub fn is_stdout_expr(&self, e: ExprId) -> bool {
        let body = self.body;
        match &body.expr(body.peel(e)).kind {
            ExprKind::MethodCall {
                receiver, method, ..
            } if method == "lock" => self.is_stdout_expr(*receiver),
            ExprKind::Call { func, .. } => match &body.expr(*func).kind {
                ExprKind::Path(p) => {
                    let r = self.imports.resolve_segments(p);
                    let n = r.len();
                    n >= 2 && r[n - 1] == "stdout" && r[n - 2] == "io"
                }
                _ => false,
            },
            ExprKind::Local(l) => {
                let name = &body.local(*l).name;
                name == "stdout"
                    || name == "stdout_lock"
                    || self.locals[*l as usize].any(|o| o.fact == Fact::Stdout)
            }
            _ => false,
        }
    }

    /// Whether `e` is a string (`str`, `String`) as far as local types tell, or a slice of
    /// one (`s[start..]`).
    pub(crate) fn is_text(&self, e: ExprId) -> bool {
        let body = self.body;
        let e = body.peel(e);
        if let ExprKind::Index { base, index, .. } = body.expr(e).kind {
            return matches!(body.expr(index).kind, ExprKind::Range { .. }) && self.is_text(base);
        }
        // A trimmed string is a string.
        if let ExprKind::MethodCall {
            receiver, method, ..
        } = &body.expr(e).kind
            && method.starts_with("trim")
        {
            return self.is_text(*receiver);
        }
        self.base_ty(e, 0)
            .and_then(|t| crate::analysis::types::peel(t).last_segment())
            .is_some_and(|s| matches!(s, "str" | "String"))
    }
}

/// An error whose message says the tool does not exist or the request is malformed.
pub(super) fn says_unknown_tool(fact: Fact) -> bool {
    matches!(
        fact,
        Fact::Foreign {
            unknown_tool: true,
            ..
        } | Fact::Protocol(Protocol {
            unknown_tool: true,
            ..
        })
    )
}

/// What a closure argument evaluates to (`|| format!(..)`), or the argument itself.
fn closure_value(body: &Body, arg: ExprId) -> ExprId {
    match &body.expr(arg).kind {
        ExprKind::Closure(c) => body.value_of(body.closure(*c).body),
        _ => arg,
    }
}
