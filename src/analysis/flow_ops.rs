//! What calls, method calls, struct literals and `json!` values make of their inputs: SDK
//! constructors (protocol errors with their codes, success and error results, text
//! content), crate fns (their summaries), the `Result`/`Option` combinators, text
//! conversions, and the sites these reveal (error codes, failures put into successes).

use super::calls::CallKind;
use super::facts::*;
use super::flow::Flow;
use super::program::FnId;
use super::text;
use super::value::*;
use crate::model::ir::*;
use crate::sdk::ErrorCtor;

/// Methods whose result carries their receiver's origins (text and error conversions,
/// borrowing, JSON access).
const PASSTHROUGH: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_ref",
    "as_deref",
    "trim",
    "trim_start",
    "trim_end",
    "to_lowercase",
    "to_uppercase",
    "replace",
    "borrow",
    "as_object",
    "as_array",
    "to_vec",
    "into_owned",
    "as_bytes",
    "into_bytes",
    "concat",
    "join",
    "into_iter",
    "iter",
    "collect",
    "cloned",
    "lock",
    "unwrap_or_default",
];

impl Flow<'_, '_> {
    fn origin(&self, fact: Fact, at: ExprId) -> Origin {
        Origin {
            fact,
            part: Part::Plain,
            site: self.site(at),
            via: None,
            wrap: None,
            local: None,
        }
    }

    /// Evaluates arguments with call site `id` open (for `within`), under a guard when the
    /// callee is one.
    fn args_within(&mut self, id: ExprId, args: &[ExprId], guard: bool) -> Vec<Val> {
        let site = self.place_calls(id);
        if let Some(s) = site {
            self.open.push(s);
        }
        if guard {
            self.catch += 1;
        }
        let vals = self.eval_all(args);
        if guard {
            self.catch -= 1;
        }
        if site.is_some() {
            self.open.pop();
        }
        vals
    }

    fn crate_targets(&self, id: ExprId, kind: CallKind) -> Vec<FnId> {
        self.resolved
            .targets(id)
            .filter(|c| c.kind == kind && !c.may)
            .flat_map(|c| c.targets.iter().copied())
            .collect()
    }

