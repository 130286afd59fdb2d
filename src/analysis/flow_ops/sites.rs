//! The sites a value reveals: parameters reaching sinks, failures put into successes, error
//! codes, leaked internals, loggers, stdout writes and panics.

use super::*;

impl Flow<'_, '_> {
    pub(super) fn sink_params(&mut self, v: &Val, bit: u8) {
        for o in v.iter() {
            if let Fact::Param(k) = o.fact
                && let Some(s) = self.sinks.get_mut(k as usize)
            {
                *s |= bit;
            }
        }
    }

    /// Value `v` goes into a success result built at call `id` (`ctor`: the constructor's
    /// name, for the rename fix), or, when `id` calls a crate fn that wraps its argument into
    /// a success, at that fn's `sink`.
    pub(super) fn success_with(
        &mut self,
        v: &Val,
        id: ExprId,
        ctor: Option<Sp>,
        sink: Option<crate::analysis::program::Site>,
    ) {
        let here = sink.unwrap_or_else(|| self.site(id));
        let with_own_failure = v.any(|o| o.part != Part::Err && o.fact.is_failure());
        self.forward_success_sinks(
            v,
            &[SuccessSink {
                param: 0,
                at: here,
                with_own_failure,
                when: self.param_conds.last().copied(),
            }],
        );
        // Each place that put a failure in: two branches that each answer with failure text
        // are two sites to change. Most telling first (text built from a named error, then
        // error values), one per place.
        // The answer to a name no tool has is `unknown_tool_as_result`'s (`fallback_result`).
        let mut failures: Vec<&Origin> = v
            .iter()
            .filter(|o| o.part != Part::Err && o.fact.is_failure())
            .filter(|o| o.fact != Fact::ErrText { unknown_tool: true })
            .collect();
        failures.sort_by_key(|o| failure_rank(o));
        let mut seen: Vec<(FnId, Sp)> = Vec::new();
        let mut seen_errors: Vec<(FnId, LocalId)> = Vec::new();
        let bound_at: Vec<crate::analysis::program::Site> = failures
            .iter()
            .filter(|o| o.fact == Fact::ErrValue && o.via.is_none())
            .map(|o| o.site)
            .collect();
        // Text made here inside this constructor's argument, once, on every path.
        let made_here: Vec<crate::analysis::program::Site> = v
            .iter()
            .filter(|o| o.part != Part::Err && o.fact.is_failure() && o.via.is_none())
            .map(|o| o.site)
            .collect();
        let one_made = made_here.iter().all(|s| *s == made_here[0]) && !v.failure_is_maybe();
        for o in failures {
            // A shared sink is the one place to change: its callers only hand it values.
            let at = match (sink, o.via) {
                (Some(sink), _) => sink,
                // Made by a helper this fn calls: that call is where it enters. Made deeper,
                // in a helper that returns it as a plain value (no `Result` to fail with):
                // that value is data this fn chose to answer with, and the constructor here is
                // where the answer must change. A helper that could fail and returned the
                // failure as its success put it in the wrong side itself.
                (None, Some(call))
                    if call.func != self.func
                        && self.env.types.ret(call.func).as_result().is_none() =>
                {
                    self.site(id)
                }
                (None, Some(call)) => call,
                // An error value as it was bound (`Err(e) => success(e)`), and what it
                // carried, enter the success here; text made from it enters where it is made.
                (None, None) if bound_at.contains(&o.site) => self.site(id),
                // Text made inside this constructor's own argument, on every path (`Ok({ ..;
                // format!(..) })`): the constructor is the one place to change, as it is when
                // a helper makes the text. Made before it, or merged with data, each place
                // that makes it is.
                (None, None)
                    if o.site.func == self.func && !(one_made && self.within(o.site.expr, id)) =>
                {
                    o.site
                }
                (None, None) => self.site(id),
            };
            // Text inside a JSON error object, or text and object made from the same `Err(e)`,
            // are one failure, not two.
            let span = self.env.program.def(at.func).body.expr(at.expr).span;
            let error = o.local.map(|l| (o.site.func, l));
            if error.is_some_and(|e| seen_errors.contains(&e))
                || seen
                    .iter()
                    .any(|&(f, s)| f == at.func && (s.contains(span) || span.contains(s)))
            {
                continue;
            }
            seen.push((at.func, span));
            seen_errors.extend(error);
            self.facts.success_failures.push(SuccessFailure {
                owner: self.owner,
                at,
                ctor_name: ctor,
                why: *o,
                // What a shared sink is given differs from caller to caller.
                maybe: sink.is_some() || v.failure_is_maybe(),
                shared_sink: sink.is_some(),
            });
        }
    }

