//! Struct literals and `json!` values: results, error objects and codes, failure JSON.

use super::*;

impl Flow<'_, '_> {
    pub fn struct_lit(
        &mut self,
        id: ExprId,
        path: &[Name],
        fields: &[(Name, ExprId)],
        rest: Option<ExprId>,
    ) -> Val {
        let body = self.body;
        let name = path.last().map(Name::as_str).unwrap_or_default();
        // `Self { .. }` in the type's own impl (`ToolResult::fail` building `Self { .. }`).
        let owner = self.env.program.def(self.func).owner.as_deref();
        let name = match (name, owner) {
            ("Self", Some(owner)) => owner,
            _ => name,
        };
        let vals: Vec<(Name, Val)> = fields
            .iter()
            .map(|(n, e)| (n.clone(), self.eval(*e)))
            .collect();
        if let Some(r) = rest {
            self.eval(r);
        }
        let field = |n: &str| vals.iter().find(|(f, _)| f == n).map(|(_, v)| v);
        let sdk = self.env.sdk;
        // A server that writes its own responses knows its result struct by its fields: the
        // `is_error` flag it sends as `isError`.
        let own_result = sdk.is_some_and(|s| s.writes_own_responses())
            && (self.env.types.is_tool_result_struct(name) || self.env.types.flags_errors(name));
        if own_result || sdk.is_some_and(|s| s.result_type_names().contains(&name)) {
            let is_error = fields
                .iter()
                .any(|(n, e)| n == "is_error" && is_true_literal_expr(body, *e));
            let content: Vec<Val> = field("content").cloned().into_iter().collect();
            // `is_error: Some(!sent)`: the flag follows the code's own verdict, so the result
            // answers a failure as one; not judged as a success (as `"isError": flag` is not).
            let computed = fields.iter().any(|(n, e)| {
                n == "is_error"
                    && !is_true_literal_expr(body, *e)
                    && !is_false_literal_expr(body, *e)
            });
            if computed {
                self.fallback_result(id, false, &content);
                return Val::one(Fact::ToolError, self.site(id));
            }
            self.fallback_result(id, !is_error, &content);
            if is_error {
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
                self.rpc_error_from(id, &all);
                let request = self.about_request(&message);
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
        // A JSON-RPC response (`id` and `error` members, the error set) answers with its
        // error member: the failures it carries are answered on the protocol channel here.
        if sdk.is_some_and(|s| s.writes_own_responses())
            && field("id").is_some()
            && let Some(error) = fields
                .iter()
                .position(|(n, e)| n == "error" && !is_none(body, *e))
        {
            let carried = vals[error].1.clone();
            self.rpc_error_from(id, std::slice::from_ref(&carried));
        }
        // `Output { error: Some(msg), .. }` / `Response { success: false, .. }`.
        let reports_failure = fields.iter().any(|(n, e)| {
            (n == "error" && !is_none(body, *e))
                || (n == "success" && matches!(body.expr(*e).kind, ExprKind::Lit(Lit::Bool(false))))
        });
        let mut out = Val::default();
        // A struct variant of a crate enum (`Error::Invalid { message }`).
        if let Some(variant) = self.variant_of(path) {
            out.push(self.origin(Fact::Variant(variant), id));
        }
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
                    // An error object in a field set to `Some(e)` is the struct's error
                    // member: the struct is no `Option`, so its own wrapping keeps it.
                    let part = match o.fact {
                        Fact::RpcErrorObject { .. } if o.part == Part::Ok => Part::Plain,
                        _ => o.part,
                    };
                    out.push(Origin { part, ..*o });
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
            Json::Lit(Lit::Int(v), _) => Val::one(Fact::Int(*v), self.site(at)),
            Json::Lit(Lit::Str(s), _) if text::is_failure_text(s) => {
                Val::one(Fact::FailText, self.site(at))
            }
            Json::Lit(..) | Json::Null => Val::default(),
        }
    }

    pub(super) fn json_object(&mut self, members: &[JsonMember], at: ExprId) -> Val {
        let vals: Vec<Val> = members.iter().map(|m| self.json(&m.value, at)).collect();
        let get = |k: &str| members.iter().position(|m| m.key == k);
        let mut out = Val::default();
        let own = self.env.sdk.is_some_and(|s| s.writes_own_responses());
        if let (Some(code), Some(_)) = (get("code"), get("message")) {
            // A JSON-RPC error object; its code literal is reported where it is written.
            if own {
                if let Json::Lit(Lit::Int(value), span) = &members[code].value {
                    self.facts.codes.push(CodeUse {
                        func: self.func,
                        span: *span,
                        value: *value,
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
            self.rpc_error_from(at, &vals);
            let message = match get("message").map(|m| &members[m].value) {
                Some(Json::Lit(Lit::Str(s), _)) => s.to_string(),
                Some(Json::Expr(e)) => text::message_text(self.body, *e).unwrap_or_default(),
                _ => String::new(),
            };
            let request = self.about_request(&message);
            out.push(self.origin(Fact::RpcErrorObject { code, request }, at));
            return out;
        }
        if let Some(e) = get("error") {
            let v = &vals[e];
            // A JSON-RPC response (`id` beside `error`) answers with its error member.
            if own && get("id").is_some() && !matches!(members[e].value, Json::Null) {
                let carried = v.clone();
                self.rpc_error_from(at, std::slice::from_ref(&carried));
            }
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
                    Fact::ErrValue | Fact::ErrText { .. } => o.local,
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
                self.fallback_result(at, false, &vals[c..=c]);
                out.push(self.origin(Fact::ToolError, at));
                return out;
            }
            let is_error = flag == Some(Some(true));
            self.fallback_result(at, !is_error, &vals[c..=c]);
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
        // A failure report nested under another key (`{"result": to_json(&v)}`) is data of
        // this object, not its verdict: the object itself reports a failure only through its
        // own members (above). The text of its own `"error"` member is that report (made
        // above), not a second failure beside it: nested deeper, it is data too.
        let error = get("error");
        for (i, v) in vals.iter().enumerate() {
            for o in v.iter() {
                let reported = Some(i) == error && o.fact.is_failure();
                if !reported && !matches!(o.fact, Fact::FailText | Fact::ErrJson) {
                    out.push(*o);
                }
            }
        }
        out
    }
}

/// `None`, however much of its path is written.
fn is_none(body: &Body, e: ExprId) -> bool {
    matches!(&body.expr(e).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "None"))
}

/// `false`, `Some(false)` or `None`: a flag that says success.
fn is_false_literal_expr(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Lit(Lit::Bool(false)) => true,
        ExprKind::Path(p) => p.last().is_some_and(|s| s == "None"),
        ExprKind::Call { func, args } => {
            matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|s| s == "Some"))
                && args
                    .first()
                    .is_some_and(|&a| is_false_literal_expr(body, a))
        }
        _ => false,
    }
}