    pub fn call(&mut self, id: ExprId, func: ExprId, args: &[ExprId]) -> Val {
        let body = self.body;
        let ExprKind::Path(path) = &body.expr(func).kind else {
            let held = matches!(body.expr(func).kind, ExprKind::Local(_));
            self.eval(func);
            self.args_within(id, args, false);
            // A fn value held in a local (a tool looked up in a registry): what the caller
            // makes of its error can be traced back to the call.
            let mut v = Val::default();
            if held {
                v.push(Origin {
                    part: Part::Err,
                    ..self.origin(Fact::Returned, id)
                });
            }
            return v;
        };
        let last = path.last().map(String::as_str).unwrap_or_default();
        let guard =
            last == "catch_unwind" || self.env.config.panic_guards.iter().any(|g| g == last);
        let vals = self.args_within(id, args, guard);
        let first = || vals.first().cloned().unwrap_or_default();
        match last {
            "Ok" | "Some" if path.len() == 1 => return first().tagged(Part::Ok),
            "Err" if path.len() == 1 => {
                let mut payload = first();
                if !payload.any(|o| o.part == Part::Plain && is_error_fact(o.fact)) {
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
            return Val::default();
        }
        self.apply_summaries(id, &targets, &vals)
    }

    /// A non-protocol error made here, with what its message says.
    fn foreign(&self, at: ExprId, message: Option<&str>) -> Origin {
        let m = message.unwrap_or("");
        self.origin(
            Fact::Foreign {
                about_args: text::mentions_arguments(m),
                unknown_tool: text::mentions_unknown_tool(m) || text::mentions_request(m),
            },
            at,
        )
    }

    /// Calls the SDK gives a meaning to.
    fn sdk_call(
        &mut self,
        id: ExprId,
        path: &[String],
        args: &[ExprId],
        vals: &[Val],
    ) -> Option<Val> {
        let sdk = self.env.sdk?;
        let imports = self.imports;
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
            self.fallback_result(id, true);
            return Some(Val::one(Fact::Success, self.site(id)));
        }
        if sdk.is_error_result_ctor(imports, path) {
            for v in vals {
                self.leaks_in(v);
            }
            self.error_text(id, vals);
            self.fallback_result(id, false);
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
    fn protocol(
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
        let code = if ctor == ErrorCtor::Other {
            written
        } else {
            sdk_code.and_then(|c| i32::try_from(c).ok())
        };
        // `ErrorData::new(ErrorCode::INVALID_PARAMS, ..)`.
        let ctor = if ctor == ErrorCtor::Other
            && args.first().is_some_and(|&a| {
                matches!(&body.expr(a).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "INVALID_PARAMS"))
            }) {
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
    fn std_call(
        &mut self,
        id: ExprId,
        path: &[String],
        args: &[ExprId],
        vals: &[Val],
    ) -> Option<Val> {
        let resolved = self.imports.resolve_segments(path);
        let r: Vec<&str> = resolved.iter().map(String::as_str).collect();
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
            || (r.first() == Some(&"serde_json")
                && matches!(
                    last,
                    "to_string" | "to_string_pretty" | "to_value" | "to_vec" | "to_vec_pretty"
                ));
        passthrough.then(first)
    }

    /// A JSON-RPC error object is built from these values: the calls whose errors they carry
    /// answer with a protocol error, and parameters among them reach one.
    fn rpc_error_from(&mut self, vals: &[Val]) {
        for v in vals {
            self.sink_params(v, SINK_RPC_ERROR);
            for o in v.iter() {
                if o.fact == Fact::Returned
                    && o.site.func == self.func
                    && !self.facts.rpc_error_calls.contains(&o.site.expr)
                {
                    self.facts.rpc_error_calls.push(o.site.expr);
                }
            }
        }
    }

    /// The values of a call to crate fns, from their summaries; the sinks the arguments reach.
    pub fn apply_summaries(&mut self, id: ExprId, targets: &[FnId], args: &[Val]) -> Val {
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
            // A helper that makes failure text of its own (`error_json(&e)`) is where a
            // failure passed in becomes text: what it passes through is attributed to the call.
            let makes_failure = summary
                .ret
                .iter()
                .any(|o| o.part != Part::Err && o.fact.is_failure());
            for o in summary.ret.iter() {
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
                    // An error value a helper returns as its value (`fn internal(e) ->
                    // ErrorData`) is made where the caller puts it into an `Err`: here.
                    fact if o.part != Part::Err && is_made_error(fact) => out.push(Origin {
                        site: self.site(id),
                        via: None,
                        wrap: None,
                        local: None,
                        ..*o
                    }),
                    _ => out.push(Origin {
                        via: o.via.or(Some(self.site(id))),
                        wrap: None,
                        local: None,
                        ..*o
                    }),
                }
            }
            for (k, &bits) in summary.sinks.iter().enumerate() {
                let Some(a) = args.get(k) else { continue };
                if bits & SINK_SUCCESS != 0 {
                    self.success_with(a, id, None, Some(t));
                }
                if bits & SINK_CODE != 0 {
                    self.code_use(a, Some(t));
                }
                if bits & SINK_RPC_ERROR != 0 {
                    let a = a.clone();
                    self.rpc_error_from(std::slice::from_ref(&a));
                }
                if bits & SINK_ERROR_RESULT != 0 {
                    self.leaks_in(a);
                    self.sink_params(a, SINK_ERROR_RESULT);
                }
            }
            for &(k, site) in &summary.index {
                if let Some(a) = args.get(k as usize) {
                    for o in a.iter() {
                        if let Fact::Param(p) = o.fact
                            && self.index.len() < 16
                            && !self.index.contains(&(p, site))
                        {
                            self.index.push((p, site));
                        }
                    }
                }
            }
        }
        out
    }

    fn sink_params(&mut self, v: &Val, bit: u8) {
        for o in v.iter() {
            if let Fact::Param(k) = o.fact
                && let Some(s) = self.sinks.get_mut(k as usize)
            {
                *s |= bit;
            }
        }
    }

    /// Value `v` goes into a success result built at call `id` (`ctor`: the constructor's
    /// name, for the rename fix; `helper`: a crate fn that builds it).
    fn success_with(&mut self, v: &Val, id: ExprId, ctor: Option<Sp>, helper: Option<FnId>) {
        self.sink_params(v, SINK_SUCCESS);
        // The most telling reason: text built from a named error, then error values.
        let Some(o) = v
            .iter()
            .filter(|o| o.part != Part::Err && o.fact.is_failure())
            .min_by_key(|o| failure_rank(o))
        else {
            return;
        };
        let at = match o.via {
            Some(call) => call,
            None if o.site.func == self.func => o.site,
            None => self.site(id),
        };
        self.facts.success_failures.push(SuccessFailure {
            owner: self.owner,
            at,
            ctor_name: ctor,
            why: *o,
            helper,
        });
    }

    /// A tool result built in a catch-all arm of a `match` on a tool's name.
    fn fallback_result(&mut self, at: ExprId, success: bool) {
        if self.name_fallback > 0 {
            self.facts.fallback_results.push(FallbackResult {
                owner: self.owner,
                at,
                success,
            });
        }
    }

    /// Integers in `v` become a JSON-RPC error code (through `builder`, a crate fn).
    fn code_use(&mut self, v: &Val, builder: Option<FnId>) {
        self.sink_params(v, SINK_CODE);
        for o in v.iter() {
            if let Fact::Int(value) = o.fact {
                let (func, expr) = (o.site.func, o.site.expr);
                let def = self.env.program.def(func);
                let const_name = match &def.body.expr(expr).kind {
                    ExprKind::Path(p) => p.last().cloned(),
                    _ => None,
                };
                let at = o.via.unwrap_or(o.site);
                self.facts.codes.push(CodeUse {
                    func: at.func,
                    span: self.env.program.def(at.func).body.expr(at.expr).span,
                    value,
                    builder,
                    const_name,
                });
            }
        }
    }

    /// The text of an error result made at `at` from values `vals`.
    fn error_text(&mut self, at: ExprId, vals: &[Val]) {
        let text = vals.iter().fold(Val::default(), |t, v| t.joined(&v.text()));
        self.facts.error_texts.push((at, text));
    }

    /// Internals in `v`, sent in an `isError` result.
    fn leaks_in(&mut self, v: &Val) {
        for o in v.iter() {
            if let Fact::Internals(kind) = o.fact {
                self.facts.leaks.push(Leak {
                    owner: self.owner,
                    at: o.site,
                    kind,
                    local: o.local,
                });
            }
        }
    }

    /// Loggers in `v` are installed: the ones still writing to stdout are stdout sites.
    pub fn install_loggers(&mut self, v: &Val) {
        for o in v.iter() {
            if let Fact::Logger { installs, writer } = o.fact {
                let def = self.env.program.def(o.site.func);
                let span = def.body.expr(o.site.expr).span;
                let writer = writer.map(|w| super::program::Site {
                    func: o.site.func,
                    expr: w,
                });
                self.stdout_site(o.site, span, StdoutKind::Logger { installs, writer });
            }
        }
    }

    pub fn stdout_site(&mut self, at: super::program::Site, span: Sp, kind: StdoutKind) {
        let place = self.place(span.start);
        self.facts.stdout.push(StdoutSite {
            owner: self.owner,
            at,
            span,
            kind,
            place,
        });
    }

    pub fn panic_site(
        &mut self,
        span: Sp,
        what: String,
        kind: PanicKind,
        invariant: Option<Invariant>,
    ) {
        self.facts.panics.push(PanicSite {
            owner: self.owner,
            at: None,
            span,
            what,
            kind,
            guarded: self.catch > 0,
            within: self.open.last().copied(),
            invariant,
            params: Vec::new(),
        });
    }

    /// A function argument of a combinator: a closure (evaluated with `params`), a path to
    /// a constructor or crate fn, or another expression.
    fn callable(&mut self, id: ExprId, arg: ExprId, params: &[Val]) -> Val {
        let body = self.body;
        match &body.expr(arg).kind {
            ExprKind::Closure(c) => {
                self.place_calls(arg);
                self.closure(*c, params)
            }
            ExprKind::Path(path) => {
                self.place_calls(arg);
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
                if !targets.is_empty() {
                    return self.apply_summaries(id, &targets, params);
                }
                // `Into::into`, `ToString::to_string`, `String::from`: the value itself.
                let last = path.last().map(String::as_str).unwrap_or_default();
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
    fn to_text(&self, v: &Val, at: ExprId) -> Val {
        let mut out = Val::default();
        for o in v.iter() {
            match o.fact {
                Fact::ErrValue | Fact::Foreign { .. } | Fact::Protocol(_) => out.push(Origin {
                    fact: Fact::ErrText,
                    part: o.part,
                    site: self.site(at),
                    via: None,
                    wrap: None,
                    local: o.local,
                }),
                _ => out.push(*o),
            }
        }
        out
    }

    /// The error side of `v` for a closure parameter: its `Err` origins and a marker.
    fn error_param(&self, v: &Val, at: ExprId, closure_arg: Option<ExprId>) -> Val {
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
        _method_span: Sp,
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
        self.note_method_checks(receiver, method);
        if let Some(sdk) = self.env.sdk
            && sdk.is_stdio_method(method)
        {
            let place = self.place(body.expr(id).span.start);
            self.facts.transports.push((id, place));
        }
        v
    }

    fn method_value(
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
        match method {
            "map_err" => {
                let Some(a) = arg0 else { return rv.clone() };
                let e = self.error_param(rv, receiver, Some(a));
                let mapped = self.callable(id, a, &[e]);
                let mut out = ok();
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
                    let msg = arg0.and_then(|a| {
                        let a = match &body.expr(a).kind {
                            ExprKind::Closure(c) => body.value_of(body.closure(*c).body),
                            _ => a,
                        };
                        text::message_text(body, a)
                    });
                    e.push(self.foreign(arg0.unwrap_or(id), msg.as_deref()));
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
                if method == "or_else" {
                    return ok().joined(&fallback);
                }
                ok_side.joined(&fallback)
            }
            "unwrap_or" | "map_or" => {
                let d = arg0.map(|a| self.eval(a)).unwrap_or_default();
                let mut out = rv.success().joined(&d);
                if method == "map_or"
                    && let Some(&f) = args.get(1)
                {
                    out = d.joined(&self.callable(id, f, &[rv.success()]));
                }
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
                    out.push(Origin {
                        part: Part::Err,
                        ..self.foreign(id, None)
                    });
                }
                out
            }
            "push_str" | "push" | "extend" | "insert" | "extend_from_slice" => {
                let vals = self.eval_all(args);
                if let ExprKind::Local(l) = body.expr(body.peel(receiver)).kind {
                    for v in &vals {
                        self.add_to_local(l, &v.text());
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
            "backtrace" => Val::one(Fact::Internals(Internals::Backtrace), self.site(id)),
            "downcast_ref" | "downcast" => {
                Val::one(Fact::Internals(Internals::PanicPayload), self.site(id))
            }
            _ => {
                let vals = self.eval_all(args);
                let targets = self.crate_targets(id, CallKind::Method);
                if !targets.is_empty() {
                    return self.apply_summaries(id, &targets, &vals);
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
                // Builders (`fmt().with_ansi(false)`) and the stdout handle carry on.
                Val(rv
                    .iter()
                    .filter(|o| matches!(o.fact, Fact::Stdout | Fact::Logger { .. }))
                    .copied()
                    .collect())
            }
        }
    }

    /// `x.unwrap()` / `x.expect(..)`: a panic site unless the fn made it safe or it cannot
    /// fail on caller data.
    fn unwrap_site(&mut self, id: ExprId, receiver: ExprId, method: &str, arg0: Option<ExprId>) {
        let body = self.body;
        let inner = body.peel(receiver);
        let lock = matches!(&body.expr(inner).kind, ExprKind::MethodCall { method: m, args, .. }
            if args.is_empty() && matches!(m.as_str(), "lock" | "read" | "write"));
        let serialization = match &body.expr(inner).kind {
            ExprKind::Call { func, .. } => match &body.expr(*func).kind {
                ExprKind::Path(p) => {
                    let r = self.imports.resolve_segments(p);
                    r.first().is_some_and(|f| f == "serde_json")
                        && r.last().is_some_and(|l| {
                            matches!(
                                l.as_str(),
                                "to_value"
                                    | "to_string"
                                    | "to_string_pretty"
                                    | "to_vec"
                                    | "to_vec_pretty"
                            )
                        })
                }
                _ => false,
            },
            _ => false,
        };
        // `writeln!(string, ..)` into memory cannot fail.
        let write_to_memory = matches!(&body.expr(inner).kind, ExprKind::Macro(m)
            if matches!(m.name.as_str(), "write" | "writeln")
                && m.args.first().is_some_and(|&d| !self.is_stdout_expr(d)));
        let message = arg0.and_then(|a| body.str_lit(a)).unwrap_or_default();
        if serialization
            || write_to_memory
            || text::is_constant(body, inner)
            || self.checked_before(inner)
        {
            return;
        }
        // Asserted, not caller data: a lock poisoned only by another panic, an `expect` whose
        // message or preceding code establishes what it expects.
        let invariant = if lock {
            Some(Invariant::Lock)
        } else if method == "expect" && text::states_invariant(message) {
            Some(Invariant::Stated)
        } else if method == "expect" && self.invariant_established(inner) {
            Some(Invariant::Piped)
        } else {
            None
        };
        let span = match &body.expr(id).kind {
            ExprKind::MethodCall { method_span, .. } => Sp {
                start: method_span.start,
                end: body.expr(id).span.end,
            },
            _ => body.expr(id).span,
        };
        let kind = if method == "expect" {
            PanicKind::Expect
        } else {
            PanicKind::Unwrap
        };
        self.panic_site(span, format!("`.{method}()`"), kind, invariant);
    }

    /// `child.stdout.take().expect(..)` after `.stdout(Stdio::piped())`: the handle is there.
    fn invariant_established(&self, receiver: ExprId) -> bool {
        let (_, first) = text::chain_root(self.body, receiver);
        matches!(first.as_deref(), Some("take"))
            && matches!(&self.body.expr(text::chain_start(self.body, receiver)).kind,
                ExprKind::Field { member, .. } if matches!(member.as_str(), "stdout" | "stdin" | "stderr"))
    }

    /// An `unwrap` the same fn has made safe: `x.is_some() && x.unwrap()`, `if v.len() == 1 {
    /// v.into_iter().next().unwrap() }`, `if s.starts_with(p) { s.strip_prefix(p).unwrap() }`.
    fn checked_before(&self, receiver: ExprId) -> bool {
        let (root, first) = text::chain_root(self.body, receiver);
        let Some(root) = root else { return false };
        let c = &self.checks;
        match first.as_deref() {
            None => c.variant.contains(&root),
            Some("strip_prefix" | "strip_suffix") => c.affix.contains(&root),
            Some("next") if c.variant.contains(&root) => true,
            Some(
                "iter" | "into_iter" | "chars" | "first" | "last" | "next" | "pop" | "keys"
                | "values",
            ) => c.length.contains(&root),
            _ => false,
        }
    }

    fn note_method_checks(&mut self, receiver: ExprId, method: &str) {
        let Some(place) = text::place_key(self.body, receiver) else {
            return;
        };
        match method {
            "is_empty" => {
                self.checks.length.insert(place);
            }
            "is_some" | "is_none" | "is_ok" | "is_err" | "peek" => {
                self.checks.variant.insert(place);
            }
            "starts_with" | "ends_with" => {
                self.checks.affix.insert(place);
            }
            _ => {}
        }
    }

    /// `Command::new(..)...status()` / `.spawn()` without `.stdout(..)`: the child inherits
    /// stdout.
    fn child_process(&mut self, id: ExprId, receiver: ExprId, method: &str) {
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

    fn is_env_logger_stdout(&self, receiver: ExprId, arg: Option<ExprId>) -> bool {
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

    pub fn struct_lit(
        &mut self,
        id: ExprId,
        path: &[String],
        fields: &[(String, ExprId)],
        rest: Option<ExprId>,
    ) -> Val {
        let body = self.body;
        let name = path.last().map(String::as_str).unwrap_or_default();
        let vals: Vec<(String, Val)> = fields
            .iter()
            .map(|(n, e)| (n.clone(), self.eval(*e)))
            .collect();
        if let Some(r) = rest {
            self.eval(r);
        }
        let field = |n: &str| vals.iter().find(|(f, _)| f == n).map(|(_, v)| v);
        let sdk = self.env.sdk;
        if sdk.is_some_and(|s| s.result_type_names().contains(&name)) {
            let is_error = fields
                .iter()
                .any(|(n, e)| n == "is_error" && is_true_literal_expr(body, *e));
            self.fallback_result(id, !is_error);
            if is_error {
                let content: Vec<Val> = field("content").cloned().into_iter().collect();
                self.error_text(id, &content);
                return Val::one(Fact::ToolError, self.site(id));
            }
            if let Some(content) = field("content").cloned() {
                self.success_with(&content, id, None, None);
            }
            return Val::one(Fact::Success, self.site(id));
        }
        let code_struct = sdk.is_some_and(|s| s.error_structs_with_code().contains(&name))
            || (field("code").is_some()
                && field("message").is_some()
                && sdk.is_some_and(|s| s.writes_own_responses()));
        if code_struct {
            if let Some(code) = field("code").cloned() {
                self.code_use(&code, None);
            }
            let code = field("code").and_then(|v| {
                v.iter().find_map(|o| match o.fact {
                    Fact::Int(i) => i32::try_from(i).ok(),
                    _ => None,
                })
            });
            let message = fields
                .iter()
                .find(|(n, _)| n == "message")
                .and_then(|(_, e)| text::message_text(body, *e))
                .unwrap_or_default();
            let fact = if sdk.is_some_and(|s| s.writes_own_responses()) {
                let all: Vec<Val> = vals.iter().map(|(_, v)| v.clone()).collect();
                self.rpc_error_from(&all);
                let request =
                    text::mentions_unknown_tool(&message) || text::mentions_request(&message);
                Fact::RpcErrorObject { code, request }
            } else {
                Fact::Protocol(Protocol {
                    ctor: if code == Some(-32602) {
                        ErrorCtor::InvalidParams
                    } else {
                        ErrorCtor::Other
                    },
                    code,
                    deserialize_prefix: false,
                    unknown_tool: text::mentions_unknown_tool(&message),
                    sdk_parse: false,
                })
            };
            return Val::one(fact, self.site(id));
        }
        // `Output { error: Some(msg), .. }` / `Response { success: false, .. }`.
        let reports_failure = fields.iter().any(|(n, e)| {
            (n == "error" && !matches!(&body.expr(*e).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "None")))
                || (n == "success" && matches!(body.expr(*e).kind, ExprKind::Lit(Lit::Bool(false))))
        });
        let mut out = Val::default();
        if reports_failure {
            out.push(self.origin(Fact::ErrJson, id));
        }
        for (_, v) in &vals {
            for o in v.iter() {
                if matches!(
                    o.fact,
                    Fact::Param(_)
                        | Fact::Protocol(_)
                        | Fact::ToolError
                        | Fact::Success
                        | Fact::RpcErrorObject { .. }
                ) {
                    out.push(*o);
                }
            }
        }
        out
    }

    /// A `json!` value: a failure report (`"error"` member, `"success": false`), a hand-made
    /// JSON-RPC error object (`"code"` and `"message"`), a tool result (`"content"`), or the
    /// origins of the values in it.
    pub fn json(&mut self, j: &Json, at: ExprId) -> Val {
        match j {
            Json::Object(members) => self.json_object(members, at),
            Json::Array(items) => {
                let mut out = Val::default();
                for i in items {
                    out.join(&self.json(i, at));
                }
                out
            }
            Json::Expr(e) => self.eval(*e),
            Json::Lit(Lit::Int(v), _) => match i64::try_from(*v) {
                Ok(v) => Val::one(Fact::Int(v), self.site(at)),
                Err(_) => Val::default(),
            },
            Json::Lit(Lit::Str(s), _) if text::is_failure_text(s) => {
                Val::one(Fact::FailText, self.site(at))
            }
            Json::Lit(..) | Json::Null => Val::default(),
        }
    }

    fn json_object(&mut self, members: &[JsonMember], at: ExprId) -> Val {
        let vals: Vec<Val> = members.iter().map(|m| self.json(&m.value, at)).collect();
        let get = |k: &str| members.iter().position(|m| m.key == k);
        let mut out = Val::default();
        let own = self.env.sdk.is_some_and(|s| s.writes_own_responses());
        if let (Some(code), Some(_)) = (get("code"), get("message")) {
            // A JSON-RPC error object; its code literal is reported where it is written.
            if own {
                if let Json::Lit(Lit::Int(v), span) = &members[code].value
                    && let Ok(value) = i64::try_from(*v)
                {
                    self.facts.codes.push(CodeUse {
                        func: self.func,
                        span: *span,
                        value,
                        builder: None,
                        const_name: None,
                    });
                } else {
                    let v = vals[code].clone();
                    self.code_use(&v, None);
                }
            }
            let code = match &members[code].value {
                Json::Lit(Lit::Int(v), _) => i32::try_from(*v).ok(),
                _ => vals[code].iter().find_map(|o| match o.fact {
                    Fact::Int(i) => i32::try_from(i).ok(),
                    _ => None,
                }),
            };
            self.rpc_error_from(&vals);
            let message = match get("message").map(|m| &members[m].value) {
                Some(Json::Lit(Lit::Str(s), _)) => s.to_string(),
                Some(Json::Expr(e)) => text::message_text(self.body, *e).unwrap_or_default(),
                _ => String::new(),
            };
            let request = text::mentions_unknown_tool(&message) || text::mentions_request(&message);
            out.push(self.origin(Fact::RpcErrorObject { code, request }, at));
            return out;
        }
        if let Some(e) = get("error") {
            let v = &vals[e];
            if let Some(o) = v
                .iter()
                .find(|o| matches!(o.fact, Fact::RpcErrorObject { .. }))
            {
                out.push(self.origin(o.fact, at));
                return out;
            }
            if !matches!(members[e].value, Json::Null) {
                let local = v.iter().find_map(|o| match o.fact {
                    Fact::ErrValue | Fact::ErrText => o.local,
                    _ => None,
                });
                out.push(Origin {
                    local,
                    ..self.origin(Fact::ErrJson, at)
                });
            }
        }
        for key in ["success", "ok"] {
            if let Some(i) = get(key)
                && matches!(members[i].value, Json::Lit(Lit::Bool(false), _))
            {
                out.push(self.origin(Fact::ErrJson, at));
            }
        }
        if own && let Some(c) = get("content") {
            let flag = get("isError").map(|i| match members[i].value {
                Json::Lit(Lit::Bool(b), _) => Some(b),
                _ => None,
            });
            // `"isError": is_error`: a helper whose caller picks; not judged as a success.
            if flag == Some(None) {
                self.fallback_result(at, false);
                out.push(self.origin(Fact::ToolError, at));
                return out;
            }
            let is_error = flag == Some(Some(true));
            self.fallback_result(at, !is_error);
            if is_error {
                self.error_text(at, &vals[c..=c]);
                out.push(self.origin(Fact::ToolError, at));
            } else {
                let content = vals[c].clone();
                self.success_with(&content, at, None, None);
                out.push(self.origin(Fact::Success, at));
            }
            return out;
        }
        for v in &vals {
            for o in v.iter() {
                if !matches!(o.fact, Fact::FailText) {
                    out.push(*o);
                }
            }
        }
        out
    }

    pub fn macro_call(&mut self, id: ExprId, m: &MacroCall) -> Val {
        let body = self.body;
        let site_idx = self.place_calls(id);
        if let Some(s) = site_idx {
            self.open.push(s);
        }
        let mut arg_vals = Vec::new();
        for &a in &m.args {
            arg_vals.push(self.eval(a));
        }
        let text = m.format.as_ref().map(|f| self.format(f, id));
        let json = m.json.as_ref().map(|j| self.json(j, id));
        if let Some(p) = m.pat
            && let Some(v) = arg_vals.first().cloned()
        {
            self.bind(p, &v, id);
        }
        if site_idx.is_some() {
            self.open.pop();
        }
        let span = body.expr(id).span;
        let text_val = text.clone().unwrap_or_default();
        match m.name.as_str() {
            "format" | "format_args" => text_val,
            "print" | "println" => {
                let bare = m
                    .format
                    .as_ref()
                    .is_none_or(|f| text::is_bare_template(&f.template));
                let name_span = m.name_span;
                self.sent(id, m.format.as_ref());
                self.stdout_site(
                    self.site(id),
                    span,
                    StdoutKind::Print {
                        name: m.name.clone(),
                        name_span,
                        bare,
                    },
                );
                Val::default()
            }
            "write" | "writeln" => {
                let Some(&dest) = m.args.first() else {
                    return Val::default();
                };
                if self.is_stdout_expr(dest) {
                    let bare = m
                        .format
                        .as_ref()
                        .is_none_or(|f| text::is_bare_template(&f.template));
                    self.sent(id, m.format.as_ref());
                    self.stdout_site(self.site(id), span, StdoutKind::Write { bare });
                } else if let ExprKind::Local(l) = body.expr(body.peel(dest)).kind {
                    self.add_to_local(l, &text_val);
                }
                Val::default()
            }
            "panic" | "todo" | "unimplemented" | "unreachable" | "assert" | "assert_eq"
            | "assert_ne" => {
                let invariant =
                    (m.name == "unreachable" && self.fallback > 0).then_some(Invariant::Excluded);
                self.panic_site(span, format!("`{}!`", m.name), PanicKind::Macro, invariant);
                Val::default()
            }
            "bail" | "ensure" => {
                let message = m.format.as_ref().map(|f| f.template.clone());
                let mut err = text_val.text();
                err.push(self.foreign(id, message.as_deref()));
                if let Some(v) = arg_vals.first()
                    && m.name == "bail"
                {
                    err.join(&v.success());
                }
                self.exit(ExitKind::Macro, id, err);
                Val::default()
            }
            "anyhow" | "eyre" | "format_err" => {
                let message = m.format.as_ref().map(|f| f.template.clone());
                let mut v = text_val.text();
                v.push(self.foreign(id, message.as_deref()));
                v
            }
            "json" => json.unwrap_or_default(),
            // `select!`'s value is its branches': each is a block that ends in its handler.
            "vec" | "dbg" | "select" | "select_biased" => {
                let mut out = Val::default();
                for v in &arg_vals {
                    out.join(v);
                }
                out
            }
            _ => Val::default(),
        }
    }

    /// Records the values of the locals a stdout write formats (a response being sent).
    fn sent(&mut self, id: ExprId, format: Option<&Format>) {
        let Some(f) = format else { return };
        let mut val = Val::default();
        for &a in &f.args {
            if let ExprKind::Local(l) = self.body.expr(self.body.peel(a)).kind {
                val.join(&self.locals[l as usize]);
            }
        }
        if !val.is_empty() {
            self.facts.sent.push(Return {
                owner: self.owner,
                at: id,
                val,
            });
        }
    }

    /// A format string's value: failure text, text built from an error value, `Debug` of an
    /// error, and the text origins of its arguments.
    fn format(&mut self, f: &Format, id: ExprId) -> Val {
        let body = self.body;
        let vals: Vec<(ExprId, Val)> = f.args.iter().map(|&a| (a, self.eval(a))).collect();
        let mut out = Val::default();
        if text::is_failure_text(&f.template) {
            out.push(self.origin(Fact::FailText, id));
        }
        let lookup = |a: ExprId| vals.iter().find(|(e, _)| *e == a).map(|(_, v)| v);
        for p in &f.placeholders {
            let Some(arg) = p.arg else { continue };
            let Some(v) = lookup(arg) else { continue };
            for o in v.iter() {
                if matches!(
                    o.fact,
                    Fact::ErrValue | Fact::Foreign { .. } | Fact::Protocol(_)
                ) && o.part == Part::Plain
                {
                    out.push(Origin {
                        fact: Fact::ErrText,
                        local: o.local,
                        ..self.origin(Fact::ErrText, id)
                    });
                    if p.debug {
                        out.push(Origin {
                            local: o.local,
                            ..self.origin(Fact::Internals(Internals::DebugError), id)
                        });
                    }
                }
            }
            // Names that hold internals by convention.
            if let ExprKind::Local(l) = body.expr(arg).kind {
                let name = body.local(l).name.as_str();
                let internals = match name {
                    "payload" | "panic_payload" | "panic_info" => Some(Internals::PanicPayload),
                    "backtrace" | "bt" => Some(Internals::Backtrace),
                    "sql" => Some(Internals::Sql),
                    _ => None,
                };
                if let Some(k) = internals {
                    out.push(self.origin(Fact::Internals(k), arg));
                }
            }
        }
        for (_, v) in &vals {
            for o in v.text().iter() {
                // Error values became text built from them above.
                if !matches!(o.fact, Fact::ErrValue) {
                    out.push(*o);
                }
            }
        }
        out
    }
}

/// How telling a failure origin is for a message (lower is better).
pub fn failure_rank(o: &Origin) -> u8 {
    match (o.fact, o.local.is_some()) {
        (Fact::ErrText | Fact::ErrJson, true) => 0,
        (Fact::ErrValue, true) => 1,
        (Fact::ErrText, false) => 2,
        (Fact::ErrJson, false) => 3,
        (Fact::FailText, _) => 4,
        _ => 5,
    }
}

/// Error values a fn makes (rather than forwards).
fn is_made_error(f: Fact) -> bool {
    matches!(
        f,
        Fact::Protocol(_) | Fact::RpcErrorObject { .. } | Fact::Foreign { .. }
    )
}

fn is_error_fact(f: Fact) -> bool {
    matches!(
        f,
        Fact::ErrValue
            | Fact::Foreign { .. }
            | Fact::Protocol(_)
            | Fact::ToolError
            | Fact::RpcErrorObject { .. }
    ) || f.is_failure()
}

fn plain_params(v: &Val) -> Val {
    Val(v
        .iter()
        .filter(|o| o.part == Part::Plain && matches!(o.fact, Fact::Param(_)))
        .copied()
        .collect())
}

fn is_true_literal_expr(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Lit(Lit::Bool(true)) => true,
        ExprKind::Call { func, args } => {
            matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "Some"))
                && args.first().is_some_and(|&a| is_true_literal_expr(body, a))
        }
        _ => false,
    }
}

/// Writers that keep stdout clean: anything but stdout itself (stderr, files, sinks,
/// appenders, test writers excepted).
fn writer_keeps_stdout_clean(body: &Body, w: ExprId) -> bool {
    let mut mentions_stdout = false;
    let mut mentions_stderr = false;
    let mut stack = vec![w];
    let mut steps = 0;
    while let Some(e) = stack.pop() {
        steps += 1;
        if steps > 64 {
            break;
        }
        match &body.expr(e).kind {
            ExprKind::Path(p) => {
                mentions_stdout |= p.iter().any(|s| s == "stdout");
                mentions_stderr |= p.iter().any(|s| s == "stderr");
            }
            ExprKind::Call { func, args } => {
                stack.push(*func);
                stack.extend(args.iter().copied());
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                mentions_stdout |= method == "stdout";
                mentions_stderr |= method == "stderr";
                stack.push(*receiver);
                stack.extend(args.iter().copied());
            }
            ExprKind::Closure(_) | ExprKind::Local(_) => {}
            ExprKind::Ref(i) => stack.push(*i),
            _ => {}
        }
    }
    !mentions_stdout || mentions_stderr
}

/// The span of the last segment of a call's path (`success` in `CallToolResult::success`).
fn last_segment_span(body: &Body, call: ExprId) -> Sp {
    let ExprKind::Call { func, .. } = &body.expr(call).kind else {
        return body.expr(call).span;
    };
    let span = body.expr(*func).span;
    match &body.expr(*func).kind {
        ExprKind::Path(p) => {
            let len = p.last().map_or(0, |s| s.len()) as u32;
            Sp {
                start: span.end.saturating_sub(len),
                end: span.end,
            }
        }
        _ => span,
    }
}
