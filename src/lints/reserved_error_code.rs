//! Error codes written by the crate inside the JSON-RPC reserved range.

use super::exprs::macro_name;
use super::{Lint, declare_lint};
use crate::diagnostic::Finding;
use crate::facts::Facts;
use crate::model::walk::ExprCx;
use crate::model::{Candidate, int_literal};

declare_lint!(
    ReservedErrorCode,
    "reserved_error_code",
    Warn,
    "suspicious",
    "a custom JSON-RPC error code inside the range reserved by JSON-RPC and MCP"
);

enum Value {
    Literal(i64),
    Const(String),
}

/// Codes a server may send with their defined meaning.
const DEFINED: &[i64] = &[
    -32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022,
];

/// Why a code is reserved, or `None` when it is free or defined.
pub fn reserved_reason(code: i64) -> Option<&'static str> {
    if !(-32768..=-32000).contains(&code) || DEFINED.contains(&code) {
        return None;
    }
    Some(match code {
        -32042 => {
            "-32042 (URL elicitation required) was defined by MCP 2025-11-25 only and is retired since 2026-07-28"
        }
        -32002 => {
            "-32002 (resource not found) is retired since MCP 2026-07-28, which answers a missing resource with -32602"
        }
        -32099..=-32020 => {
            "-32099..=-32020 is reserved for the MCP specification, which defines only -32020, -32021 and -32022 there"
        }
        -32019..=-32000 => {
            "-32019..=-32000 is the legacy server-error range: new implementations should not use it and clients assign it no meaning"
        }
        _ => "-32768..=-32000 is reserved by JSON-RPC for pre-defined errors",
    })
}

/// Finds `"code": <integer>` pairs at any depth of a `json!` body.
fn json_codes(cx: &ExprCx<'_>, tokens: proc_macro2::TokenStream, out: &mut Vec<Candidate>) {
    if crate::budget::helper_too_deep() {
        return;
    }
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Group(g) => json_codes(cx, g.stream(), out),
            TokenTree::Literal(l) if l.to_string() == "\"code\"" => {
                let colon =
                    matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                if !colon {
                    continue;
                }
                let (negative, at) = match tokens.get(i + 2) {
                    Some(TokenTree::Punct(p)) if p.as_char() == '-' => (true, i + 3),
                    _ => (false, i + 2),
                };
                let Some(TokenTree::Literal(number)) = tokens.get(at) else {
                    continue;
                };
                let Ok(value) = number.to_string().parse::<i64>() else {
                    continue;
                };
                let start = tokens[i + 2].span().byte_range().start;
                let end = number.span().byte_range().end;
                let span = crate::diagnostic::Span {
                    file: cx.file,
                    start,
                    end,
                };
                let value = if negative { -value } else { value };
                out.push(cx.candidate(ReservedErrorCode::NAME, span, Value::Literal(value)));
            }
            _ => {}
        }
    }
}

/// A free application code with the same last digits: -32050 → 1050.
fn suggestion(code: i64) -> i64 {
    1000 + (-code - 32000)
}

impl Lint for ReservedErrorCode {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        let Some(sdk) = cx.sdk else { return };
        let arg = match expr {
            // `RpcError { code: -32050, .. }`.
            syn::Expr::Struct(lit)
                if lit.path.segments.last().is_some_and(|seg| {
                    sdk.error_structs_with_code().iter().any(|n| seg.ident == n)
                }) =>
            {
                let Some(field) = lit
                    .fields
                    .iter()
                    .find(|f| matches!(&f.member, syn::Member::Named(n) if n == "code"))
                else {
                    return;
                };
                &field.expr
            }
            _ => {
                let Some((path, call)) = cx.call else {
                    return;
                };
                if call.args.len() != 1 || !sdk.is_error_code_ctor(cx.imports, path) {
                    return;
                }
                &call.args[0]
            }
        };
        let value = match int_literal(arg) {
            Some(v) => Value::Literal(v),
            None => match arg {
                syn::Expr::Path(p) if p.path.segments.len() == 1 => {
                    Value::Const(p.path.segments[0].ident.to_string())
                }
                _ => return,
            },
        };
        out.push(cx.candidate(Self::NAME, cx.span(arg), value));
    }

    fn check_macro(&self, cx: &ExprCx<'_>, mac: &syn::Macro, out: &mut Vec<Candidate>) {
        // `json!({"code": -32050, "message": ..})` where the server writes its own JSON-RPC.
        let Some(sdk) = cx.sdk else { return };
        if !sdk.writes_own_responses() || macro_name(mac) != "json" {
            return;
        }
        json_codes(cx, mac.tokens.clone(), out);
    }

    fn finish(&self, cand: &Candidate, facts: &Facts<'_>) -> Option<Finding> {
        let value = cand.data.downcast_ref::<Value>()?;
        let (code, via) = match value {
            Value::Literal(v) => (*v, None),
            Value::Const(name) => (
                facts
                    .files
                    .iter()
                    .find_map(|f| f.int_consts.get(name).copied())?,
                Some(name.as_str()),
            ),
        };
        let reason = reserved_reason(code)?;
        let shown = via.map_or(code.to_string(), |n| format!("`{n}` ({code})"));
        let free = suggestion(code);
        Some(
            Finding::new(
                Self::NAME,
                cand.span,
                format!("error code {shown} lies in the reserved JSON-RPC range"),
            )
            .label("clients may read a meaning into this code that the server did not intend")
            .note(reason)
            .note("since MCP 2026-07-28, codes for purposes the specification does not define belong outside -32768..=-32000")
            .help(format!(
                "use an application code outside the reserved range, e.g. {free}; if this is a failure of a tool, answer with a result that has `isError: true` instead"
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert!(reserved_reason(-32603).is_none());
        assert!(reserved_reason(-32021).is_none());
        assert!(reserved_reason(-31999).is_none());
        assert!(reserved_reason(-32769).is_none());
        assert!(reserved_reason(1001).is_none());
        assert!(reserved_reason(-32050).is_some_and(|r| r.contains("MCP specification")));
        assert!(reserved_reason(-32001).is_some_and(|r| r.contains("legacy")));
        assert!(reserved_reason(-32100).is_some_and(|r| r.contains("pre-defined")));
        assert!(reserved_reason(-32042).is_some_and(|r| r.contains("retired")));
        assert_eq!(suggestion(-32050), 1050);
    }
}
