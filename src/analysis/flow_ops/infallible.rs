//! Results that cannot fail on what a request sends: std calls whose `Err` depends on the
//! machine or on the code alone, so an `unwrap` of them is no panic on caller data.
//!
//! - `SystemTime::now().duration_since(UNIX_EPOCH)` fails only on a clock set before 1970.
//! - A slice of a length the code fixes (`&b[i..i + 8]`, `&b[..4]`) converted to an array
//!   (`.try_into()`, `<[u8; 8]>::try_from(..)`): the lengths match on every call or on none.

use super::*;

impl Flow<'_, '_> {
    /// Whether `e` (the receiver of an `unwrap`) is one of the results above.
    pub(super) fn cannot_fail_on_input(&self, e: ExprId) -> bool {
        self.since_the_epoch(e) || self.fixed_length_conversion(e)
    }

    /// `SystemTime::now().duration_since(UNIX_EPOCH)`, the epoch named through any path.
    fn since_the_epoch(&self, e: ExprId) -> bool {
        let body = self.body;
        let ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } = &body.expr(body.peel(e)).kind
        else {
            return false;
        };
        let epoch = |a: ExprId| match &body.expr(body.peel(a)).kind {
            ExprKind::Path(p) => self
                .imports
                .resolve_segments(p)
                .last()
                .is_some_and(|l| l == "UNIX_EPOCH"),
            _ => false,
        };
        let now = match &body.expr(body.peel(*receiver)).kind {
            ExprKind::Call { func, args } if args.is_empty() => {
                matches!(&body.expr(*func).kind, ExprKind::Path(p)
                    if self.imports.resolve_segments(p).ends_with(&["SystemTime".into(), "now".into()]))
            }
            _ => false,
        };
        method == "duration_since" && now && matches!(&args[..], [a] if epoch(*a))
    }

    /// `b[i..i + 8].try_into()`, `<[u8; 4]>::try_from(&b[..4])`: a conversion of a slice whose
    /// length is a constant of the code.
    fn fixed_length_conversion(&self, e: ExprId) -> bool {
        let body = self.body;
        let converted = match &body.expr(body.peel(e)).kind {
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if method == "try_into" && args.is_empty() => *receiver,
            ExprKind::Call { func, args } if args.len() == 1 => match &body.expr(*func).kind {
                ExprKind::Path(p) if p.last().is_some_and(|l| l == "try_from") => args[0],
                _ => return false,
            },
            _ => return false,
        };
        let ExprKind::Index { index, .. } = body.expr(body.peel(converted)).kind else {
            return false;
        };
        let ExprKind::Range { start, end, .. } = body.expr(index).kind else {
            return false;
        };
        let literal =
            |x: ExprId| matches!(body.expr(body.peel(x)).kind, ExprKind::Lit(Lit::Int(_)));
        match (start, end) {
            (None, Some(end)) => literal(end),
            (Some(start), Some(end)) => {
                (literal(start) && literal(end)) || offset_by_constant(body, start, end)
            }
            _ => false,
        }
    }
}

/// `end` is `start + N` for a literal `N`, `start` written the same way both times (`i`,
/// `offset + 8` and `offset + 16`, `i * 4` and `i * 4 + 4`).
fn offset_by_constant(body: &Body, start: ExprId, end: ExprId) -> bool {
    let ExprKind::Binary {
        op: BinOp::Add,
        lhs,
        rhs,
    } = &body.expr(body.peel(end)).kind
    else {
        return false;
    };
    let (ExprKind::Lit(Lit::Int(_)), true) = (
        &body.expr(body.peel(*rhs)).kind,
        same_value(body, start, *lhs) || start_plus_constant(body, start, *lhs),
    ) else {
        return false;
    };
    true
}

/// `offset + 8` against `offset` (the end `offset + 8 + 8` of a slice that starts at `offset
/// + 8`): the sum's first term written as the start is.
fn start_plus_constant(body: &Body, start: ExprId, lhs: ExprId) -> bool {
    match (
        &body.expr(body.peel(start)).kind,
        &body.expr(body.peel(lhs)).kind,
    ) {
        (
            ExprKind::Binary {
                op: BinOp::Add,
                lhs: a,
                rhs: k,
            },
            _,
        ) => {
            matches!(body.expr(body.peel(*k)).kind, ExprKind::Lit(Lit::Int(_)))
                && same_value(body, *a, lhs)
        }
        _ => false,
    }
}

/// The same local or place, or the same product of one by a literal (`i * 4`).
fn same_value(body: &Body, a: ExprId, b: ExprId) -> bool {
    match (&body.expr(body.peel(a)).kind, &body.expr(body.peel(b)).kind) {
        (ExprKind::Lit(Lit::Int(x)), ExprKind::Lit(Lit::Int(y))) => x == y,
        (
            ExprKind::Binary {
                op: o1,
                lhs: l1,
                rhs: r1,
            },
            ExprKind::Binary {
                op: o2,
                lhs: l2,
                rhs: r2,
            },
        ) => o1 == o2 && same_value(body, *l1, *l2) && same_value(body, *r1, *r2),
        _ => {
            let key = |e: ExprId| crate::analysis::text::place_key(body, e);
            key(a).is_some() && key(a) == key(b)
        }
    }
}
