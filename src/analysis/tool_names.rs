//! Which parameters hold a tool's name. A value read from the request's name (see
//! [`super::text::mentions_name_given`]) keeps being the tool's name when a fn hands it to
//! another: `call_tool(&params.name, args)` makes `call_tool`'s first parameter the name,
//! whatever that parameter is called, and a `match` on it selects a tool. The fact flows from
//! callers to callees, so it is computed before the bottom-up flow, along resolved calls.

use super::calls::Resolved;
use super::program::{FnId, Program};
use crate::model::ir::{ExprId, ExprKind, LocalId, PatKind};

/// Per fn, the locals bound by its parameters that a caller passes a tool's name.
pub(super) fn tool_name_params(program: &Program<'_>, resolved: &[Resolved]) -> Vec<Vec<LocalId>> {
    let n = program.fn_count();
    let mut names: Vec<Vec<LocalId>> = vec![Vec::new(); n];
    let mut work: Vec<FnId> = program.fn_ids().filter(|&f| program.is_own(f)).collect();
    let mut queued = vec![true; n];
    // A fn is queued again only when one of its parameters newly holds the name: at most
    // once per parameter, so the walk is linear in the calls times the parameters.
    while let Some(f) = work.pop() {
        queued[f as usize] = false;
        let body = &program.def(f).body;
        for call in resolved[f as usize]
            .calls
            .iter()
            .filter(|c| !c.may && c.owner.is_none())
        {
            for t in call.targets.iter().copied().filter(|&t| program.is_own(t)) {
                for (k, arg) in passed_args(program, call.expr, f, t) {
                    // A literal `"name"` handed on is a key the callee reads something by
                    // (`field(args, "name")`), not the requested tool's name.
                    let literal = body.str_lit(arg).is_some();
                    if literal || !super::text::mentions_name_given(body, arg, &names[f as usize]) {
                        continue;
                    }
                    let Some(local) = param_local(program, t, k) else {
                        continue;
                    };
                    if !names[t as usize].contains(&local) {
                        names[t as usize].push(local);
                        if !queued[t as usize] {
                            queued[t as usize] = true;
                            work.push(t);
                        }
                    }
                }
            }
        }
    }
    names
}

/// The arguments of call `call` (in fn `f`) by the index of the parameter of `t` each is
/// passed to: a method's parameters are numbered after its receiver, which a path call
/// (`Type::method(receiver, ..)`) passes first.
fn passed_args(program: &Program<'_>, call: ExprId, f: FnId, t: FnId) -> Vec<(usize, ExprId)> {
    let body = &program.def(f).body;
    let (args, skip) = match &body.expr(call).kind {
        ExprKind::Call { args, .. } => (&args[..], usize::from(program.def(t).has_receiver)),
        ExprKind::MethodCall { args, .. } => (&args[..], 0),
        _ => return Vec::new(),
    };
    args.iter().skip(skip).copied().enumerate().collect()
}

/// The local a plain parameter (`name: &str`, `mut name: String`) binds.
fn param_local(program: &Program<'_>, t: FnId, k: usize) -> Option<LocalId> {
    let def = program.def(t);
    let param = def.params.get(k)?;
    match &def.body.pat(param.pat).kind {
        PatKind::Bind { local, sub: None } => Some(*local),
        _ => None,
    }
}
