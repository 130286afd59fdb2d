//! Error codes written by the crate inside the JSON-RPC reserved range.

use super::exprs::call_path;
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

/// A free application code with the same last digits: -32050 → 1050.
fn suggestion(code: i64) -> i64 {
    1000 + (-code - 32000)
}

impl Lint for ReservedErrorCode {
    lint_meta!();

    fn check_expr(&self, cx: &ExprCx<'_>, expr: &syn::Expr, out: &mut Vec<Candidate>) {
        let Some(sdk) = cx.sdk else { return };
        let Some((path, call)) = call_path(expr) else {
            return;
        };
        if call.args.len() != 1 || !sdk.is_error_code_ctor(cx.imports, &path) {
            return;
        }
        let arg = &call.args[0];
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
                "use an application code outside the reserved range, e.g. `ErrorCode({free})`; if this is a failure of a tool, return `CallToolResult::error(..)` instead"
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
