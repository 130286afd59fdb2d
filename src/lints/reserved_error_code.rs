//! Error codes written by the crate inside the JSON-RPC reserved range.

use std::collections::{HashMap, HashSet};

use super::cx::Cx;
use super::{Lint, declare_lint};
use crate::diagnostic::{Finding, Span};
use crate::model::ir::Sp;

declare_lint!(
    ReservedErrorCode,
    "reserved_error_code",
    Warn,
    "suspicious",
    "a custom JSON-RPC error code inside the range reserved by JSON-RPC and MCP"
);

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

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut seen: HashSet<Span> = HashSet::new();
        let mut readers: Option<ResourceReads> = None;
        for f in cx.a.program.fn_ids() {
            if !cx.is_own(f) {
                continue;
            }
            for code in &cx.a.facts[f as usize].codes {
                let Some(reason) = reserved_reason(code.value) else {
                    continue;
                };
                // -32002 answering a missing resource is the code's defined meaning (retired
                // by 2026-07-28, still what older protocol versions expect).
                if code.value == RESOURCE_NOT_FOUND
                    && readers
                        .get_or_insert_with(|| resource_reads(cx))
                        .answer(code.func, code.span)
                {
                    continue;
                }
                let span = cx.span(code.func, code.span);
                if !seen.insert(span) {
                    continue;
                }
                let shown = code
                    .const_name
                    .as_ref()
                    .map_or(code.value.to_string(), |n| {
                        format!("`{n}` ({})", code.value)
                    });
                let free = suggestion(code.value);
                let mut finding = Finding::new(
                    Self::NAME,
                    span,
                    format!("error code {shown} lies in the reserved JSON-RPC range"),
                )
                .label("clients may read a meaning into this code that the server did not intend")
                .note(reason)
                .note("since MCP 2026-07-28, codes for purposes the specification does not define belong outside -32768..=-32000");
                if let Some(b) = code.builder {
                    finding = finding.note(format!(
                        "`{}` sends this value as the code of a JSON-RPC error",
                        cx.a.program.name(b)
                    ));
                }
                out.push(finding.help(format!(
                    "use an application code outside the reserved range, e.g. {free}; if this is a failure of a tool, answer with a result that has `isError: true` instead"
                )));
            }
        }
        out
    }
}

const RESOURCE_NOT_FOUND: i64 = -32002;

/// The code that answers `resources/read`: the SDK's resource-read handler and every fn a
/// hand-rolled dispatcher's `"resources/read"` arm reaches, and the arms themselves.
struct ResourceReads {
    fns: HashSet<u32>,
    arms: HashMap<u32, Vec<Sp>>,
}

impl ResourceReads {
    /// Whether code at `span` in fn `func` runs only to answer `resources/read`.
    fn answer(&self, func: u32, span: Sp) -> bool {
        self.fns.contains(&func)
            || self.arms.get(&func).is_some_and(|arms| {
                arms.iter()
                    .any(|arm| arm.start <= span.start && span.end <= arm.end)
            })
    }
}

fn resource_reads(cx: &Cx<'_>) -> ResourceReads {
    let program = &cx.a.program;
    let mut fns: HashSet<u32> = HashSet::new();
    let mut arms: HashMap<u32, Vec<Sp>> = HashMap::new();
    let mut stack = Vec::new();
    for f in program.fn_ids().filter(|&f| cx.is_own(f)) {
        let def = program.def(f);
        if crate::sdk::is_resource_read_handler(&def.name) {
            stack.push(f);
        }
        for arm in crate::analysis::dispatch::method_arms(&cx.a.types, &def.body, "resources/read")
        {
            let span = def.body.expr(arm).span;
            arms.entry(f).or_default().push(span);
            for call in &cx.a.resolved[f as usize].calls {
                let at = def.body.expr(call.expr).span;
                if !call.may && at.start >= span.start && at.end <= span.end {
                    stack.extend(call.targets.iter().copied());
                }
            }
        }
    }
    // Each fn is pushed on the stack once per edge into it, and expanded once.
    while let Some(f) = stack.pop() {
        if !fns.insert(f) {
            continue;
        }
        let node = program.fn_node(f);
        for e in &cx.a.graph.out[node as usize] {
            if !e.may {
                stack.push(program.node(e.to).func);
            }
        }
    }
    ResourceReads { fns, arms }
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
