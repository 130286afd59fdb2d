//! Asserted invariants on a tool's path, opt-in: `lock().unwrap()`, an `expect` whose message
//! or preceding code establishes what it expects, `unreachable!` in an arm the code already
//! excluded. They panic only if the program is wrong, not on what a client sends, so
//! `panic_in_tool` leaves them out; a team that wants every panic path answered turns this on.

use super::cx::Cx;
use super::panic_in_tool::{reached, reported};
use super::{Lint, declare_lint};
use crate::analysis::facts::Invariant;
use crate::diagnostic::Finding;

declare_lint!(
    InvariantPanicInTool,
    "invariant_panic_in_tool",
    Allow,
    "pedantic",
    "an asserted invariant (`lock().unwrap()`, an established `expect`, `unreachable!`) on a tool's path panics if it is ever broken"
);

impl Lint for InvariantPanicInTool {
    lint_meta!();

    fn check(&self, cx: &Cx<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for f in cx.a.program.fn_ids() {
            for site in &cx.a.facts[f as usize].panics {
                let Some(invariant) = site.invariant else {
                    continue;
                };
                if let Some(reach) = reached(cx, f, site, false) {
                    let (what, help) = wording(invariant);
                    // The invariant's own fix replaces the generic one.
                    let finding = reported(
                        cx,
                        f,
                        site,
                        &reach,
                        InvariantPanicInTool::NAME,
                        "asserts an invariant",
                    )
                    .note(what)
                    .help(help);
                    out.push(finding);
                }
            }
        }
        out
    }
}

/// What the site asserts, and how to stop relying on it.
fn wording(invariant: Invariant) -> (&'static str, &'static str) {
    match invariant {
        Invariant::Lock => (
            "it panics if a panic elsewhere poisoned the lock",
            "take the guard from a poisoned lock: `.lock().unwrap_or_else(|poisoned| poisoned.into_inner())`",
        ),
        Invariant::Stated => (
            "it panics if what its message states is ever broken",
            "if the invariant can break, return the failure as a tool error instead of `expect`",
        ),
        Invariant::Piped => (
            "it panics if the child's stream was not piped",
            "take the stream with `let Some(stdin) = child.stdin.take() else { .. }` and answer with a tool error",
        ),
        Invariant::Excluded => (
            "it panics if a case the other arms do not cover gets through",
            "return a tool error from this arm, naming the value that got through",
        ),
    }
}