    /// This fn's parameters in `v` reach the success results `sinks` (their `param` is
    /// ignored, their flag is this fn's while it walks a branch one decides): they are this
    /// fn's success sinks.
    pub(super) fn forward_success_sinks(&mut self, v: &Val, sinks: &[SuccessSink]) {
        self.sink_params(v, SINK_SUCCESS);
        let when = self.param_conds.last().copied();
        for o in v.iter() {
            let Fact::Param(param) = o.fact else { continue };
            for s in sinks {
                let sink = SuccessSink { param, when, ..*s };
                if self.success_sinks.len() < 16 && !self.success_sinks.contains(&sink) {
                    self.success_sinks.push(sink);
                }
            }
        }
    }

    /// A tool result built in a catch-all arm of a `match` on a tool's name, or from the text
    /// of an error that says the tool does not exist (a callee's lookup by name failed).
    pub(super) fn fallback_result(&mut self, at: ExprId, success: bool, vals: &[Val]) {
        let unknown = || {
            vals.iter().any(|v| {
                v.any(|o| {
                    matches!(
                        o.fact,
                        Fact::ErrText { unknown_tool: true }
                            | Fact::Foreign {
                                unknown_tool: true,
                                ..
                            }
                    )
                })
            })
        };
        let fallback = self.name_fallback > 0;
        if fallback || unknown() {
            let (made, shared) = if fallback {
                (None, false)
            } else {
                self.unknown_tool_origin(vals)
            };
            self.facts.fallback_results.push(FallbackResult {
                owner: self.owner,
                at,
                success,
                from_error: !fallback,
                made,
                shared,
            });
        }
    }

    /// Where the unknown-tool error in `vals` was made, and whether `vals` also carry
    /// failures made elsewhere (a tool's own error reaches the same answer; the binding of
    /// the error value itself, `Err(e)`, is none).
    fn unknown_tool_origin(&self, vals: &[Val]) -> (Option<crate::analysis::program::Site>, bool) {
        let unknown = |o: &Origin| {
            matches!(
                o.fact,
                Fact::ErrText { unknown_tool: true }
                    | Fact::Foreign {
                        unknown_tool: true,
                        ..
                    }
            )
        };
        let Some(origin) = vals.iter().flat_map(Val::iter).find(|o| unknown(o)) else {
            return (None, false);
        };
        let span_of = |site: crate::analysis::program::Site| {
            self.env.program.def(site.func).body.expr(site.expr).span
        };
        let made = span_of(origin.site);
        let others = vals.iter().flat_map(Val::iter).any(|o| {
            o.part != Part::Ok
                && !unknown(o)
                && matches!(
                    o.fact,
                    Fact::Foreign { .. } | Fact::ErrText { .. } | Fact::Variant(_)
                )
                && !(o.site.func == origin.site.func && made.contains(span_of(o.site)))
        });
        (Some(origin.site), others)
    }

    /// Integers in `v` become a JSON-RPC error code (through `builder`, a crate fn).
    pub(super) fn code_use(&mut self, v: &Val, builder: Option<FnId>) {
        self.sink_params(v, SINK_CODE);
        for o in v.iter() {
            if let Fact::Int(value) = o.fact {
                let (func, expr) = (o.site.func, o.site.expr);
                let def = self.env.program.def(func);
                let const_name = match &def.body.expr(expr).kind {
                    ExprKind::Path(p) => p.last().map(Name::to_string),
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
    pub(super) fn error_text(&mut self, at: ExprId, vals: &[Val]) {
        let text = vals.iter().fold(Val::default(), |t, v| t.joined(&v.text()));
        // A parameter sent here makes this fn a builder of `isError` results from what its
        // callers give it (`fn failed(msg: &str) -> Value`).
        self.sink_params(&text, SINK_ERROR_RESULT);
        self.facts.error_texts.push((at, text));
    }

    /// Internals in `v`, sent in an `isError` result.
    pub(super) fn leaks_in(&mut self, v: &Val) {
        // A parameter sent here makes this fn a builder of error results: what its callers
        // pass in is sent too.
        self.sink_params(v, SINK_ERROR_RESULT);
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
                let writer = writer.map(|w| crate::analysis::program::Site {
                    func: o.site.func,
                    expr: w,
                });
                self.stdout_site(o.site, span, StdoutKind::Logger { installs, writer });
            }
        }
    }

    pub fn stdout_site(&mut self, at: crate::analysis::program::Site, span: Sp, kind: StdoutKind) {
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
            computed_bounds: false,
            risk: None,
        });
    }
}

impl Flow<'_, '_> {
    /// Whether expression `inner` of this fn lies inside expression `outer`.
    fn within(&self, inner: ExprId, outer: ExprId) -> bool {
        let (i, o) = (self.body.expr(inner).span, self.body.expr(outer).span);
        o.start <= i.start && i.end <= o.end
    }
}
