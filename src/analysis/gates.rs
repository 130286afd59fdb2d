//! The conditions code runs under, as comparable keys: what an `if` requires or excludes,
//! and what a `match` arm's pattern says of its scrutinee. Two places whose conditions
//! contradict (`x~Stdio` true at one, false at the other) never run in one execution.

use super::facts::Gate;
use super::text::place_key;
use crate::model::ir::*;

/// Conditions an `if` requires (`positive`) or excludes: flags, fields, argument-less
/// method calls, `!x`, `a && b` (positive only), `matches!(x, P)`.
pub fn gates_of(body: &Body, cond: ExprId, positive: bool) -> Vec<Gate> {
    match &body.expr(cond).kind {
        ExprKind::Not(inner) => gates_of(body, *inner, !positive),
        ExprKind::Binary {
            op: BinOp::And,
            lhs,
            rhs,
        } if positive => {
            let mut g = gates_of(body, *lhs, true);
            g.extend(gates_of(body, *rhs, true));
            g
        }
        ExprKind::Binary {
            op: BinOp::Or,
            lhs,
            rhs,
        } if !positive => {
            let mut g = gates_of(body, *lhs, false);
            g.extend(gates_of(body, *rhs, false));
            g
        }
        // `a != b` holds where `a == b` does not.
        ExprKind::Binary {
            op: BinOp::Ne,
            lhs,
            rhs,
        } => equality_key(body, *lhs, *rhs)
            .map(|key| {
                vec![Gate {
                    key,
                    positive: !positive,
                }]
            })
            .unwrap_or_default(),
        _ => match condition_key(body, cond) {
            Some(key) => vec![Gate { key, positive }],
            None => Vec::new(),
        },
    }
}

/// A condition as a comparable key. A variant is named by its last segment and a string by
/// its text, the same for an `if` (`x == Mode::Stdio`, `matches!(x, Mode::Stdio)`,
/// `mode.as_str() == "stdio"`) as for a `match` arm (see [`arm_gates`]).
pub fn condition_key(body: &Body, e: ExprId) -> Option<String> {
    key_within(body, e, LET_DEPTH)
}

/// How many `let`s a condition is followed through (`let quiet = stdio;`).
const LET_DEPTH: u8 = 4;

fn key_within(body: &Body, e: ExprId, depth: u8) -> Option<String> {
    match &body.expr(e).kind {
        // A local bound once to a condition is that condition (`let stdio = matches!(..)`).
        ExprKind::Local(l) => depth
            .checked_sub(1)
            .and_then(|d| key_within(body, super::text::let_init(body, *l)?, d))
            .or_else(|| place_key(body, e)),
        ExprKind::Field { .. } => place_key(body, e),
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if args.is_empty() => Some(format!("{}.{method}()", place_key(body, *receiver)?)),
        ExprKind::Macro(m) if m.name == "matches" => {
            let subject = subject_key(body, *m.args.first()?)?;
            let pat = m.pat.map(|p| pat_text(body, p)).unwrap_or_default();
            Some(format!("{subject}~{pat}"))
        }
        ExprKind::Binary {
            op: BinOp::Eq,
            lhs,
            rhs,
        } => equality_key(body, *lhs, *rhs),
        _ => None,
    }
}

/// `a == b` as a key: a place compared with a variant or a string.
fn equality_key(body: &Body, lhs: ExprId, rhs: ExprId) -> Option<String> {
    let l = subject_key(body, lhs)?;
    match &body.expr(rhs).kind {
        ExprKind::Path(p) => Some(format!("{l}~{}", p.last()?)),
        ExprKind::Lit(Lit::Str(s)) => Some(format!("{l}=={s:?}")),
        _ => None,
    }
}

fn pat_text(body: &Body, p: PatId) -> String {
    match &body.pat(p).kind {
        PatKind::Path(path) | PatKind::TupleStruct { path, .. } | PatKind::Struct { path, .. } => {
            path.last().map(ToString::to_string).unwrap_or_default()
        }
        PatKind::Or(cases) => cases
            .iter()
            .map(|c| pat_text(body, *c))
            .collect::<Vec<_>>()
            .join("|"),
        _ => String::new(),
    }
}

/// The conditions a `match` arm runs under, when the scrutinee is a place (`command`,
/// `cli.transport`, `mode.as_str()`): its pattern's variant or string holds (`x~Stdio`,
/// `x=="stdio"`), and the other arms' do not, since a value is of one variant. A catch-all
/// runs when no unguarded arm before it matched.
pub fn arm_gates(body: &Body, scrutinee: ExprId, arms: &[Arm], i: usize) -> Vec<Gate> {
    let Some(subject) = subject_key(body, scrutinee) else {
        return Vec::new();
    };
    let mine = pattern_keys(body, &subject, arms[i].pat);
    let catch_all = super::text::is_fallback(body, arms[i].pat);
    if mine.is_empty() && !catch_all {
        return Vec::new();
    }
    let mut gates: Vec<Gate> = Vec::new();
    if let [only] = &mine[..] {
        gates.push(Gate {
            key: only.clone(),
            positive: true,
        });
    }
    for (j, other) in arms.iter().enumerate() {
        if j == i || (catch_all && (j > i || other.guard.is_some())) {
            continue;
        }
        for key in pattern_keys(body, &subject, other.pat) {
            if !mine.contains(&key) && !gates.iter().any(|g| g.key == key) {
                gates.push(Gate {
                    key,
                    positive: false,
                });
            }
        }
    }
    gates
}

/// The scrutinee as a place, through the views that keep its value (`mode.as_str()`).
fn subject_key(body: &Body, e: ExprId) -> Option<String> {
    match &body.expr(e).kind {
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if args.is_empty() && super::std_types::keeps_its_value(method) => {
            subject_key(body, *receiver)
        }
        _ => place_key(body, e),
    }
}

/// What a pattern says its scrutinee is, as condition keys: each variant (`x~V`) or
/// string (`x=="s"`) it matches; nothing for a pattern that binds or tests otherwise.
fn pattern_keys(body: &Body, subject: &str, p: PatId) -> Vec<String> {
    match &body.pat(p).kind {
        PatKind::Path(path) | PatKind::TupleStruct { path, .. } | PatKind::Struct { path, .. } => {
            path.last()
                .map(|v| format!("{subject}~{v}"))
                .into_iter()
                .collect()
        }
        PatKind::Lit(Lit::Str(s)) => vec![format!("{subject}=={s:?}")],
        PatKind::Or(cases) => cases
            .iter()
            .flat_map(|&c| pattern_keys(body, subject, c))
            .collect(),
        PatKind::Ref(inner) => pattern_keys(body, subject, *inner),
        _ => Vec::new(),
    }
}
