//! A search loop, `for tool in tools { if tool.name == name { return run(tool, args); } }`,
//! leaves as soon as it finds the requested tool, so the code after it runs exactly when no
//! tool has that name: it answers an unknown tool, as the catch-all arm of a `match` on the
//! name does.

use super::*;

impl Flow<'_, '_> {
    /// Whether `e` is a loop that leaves when an element matches the requested name: a
    /// statement of its body is `if <comparison with the name> { <diverges> }`.
    pub(super) fn is_search_loop(&self, e: ExprId) -> bool {
        let body = self.body;
        let loop_body = match &body.expr(e).kind {
            ExprKind::For { body: b, .. }
            | ExprKind::While { body: b, .. }
            | ExprKind::Loop { body: b } => *b,
            _ => return false,
        };
        let ExprKind::Block { stmts, tail, .. } = &body.expr(loop_body).kind else {
            return false;
        };
        let exprs = stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Expr { expr, .. } => Some(*expr),
                Stmt::Let { .. } => None,
            })
            .chain(*tail);
        exprs.into_iter().any(|s| {
            matches!(&body.expr(s).kind, ExprKind::If { cond, then, .. }
                if self.compares_with_name(*cond) && crate::analysis::text::diverges(body, *then))
        })
    }

    /// `a == b` (or `a.eq(b)`) where one side is the requested name and neither is a string
    /// literal (a literal selects one tool; a search compares with each tool's name).
    pub(in crate::analysis) fn compares_with_name(&self, cond: ExprId) -> bool {
        let body = self.body;
        let Some((lhs, rhs)) = crate::analysis::strings::compared(body, cond, true) else {
            return false;
        };
        let literal = |e: ExprId| body.str_lit(body.peel(e)).is_some();
        !literal(lhs) && !literal(rhs) && (self.mentions_name(lhs) || self.mentions_name(rhs))
    }
}
