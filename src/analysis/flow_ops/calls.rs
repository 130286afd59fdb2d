//! Calls: SDK constructors, std conversions and combinators, crate fns through their
//! summaries.

use super::*;

impl Flow<'_, '_> {
    pub fn call(&mut self, id: ExprId, func: ExprId, args: &[ExprId]) -> Val {
        let body = self.body;
        let ExprKind::Path(path) = &body.expr(func).kind else {
            let held = matches!(
                body.expr(func).kind,
                ExprKind::Local(_) | ExprKind::Field { .. }
            );
            self.eval(func);
            self.args_within(id, args, false);
            // A fn value held in a local or a field (a tool looked up in a registry,
            // `(tool.handler)(args)`): what the caller makes of its error can be traced back
            // to the call.
            let mut v = Val::default();
            if held {
                v.push(Origin {
                    part: Part::Err,
                    ..self.origin(Fact::Returned, id)
                });
            }
            return v;
        };
        let last = path.last().map(Name::as_str).unwrap_or_default();
        // A task started here catches its panics, unless the caller unwraps its join.
        let task = crate::analysis::std_types::runs_as_task(&self.imports.resolve_segments(path))
            && !crate::analysis::std_types::tasks_unwrapped(self.body).contains(&id);
        let guard = task
            || last == "catch_unwind"
            || self.env.config.panic_guards.iter().any(|g| g == last);
        let vals = self.args_within(id, args, guard);
        let first = || vals.first().cloned().unwrap_or_default();
        match last {
            "Ok" | "Some" if path.len() == 1 => return first().tagged(Part::Ok),
            "Err" if path.len() == 1 => {
                let mut payload = first();
                // A value of a crate enum's variant is that error (`Err(bad(name))`).
                let known = |o: &Origin| {
                    o.part == Part::Plain
                        && (is_error_fact(o.fact) || matches!(o.fact, Fact::Variant(_)))
                };
                if !payload.any(known) {
                    let msg = args.first().and_then(|&a| text::message_text(body, a));
                    payload.push(self.foreign(id, msg.as_deref()));
                }
                return payload.tagged(Part::Err).with_wrap(id);
            }
            _ => {}
        }
        if let Some(v) = self.sdk_call(id, path, args, &vals) {
            return v;
        }
        if self.env.config.error_builders.iter().any(|b| b == last) {
            for v in &vals {
                self.leaks_in(v);
            }
            self.error_text(id, &vals);
            return Val::one(Fact::ToolError, self.site(id));
        }
        if let Some(v) = self.std_call(id, path, args, &vals) {
            return v;
        }
        let targets = self.crate_targets(id, CallKind::Call);
        if targets.is_empty() {
            // A tuple struct or variant built here is made of its fields. Values here have
            // no fields yet, so the value itself stays empty (a wrapped error text would be
            // read as the whole value's); what its fields carry is kept for a crate fn it is
            // passed to (`helper(Parameters(args))` passes the tool's arguments on).
            if self
                .env
                .types
                .is_tuple_ctor(self.env.program, self.func, path)
            {
                let fields = vals.iter().fold(Val::default(), |v, a| v.joined(a));
                self.ctor_fields.insert(id, fields);
            }
            return match self.variant_of(path) {
                Some(variant) => Val::one(Fact::Variant(variant), self.site(id)),
                None => Val::default(),
            };
        }
        let vals = self.with_passed_fields(args, vals);
        self.forward_variants(id, &targets, None, args);
        self.apply_summaries(id, &targets, &vals)
    }

    /// A non-protocol error made here, with what its message says.
    /// Whether an error's message says the tool is unknown or the request is malformed. In
    /// an arm of a match on the tool's name the code is the tool's: a `'name'` or `params` it
    /// mentions is one of its arguments.
    pub(super) fn about_request(&self, message: &str) -> bool {
        text::mentions_unknown_tool(message)
            || if self.tool_arm > 0 {
                text::names_the_request(message)
            } else {
                text::mentions_request(message)
            }
    }

