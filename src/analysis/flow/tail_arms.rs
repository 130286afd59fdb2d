//! A body's value is the value of the branch that runs. When a body ends with a `match` or an
//! `if`/`else`, each arm that gives a value returns it as `return <arm>` would: the arm
//! `"check" => run_check(args)` forwards `run_check`'s `Err` by itself, and the arm
//! `Err(e) => Err(wrap(e))` makes its own. So each such arm is an exit of its own, and a
//! failure is placed at the arm it leaves through, not at the whole `match`.

use super::*;

/// Bound on the arms followed into nested tails: a body's tail tree is walked once, so this
/// only guards hostile input with millions of arms.
const MAX_TAIL_ARMS: usize = 4096;

/// The `match` and `if`/`else` expressions whose arms give a body's value: the tail of the
/// fn's body and of each closure body, and the tails of those arms, recursively.
pub(super) fn tail_branches(body: &Body) -> HashSet<ExprId> {
    let mut out = HashSet::default();
    let closures = (0..body.closures.len()).filter_map(|c| ClosureId::try_from(c).ok());
    let roots = body
        .root
        .into_iter()
        .chain(closures.map(|c| body.closure_value(c)));
    let mut stack: Vec<ExprId> = roots.collect();
    while let Some(e) = stack.pop() {
        let e = body.value_of(e);
        let arms = branch_arms(body, e);
        if arms.is_empty() || out.len() >= MAX_TAIL_ARMS || !out.insert(e) {
            continue;
        }
        stack.extend(arms);
    }
    out
}

/// The arms of a `match`, or the two branches of an `if` with an `else`; empty otherwise.
fn branch_arms(body: &Body, e: ExprId) -> Vec<ExprId> {
    match &body.expr(e).kind {
        ExprKind::Match { arms, .. } => arms.iter().map(|a| a.body).collect(),
        ExprKind::If {
            then,
            els: Some(els),
            ..
        } => vec![*then, *els],
        _ => Vec::new(),
    }
}

/// The error side an arm of a tail branch gives, and whether it is a catch-all of a
/// selection by a tool's name (an unknown tool's answer).
pub(super) struct ArmErr {
    err: Val,
    in_fallback: bool,
}

impl Flow<'_, '_> {
    /// Records the value arm `arm` of branch `branch` gave, when `branch` gives a body's value.
    pub(in crate::analysis) fn note_arm_value(&mut self, branch: ExprId, arm: ExprId, v: &Val) {
        if !self.tail_branches.contains(&branch) {
            return;
        }
        let err = v.part(Part::Err);
        let leaf = self.body.value_of(arm);
        if err.is_empty() {
            self.arm_errs.remove(&leaf);
            return;
        }
        let in_fallback = self.fallback > 0;
        let err = if self.name_fallback > 0 {
            super::exits::as_unknown_tool(&err, self.site(leaf))
        } else {
            err
        };
        self.arm_errs.insert(leaf, ArmErr { err, in_fallback });
    }

    /// The exits of a body whose value `tail` carries error `err`: one per arm that gives an
    /// `Err` when the tail is a branch, else the tail itself.
    pub(super) fn tail_exits(&mut self, tail: ExprId, err: Val) {
        let mut leaves = Vec::new();
        let mut stack = vec![tail];
        while let Some(e) = stack.pop() {
            let e = self.body.value_of(e);
            if self.tail_branches.contains(&e) {
                // Arms in source order: the exits read as the code does.
                stack.extend(branch_arms(self.body, e).into_iter().rev());
            } else if let Some(arm) = self.arm_errs.remove(&e) {
                leaves.push((e, arm));
            }
        }
        if leaves.is_empty() {
            self.exit(ExitKind::Tail, tail, err);
            return;
        }
        for (at, arm) in leaves {
            let fallback = std::mem::replace(&mut self.fallback, u32::from(arm.in_fallback));
            self.exit(ExitKind::Tail, at, arm.err);
            self.fallback = fallback;
        }
    }
}
