//! Which fns a crate's analysis resolves and follows: its own, the handlers its SDK runs
//! wherever they are written, the fns registering handler closures, and everything these may
//! call. The rest of a linked member is analysed in that member's own run; here nothing could
//! read it (the lints report from the crate's own fns and what its handlers reach), so it
//! would only cost time: on a workspace, a third of the fns of a crate's program.

use std::collections::VecDeque;

use super::calls::{self, EdgeBudget, Resolved};
use super::program::{FnId, Program};
use super::types::TypeTable;
use crate::model::ir::ExprKind;
use crate::sdk::Sdk;

/// Each fn's resolved calls (empty for fns nothing reaches), and whether it is reached.
pub(super) fn resolve_reached(
    program: &Program<'_>,
    types: &TypeTable<'_>,
    sdk: Option<&dyn Sdk>,
    panic_guards: &[String],
    budget: &EdgeBudget,
) -> (Vec<Resolved>, Vec<bool>) {
    let n = program.fn_count();
    let mut reached = vec![false; n];
    let mut queue: VecDeque<FnId> = VecDeque::new();
    for f in program.fn_ids() {
        if is_root(program, types, sdk, f) {
            reached[f as usize] = true;
            queue.push_back(f);
        }
    }
    let mut resolved: Vec<Resolved> = (0..n).map(|_| Resolved::default()).collect();
    while let Some(f) = queue.pop_front() {
        let r = calls::resolve_fn(program, types, panic_guards, f, budget);
        for call in &r.calls {
            for &t in &call.targets {
                if !std::mem::replace(&mut reached[t as usize], true) {
                    queue.push_back(t);
                }
            }
        }
        resolved[f as usize] = r;
    }
    (resolved, reached)
}

/// The crate's own fns, and those of linked members the SDK may run without a call edge:
/// handlers, and fns that register handler closures.
fn is_root(program: &Program<'_>, types: &TypeTable<'_>, sdk: Option<&dyn Sdk>, f: FnId) -> bool {
    if program.is_own(f) {
        return true;
    }
    let Some(sdk) = sdk else {
        return false;
    };
    if super::handlers::role_of(program, types, sdk, f).is_handler() {
        return true;
    }
    let methods = sdk.handler_closure_methods();
    !methods.is_empty()
        && program.def(f).body.exprs.iter().any(|e| {
            matches!(&e.kind, ExprKind::MethodCall { method, .. }
                if methods.contains(&method.as_str()))
        })
}