    pub(super) fn foreign(&self, at: ExprId, message: Option<&str>) -> Origin {
        let m = message.unwrap_or("");
        self.origin(
            Fact::Foreign {
                about_args: text::mentions_arguments(m),
                unknown_tool: self.about_request(m),
            },
            at,
        )
    }

    /// Calls the SDK gives a meaning to.
    pub(super) fn sdk_call(
        &mut self,
        id: ExprId,
        path: &[Name],
        args: &[ExprId],
        vals: &[Val],
    ) -> Option<Val> {
        let sdk = self.env.sdk?;
        let imports = self.imports;
        let aliased = self.through_type_alias(path);
        let path = aliased.as_deref().unwrap_or(path);
        if let Some(ctor) = sdk.error_ctor(imports, path) {
            let new = path.last().is_some_and(|l| l == "new");
            return Some(Val(vec![self.protocol(id, ctor, new, args, vals)]));
        }
        if sdk.is_error_code_ctor(imports, path) {
            if let Some(v) = vals.first() {
                self.code_use(v, None);
            }
            return Some(vals.first().cloned().unwrap_or_default());
        }
        if sdk.parses_arguments(imports, path) {
            let o = self.origin(
                Fact::Protocol(Protocol {
                    ctor: ErrorCtor::InvalidParams,
                    code: Some(-32602),
                    deserialize_prefix: true,
                    unknown_tool: false,
                    sdk_parse: true,
                }),
                id,
            );
            return Some(Val(vec![Origin {
                part: Part::Err,
                ..o
            }]));
        }
        if sdk.is_success_result_ctor(imports, path) {
            let ctor = Some(last_segment_span(self.body, id));
            for v in vals {
                self.success_with(v, id, ctor, None);
            }
            self.fallback_result(id, true, vals);
            return Some(Val::one(Fact::Success, self.site(id)));
        }
        if sdk.is_error_result_ctor(imports, path) {
            for v in vals {
                self.leaks_in(v);
            }
            self.error_text(id, vals);
            self.fallback_result(id, false, vals);
            return Some(Val::one(Fact::ToolError, self.site(id)));
        }
        if sdk.is_text_content_ctor(imports, path) {
            return Some(vals.first().map(Val::text).unwrap_or_default());
        }
        if sdk.is_stdio_transport(imports, path) {
            let place = self.place(self.body.expr(id).span.start);
            self.facts.transports.push((id, place));
        }
        None
    }

