//! Macros: formatting, printing, panics, early returns, `anyhow!`, `json!`, `select!`.

use super::*;

impl Flow<'_, '_> {
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
                        name: m.name.to_string(),
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
                    self.add_to_local(l, &text_val.appended_text());
                }
                Val::default()
            }
            "panic" | "todo" | "unimplemented" | "unreachable" | "assert" | "assert_eq"
            | "assert_ne" => {
                // `unreachable!()` in the branch no test selects (a `match`'s catch-all, an
                // `if` chain's last `else`) states that the tests cover every value.
                let in_catch_all = self.fallback > 0 || self.final_else > 0;
                let invariant =
                    (m.name == "unreachable" && in_catch_all).then_some(Invariant::Excluded);
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
            _ if self
                .env
                .sdk
                .is_some_and(|sdk| sdk.is_early_error_macro(self.imports, &m.path)) =>
            {
                let err = Val::one(
                    Fact::Protocol(self.early_error(m, &arg_vals)),
                    self.site(id),
                );
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
    /// The values a print or write of a format string sends: its arguments', whatever
    /// expressions compute them (the values [`Flow::format`] kept).
    pub(super) fn sent(&mut self, id: ExprId, format: Option<&Format>) {
        if format.is_none() {
            return;
        }
        let mut val = Val::default();
        for (_, v) in &std::mem::take(&mut self.format_args) {
            val.join(v);
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
    pub(super) fn format(&mut self, f: &Format, id: ExprId) -> Val {
        let vals: Vec<(ExprId, Val)> = f.args.iter().map(|&a| (a, self.eval(a))).collect();
        let mut out = Val::default();
        if text::is_failure_text(&f.template) {
            out.push(self.origin(Fact::FailText, id));
        }
        if text::is_sql(&f.template) {
            out.push(self.origin(Fact::Internals(Internals::Sql), id));
        }
        // By id, not by search: a call may have tens of thousands of arguments.
        let by_id: foldhash::HashMap<ExprId, &Val> = vals.iter().map(|(e, v)| (*e, v)).collect();
        let lookup = |a: ExprId| by_id.get(&a).copied();
        for p in &f.placeholders {
            let Some(arg) = p.arg else { continue };
            let Some(v) = lookup(arg) else { continue };
            for o in v.iter() {
                if matches!(
                    o.fact,
                    Fact::ErrValue | Fact::Foreign { .. } | Fact::Protocol(_)
                ) && o.part == Part::Plain
                {
                    let unknown_tool = super::methods::says_unknown_tool(o.fact);
                    let fact = Fact::ErrText { unknown_tool };
                    // Text of the error that says the tool does not exist stays where that
                    // error was made (see `to_text`).
                    let made = if unknown_tool {
                        Origin {
                            fact,
                            part: Part::Plain,
                            wrap: None,
                            ..*o
                        }
                    } else {
                        self.origin(fact, id)
                    };
                    out.push(Origin {
                        local: o.local,
                        ..made
                    });
                    if p.debug {
                        out.push(Origin {
                            local: o.local,
                            ..self.origin(Fact::Internals(Internals::DebugError), id)
                        });
                    }
                }
            }
        }
        for (arg, v) in &vals {
            for o in v.text().iter() {
                match o.fact {
                    // Error values became text built from them above.
                    Fact::ErrValue => {}
                    // A backtrace, a panic payload or a query enters the text where it is
                    // shown: the place to change. (The `Debug` form is made where `{:?}` is.)
                    Fact::Internals(k) if k != Internals::DebugError => {
                        out.push(self.origin(Fact::Internals(k), *arg));
                    }
                    _ => out.push(*o),
                }
            }
        }
        self.format_args = vals;
        out
    }
}

impl Flow<'_, '_> {
    /// The protocol error an SDK macro returns early with, by its first argument: a
    /// JSON-RPC code (a literal or the standard `INVALID_PARAMS` constant), or `_` for the
    /// SDK's default.
    fn early_error(&self, m: &MacroCall, arg_vals: &[Val]) -> Protocol {
        let body = self.body;
        let first = m.args.first().copied();
        let invalid_params = first.is_some_and(|a| {
            matches!(&body.expr(a).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "INVALID_PARAMS"))
        });
        let code = arg_vals.first().and_then(|v| {
            v.iter().find_map(|o| match o.fact {
                Fact::Int(i) => i32::try_from(i).ok(),
                _ => None,
            })
        });
        // The message, when written as a literal, may say the arguments are wrong: as with
        // the SDK's other constructors, that is validation whatever the code.
        let about_args = m
            .args
            .iter()
            .skip(1)
            .find_map(|&a| body.str_lit(a))
            .is_some_and(text::mentions_arguments);
        Protocol {
            ctor: if invalid_params || about_args || code == Some(-32602) {
                crate::sdk::ErrorCtor::InvalidParams
            } else {
                crate::sdk::ErrorCtor::Other
            },
            code,
            deserialize_prefix: false,
            unknown_tool: false,
            sdk_parse: false,
        }
    }
}