    /// A protocol error made by constructor `ctor` at `id`.
    /// `new`: the constructor takes the code first (`ErrorData::new(code, message, data)`).
    pub(super) fn protocol(
        &mut self,
        id: ExprId,
        ctor: ErrorCtor,
        new: bool,
        args: &[ExprId],
        vals: &[Val],
    ) -> Origin {
        let body = self.body;
        let sdk_code = self.env.sdk.and_then(|s| s.protocol_error_code(Some(ctor)));
        // `ErrorData::new(ErrorCode(-32050), msg, None)`: the code is the first argument.
        let written = vals.first().and_then(|v| {
            v.iter().find_map(|o| match o.fact {
                Fact::Int(i) => i32::try_from(i).ok(),
                _ => None,
            })
        });
        // `ErrorData::new(ErrorCode::INVALID_PARAMS, ..)`: JSON-RPC's invalid-params code.
        let named_invalid_params = ctor == ErrorCtor::Other
            && args.first().is_some_and(|&a| {
                matches!(&body.expr(a).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "INVALID_PARAMS"))
            });
        let code = if named_invalid_params {
            Some(-32602)
        } else if ctor == ErrorCtor::Other {
            written
        } else {
            sdk_code.and_then(|c| i32::try_from(c).ok())
        };
        let ctor = if named_invalid_params {
            ErrorCtor::InvalidParams
        } else {
            ctor
        };
        let message = args
            .get(usize::from(new))
            .and_then(|&a| text::message_text(body, a))
            .unwrap_or_default();
        self.origin(
            Fact::Protocol(Protocol {
                ctor,
                code,
                deserialize_prefix: message.starts_with("failed to deserialize parameters:"),
                unknown_tool: text::mentions_unknown_tool(&message),
                sdk_parse: false,
            }),
            id,
        )
    }

    /// Calls whose meaning std, serde_json and tracing_subscriber fix.
    pub(super) fn std_call(
        &mut self,
        id: ExprId,
        path: &[Name],
        args: &[ExprId],
        vals: &[Val],
    ) -> Option<Val> {
        let resolved = self.imports.resolve_segments(path);
        let r: Vec<&str> = resolved.iter().map(Name::as_str).collect();
        let first = || vals.first().cloned().unwrap_or_default();
        let n = r.len();
        let last = *r.last()?;
        // A task's result comes back when its handle is awaited (or joined), inside an `Ok`;
        // `block_in_place` hands it back as is.
        let task = matches!(r.first(), Some(&"tokio" | &"std" | &"async_std" | &"smol"));
        if task && matches!(last, "spawn_blocking" | "spawn" | "block_in_place") {
            let value = match args.first().map(|&a| &self.body.expr(a).kind) {
                Some(ExprKind::Closure(c)) if !self.body.closure(*c).is_async_block => {
                    self.closure_vals.get(c).cloned().unwrap_or_default()
                }
                _ => first(),
            };
            return Some(if last == "block_in_place" {
                value
            } else {
                value.joined_task()
            });
        }
        // `Backtrace::capture()`: the server's stack, internals the model should not get.
        if n >= 2
            && r[n - 2] == "Backtrace"
            && matches!(last, "capture" | "force_capture")
            && matches!(r.first(), Some(&"std" | &"backtrace" | &"Backtrace"))
        {
            return Some(Val::one(
                Fact::Internals(Internals::Backtrace),
                self.site(id),
            ));
        }
        if n >= 2 && r[n - 2] == "process" && matches!(last, "exit" | "abort") {
            let span = self.body.expr(id).span;
            self.panic_site(span, format!("`{}`", r.join("::")), PanicKind::Exit, None);
            return Some(Val::default());
        }
        if r.first() == Some(&"tracing_subscriber") {
            let tail = &r[1..];
            let builds = matches!(
                tail,
                ["fmt"]
                    | ["fmt", "layer"]
                    | ["fmt", "Layer", "new" | "default"]
                    | [
                        "fmt",
                        "Subscriber" | "SubscriberBuilder",
                        "builder" | "new" | "default"
                    ]
                    | ["FmtSubscriber", "builder" | "new" | "default"]
            );
            let installs = matches!(tail, ["fmt", "init" | "try_init"]);
            if builds || installs {
                let o = self.origin(
                    Fact::Logger {
                        installs,
                        writer: None,
                    },
                    id,
                );
                if installs {
                    self.install_loggers(&Val(vec![o]));
                }
                return Some(Val(vec![o]));
            }
        }
        if r.first() == Some(&"simple_logger") && (last.starts_with("init") || last == "new") {
            let span = self.body.expr(id).span;
            self.stdout_site(
                self.site(id),
                span,
                StdoutKind::LoggerCrate {
                    what: "`simple_logger` (without its `stderr` feature)".into(),
                },
            );
            return Some(Val::default());
        }
        if n >= 2 && r[n - 2] == "io" && last == "stdout" {
            return Some(Val::one(Fact::Stdout, self.site(id)));
        }
        if last == "set_global_default" {
            let v = first();
            self.install_loggers(&v);
            return Some(Val::default());
        }
        let passthrough = (n >= 2
            && matches!(
                r[n - 2],
                "String" | "Box" | "Arc" | "Rc" | "Cow" | "Value" | "Mutex" | "RwLock"
            )
            && matches!(last, "from" | "new" | "pin" | "String"))
            // A JSON value wrapping a map or list built in a local holds what was put in it.
            || (n >= 2 && r[n - 2] == "Value" && matches!(last, "Object" | "Array"))
            // `std::convert::identity(x)` is `x`.
            || (n >= 2 && r[n - 2] == "convert" && last == "identity")
            || (r.first() == Some(&"serde_json")
                && matches!(
                    last,
                    "to_string" | "to_string_pretty" | "to_value" | "to_vec" | "to_vec_pretty"
                ));
        passthrough.then(first)
    }

    /// A JSON-RPC error object is built at `at` from these values: the calls whose errors
    /// they carry answer with a protocol error, and parameters among them reach one.
    pub(super) fn rpc_error_from(&mut self, at: ExprId, vals: &[Val]) {
        for i in 0..self.err_params.len() {
            let k = self.err_params[i];
            if let Some(s) = self.sinks.get_mut(usize::from(k)) {
                *s |= SINK_RPC_ERROR | SINK_RPC_ERROR_OF_ERR;
            }
            if !self.facts.rpc_error_params.contains(&(k, at)) {
                self.facts.rpc_error_params.push((k, at));
            }
        }
        for i in 0..self.err_context.len() {
            let call = self.err_context[i];
            if !self.facts.rpc_error_calls.contains(&(call, at)) {
                self.facts.rpc_error_calls.push((call, at));
            }
        }
        for i in 0..self.err_others.len() {
            let made = self.err_others[i];
            if !self.facts.rpc_error_others.contains(&(made, at)) {
                self.facts.rpc_error_others.push((made, at));
            }
        }
        for v in vals {
            self.sink_params(v, SINK_RPC_ERROR);
            for o in v.iter() {
                // The call a callee's error value came out of (handed back as a value, in an
                // `Option` or a pair, not as the call's `Err`).
                let came_out_of = match o.via {
                    Some(via) if via.func == self.func && o.fact == Fact::ErrValue => {
                        Some(via.expr)
                    }
                    _ => None,
                };
                let call = match o.fact {
                    Fact::Returned if o.site.func == self.func => Some(o.site.expr),
                    _ => came_out_of,
                };
                if let Some(call) = call
                    && !self.facts.rpc_error_calls.contains(&(call, at))
                {
                    self.facts.rpc_error_calls.push((call, at));
                }
            }
        }
    }

    /// Where the `Err`s a value may be were made in this fn, other than by a call's failure
    /// (`Err(format!(..))` of the fn's own).
    pub(crate) fn failing_others(&self, v: &Val) -> Vec<ExprId> {
        v.iter()
            .filter(|o| o.part == Part::Err && o.site.func == self.func)
            .filter(|o| {
                o.fact.is_other_error()
                    || matches!(
                        o.fact,
                        Fact::ErrText { .. } | Fact::FailText | Fact::ErrJson | Fact::Variant(_)
                    )
            })
            .map(|o| o.site.expr)
            .collect()
    }

    /// The calls whose `Err` a value may be (their `Returned` error origins made here): in the
    /// `Err` branch of a test of that value, the code answers those calls' failures.
    pub(crate) fn failing_calls(&self, v: &Val) -> Vec<ExprId> {
        v.iter()
            .filter(|o| o.fact == Fact::Returned && o.part == Part::Err && o.site.func == self.func)
            .map(|o| o.site.expr)
            .collect()
    }

    /// Argument values for a call to crate fns: an argument built by a tuple struct or variant
    /// (`Parameters(args)`) passes what its fields carry.
    pub(super) fn with_passed_fields(&self, args: &[ExprId], mut vals: Vec<Val>) -> Vec<Val> {
        if self.ctor_fields.is_empty() {
            return vals;
        }
        for (arg, val) in args.iter().zip(vals.iter_mut()) {
            if let Some(fields) = self.ctor_fields.get(arg) {
                val.join(fields);
            }
        }
        vals
    }

    /// `Alias::item` where the crate declares `type Alias = some::Type;`: `some::Type::item`
    /// (a type alias names the same type, and so its associated fns).
    pub(super) fn through_type_alias(&self, path: &[Name]) -> Option<Vec<Name>> {
        let (item, ty) = path.split_last()?;
        if ty.is_empty() {
            return None;
        }
        use crate::model::resolve::Ty;
        let named = Ty::Path {
            path: crate::model::intern::path(ty.to_vec()),
            args: Vec::new(),
        };
        match self.env.types.expand(&named) {
            Ty::Path { path: target, .. } if *target != *ty => {
                let mut out = target.to_vec();
                out.push(item.clone());
                Some(out)
            }
            _ => None,
        }
    }

    /// The expression a call passes as parameter `param` (the receiver not counted).
    fn arg_expr(&self, call: ExprId, param: u16) -> Option<ExprId> {
        match &self.body.expr(call).kind {
            ExprKind::Call { args, .. } | ExprKind::MethodCall { args, .. } => {
                args.get(usize::from(param)).copied()
            }
            _ => None,
        }
    }

    /// A fn that returns, unchanged, the parse of one of its own parameters (`fn action(s:
    /// &str) -> Action { parse_action(s) }`) parses that parameter the same way.
    fn forwarded_parses(&mut self, id: ExprId, summary: &Summary, args: &[Val]) {
        if summary.name_parses.is_empty()
            || self.owner.is_some()
            || self.facts.returned_calls.binary_search(&id).is_err()
        {
            return;
        }
        for (k, variant) in &summary.name_parses {
            let Some(arg) = args.get(usize::from(*k)) else {
                continue;
            };
            let mut params = arg.iter().filter_map(|o| match o.fact {
                Fact::Param(j) if o.part == Part::Plain => Some(j),
                _ => None,
            });
            if let (Some(j), None) = (params.next(), params.next())
                && !self
                    .name_parses
                    .iter()
                    .any(|(m, v)| *m == j && v == variant)
            {
                self.name_parses.push((j, variant.clone()));
            }
        }
    }

    /// The values of a call to crate fns, from their summaries; the sinks the arguments reach.
    pub fn apply_summaries(&mut self, id: ExprId, targets: &[FnId], args: &[Val]) -> Val {
        self.apply_summaries_to(id, targets, None, args)
    }

    /// [`Self::apply_summaries`] for a method call on a receiver of value `receiver`.
    pub fn apply_summaries_to(
        &mut self,
        id: ExprId,
        targets: &[FnId],
        receiver: Option<&Val>,
        args: &[Val],
    ) -> Val {
        let mut out = Val::default();
        if !targets.is_empty() {
            // What the caller makes of this call's error can be traced back to it.
            out.push(Origin {
                part: Part::Err,
                ..self.origin(Fact::Returned, id)
            });
        }
        for &t in targets {
            let Some(summary) = self.env.summaries.get(t as usize) else {
                continue;
            };
            self.forwarded_parses(id, summary, args);
            // A mapper given a known variant answers with that variant's arm (the `Err(..)`
            // around the variant is that same error).
            let given = receiver.map(|r| self.without_variant_wrappers(r));
            let given_args: Vec<Val> = args
                .iter()
                .map(|a| self.without_variant_wrappers(a))
                .collect();
            let ret = variant_arms(summary, given.as_ref(), &given_args)
                .unwrap_or_else(|| summary.ret.clone());
            // A helper that makes failure text of its own (`error_json(&e)`) is where a
            // failure passed in becomes text: what it passes through is attributed to the call.
            let makes_failure = ret
                .iter()
                .any(|o| o.part != Part::Err && o.fact.is_failure());
            // A mapper that picks among several errors by its input (`match err { .. }`) makes
            // the choice of an invalid-arguments error itself: that one stays where it is made.
            let chooses = ret
                .iter()
                .filter(|o| o.part != Part::Err && is_made_error(o.fact))
                .count()
                > 1;
            // Failure text a helper returns, handed back unchanged here, is put into a success
            // further up: the call that is not a forward is where it leaves the helpers.
            // A call this fn returns unchanged, handing on only its own parameters, adds
            // nothing: the fn is a wrapper of the callee. A call that hands on a value of its
            // own (`return error_json(&e)`) is where that value becomes the fn's.
            let forwarded = self.owner.is_none()
                && self.facts.returned_calls.binary_search(&id).is_ok()
                && args.iter().all(|a| {
                    // A literal or any other value made here is the fn's own.
                    !a.is_empty() && a.iter().all(|o| matches!(o.fact, Fact::Param(_)))
                });
            for o in ret.iter() {
                match o.fact {
                    Fact::Param(k) => {
                        let Some(a) = args.get(k as usize) else {
                            continue;
                        };
                        for ao in a.iter() {
                            let part = if o.part == Part::Plain {
                                ao.part
                            } else if ao.part == Part::Plain {
                                o.part
                            } else {
                                continue;
                            };
                            let via = match ao.via {
                                None if makes_failure && ao.fact.is_failure() => {
                                    Some(self.site(id))
                                }
                                via => via,
                            };
                            out.push(Origin { part, via, ..*ao });
                        }
                    }
                    // A boundary of the string passed as that parameter.
                    Fact::ParamBoundary {
                        param,
                        ascii_after,
                        length,
                    } => {
                        let of = self
                            .arg_expr(id, param)
                            .and_then(|a| text::text_place_hash(self.body, a));
                        if let Some(of) = of {
                            out.push(Origin {
                                fact: Fact::Boundary {
                                    of,
                                    ascii_after,
                                    length,
                                },
                                part: o.part,
                                ..self.origin(Fact::Untracked, id)
                            });
                        }
                    }
                    // An error value a helper returns as its value (`fn internal(e) ->
                    // ErrorData`) is made where the caller puts it into an `Err`: here.
                    fact if o.part != Part::Err
                        && is_made_error(fact)
                        && !(chooses && is_invalid_params(fact)) =>
                    {
                        out.push(Origin {
                            site: self.site(id),
                            via: None,
                            wrap: None,
                            local: None,
                            ..*o
                        })
                    }
                    _ => out.push(Origin {
                        via: if forwarded && o.part != Part::Err && o.fact.is_failure() {
                            o.via
                        } else {
                            o.via.or(Some(self.site(id)))
                        },
                        wrap: None,
                        local: None,
                        ..*o
                    }),
                }
            }
            for (k, &bits) in summary.sinks.iter().enumerate() {
                let Some(a) = args.get(k) else { continue };
                if bits & SINK_SUCCESS != 0 {
                    let of_k = summary
                        .success_sinks
                        .iter()
                        .filter(|s| s.param as usize == k);
                    let sinks: Vec<SuccessSink> = of_k
                        .clone()
                        .filter(|s| !flag_rules_out(s.when, args))
                        .copied()
                        .collect();
                    if sinks.is_empty() && of_k.count() > 0 {
                        // Every sink of this parameter runs under a flag the caller clears.
                        continue;
                    }
                    // A flag the caller passes on from its own parameter decides its sink.
                    let flag = passed_flag(&sinks, args);
                    self.param_conds.extend(flag);
                    if sinks.is_empty() {
                        // Where is not known (too many sinks): at the failure.
                        self.success_with(a, id, None, None);
                    } else if sinks.iter().all(|s| s.with_own_failure) {
                        // Part of the callee's own failure; a parameter still forwards.
                        self.forward_success_sinks(a, &sinks);
                    } else if self.inspectable_param(t, k) {
                        for s in sinks {
                            self.success_with(a, id, None, Some(s.at));
                        }
                    } else {
                        self.success_with(a, id, None, None);
                    }
                    self.param_conds
                        .truncate(self.param_conds.len() - usize::from(flag.is_some()));
                }
                if bits & SINK_CODE != 0 {
                    self.code_use(a, Some(t));
                }
                if bits & SINK_RPC_ERROR != 0 {
                    let a = a.clone();
                    self.rpc_error_from(id, std::slice::from_ref(&a));
                    // A parameter handed on to a helper that answers its `Err` so is answered
                    // there too (`fn reply(id, r) { build(id, r) }`).
                    if bits & SINK_RPC_ERROR_OF_ERR != 0 {
                        for o in a.iter() {
                            if let Fact::Param(p) = o.fact {
                                if let Some(s) = self.sinks.get_mut(usize::from(p)) {
                                    *s |= SINK_RPC_ERROR_OF_ERR;
                                }
                                if !self.facts.rpc_error_params.contains(&(p, id)) {
                                    self.facts.rpc_error_params.push((p, id));
                                }
                            }
                        }
                    }
                }
                if bits & SINK_ERROR_RESULT != 0 {
                    self.leaks_in(a);
                    self.sink_params(a, SINK_ERROR_RESULT);
                    // A helper that makes an `isError` result of what it is given: given the
                    // unknown tool's error, the result is that answer (made here).
                    self.fallback_result(id, false, std::slice::from_ref(a));
                }
            }
            for &(k, site) in &summary.index {
                let arg = args.get(k as usize);
                // Only a constant is a cut the program fixes; a counter that starts at one
                // is not.
                let constant = arg.is_some_and(|a| {
                    !a.is_empty() && a.iter().all(|o| matches!(o.fact, Fact::Int(n) if n != 0))
                });
                let chosen: Vec<u16> = if k == CONSTANT_BOUND || constant {
                    vec![CONSTANT_BOUND]
                } else {
                    arg.into_iter()
                        .flat_map(Val::iter)
                        .filter_map(|o| match o.fact {
                            Fact::Param(p) => Some(p),
                            _ => None,
                        })
                        .collect()
                };
                for p in chosen {
                    if self.index.len() < 16 && !self.index.contains(&(p, site)) {
                        self.index.push((p, site));
                    }
                }
            }
        }
        out
    }

    /// Whether parameter `k` of crate fn `t` has a type of the crate's own (a response
    /// struct, an outcome enum): a fn given such a value can tell a failed one from a good
    /// one, so where it wraps every value into a success is the place to change. Text or
    /// JSON says nothing the fn could check; the failure is its caller's.
    fn inspectable_param(&self, t: FnId, k: usize) -> bool {
        let Some(param) = self.env.program.def(t).params.get(k) else {
            return false;
        };
        crate::analysis::types::type_name(&param.ty).is_some_and(|name| {
            let types = self.env.types;
            types.is_struct(name) || types.is_enum(name)
        })
    }
}

/// Whether the arguments rule out a sink that runs only while a `bool` parameter has a
/// value: the caller passes the other constant.
fn flag_rules_out(when: Option<(u16, bool)>, args: &[Val]) -> bool {
    let Some((param, value)) = when else {
        return false;
    };
    let Some(arg) = args.get(param as usize) else {
        return false;
    };
    !arg.is_empty() && arg.iter().all(|o| o.fact == Fact::Bool(!value))
}

/// The caller's own `bool` parameter that decides all of `sinks`, when the flag they run
/// under is passed straight from it (`finish(text, is_error)` inside `fn reply(text,
/// is_error)`), with the value it must have.
fn passed_flag(sinks: &[SuccessSink], args: &[Val]) -> Option<(u16, bool)> {
    let (param, value) = sinks.first()?.when?;
    if sinks.iter().any(|s| s.when != Some((param, value))) {
        return None;
    }
    let arg = args.get(param as usize)?;
    let mut params = arg.iter().map(|o| match o.fact {
        Fact::Param(k) => Some(k),
        _ => None,
    });
    let first = params.next()??;
    params.all(|k| k == Some(first)).then_some((first, value))
}
