//! What a registered handler closure is handed. An SDK that takes a tool's handler as a
//! closure (`.with_tool(name, .., schema, |args| ..)`) calls it with the tool's arguments,
//! whatever the closure calls its parameter: deserialising that parameter checks the
//! arguments, and its failure is an invalid-arguments failure (the SDK model names the
//! registration methods).

use super::*;

impl Flow<'_, '_> {
    /// Whether `operand` deserialises (`from_value(args)`) the first parameter of a closure
    /// the SDK runs as a tool handler, or a value read from it.
    pub(in crate::analysis) fn deserializes_handler_arguments(&self, operand: ExprId) -> bool {
        if !super::super::text::deserializes(self.body, operand) {
            return false;
        }
        let ExprKind::Call { args, .. } = &self.body.expr(self.body.peel(operand)).kind else {
            return false;
        };
        let Some(local) = args.first().and_then(|&a| root_local(self.body, a)) else {
            return false;
        };
        let methods = self
            .env
            .sdk
            .map_or(&[][..], |s| s.handler_closure_methods());
        !methods.is_empty() && self.handler_closure_of_param(local, methods).is_some()
    }

    /// The closure whose first parameter binds `local`, when a call of one of `methods`
    /// (the SDK's handler registrations) takes it as an argument.
    fn handler_closure_of_param(&self, local: LocalId, methods: &[&str]) -> Option<ClosureId> {
        let body = self.body;
        let c = (0..body.closures.len())
            .filter_map(|c| ClosureId::try_from(c).ok())
            .find(|&c| {
                body.closure(c)
                    .params
                    .first()
                    .is_some_and(|&p| binds(body, p, local))
            })?;
        let registered = body.exprs.iter().any(|e| match &e.kind {
            ExprKind::MethodCall { method, args, .. } => methods.contains(&method.as_str())
                && args.iter().any(
                    |&a| matches!(body.expr(body.value_of(a)).kind, ExprKind::Closure(x) if x == c),
                ),
            _ => false,
        });
        registered.then_some(c)
    }
}

/// The local a method chain or field access starts from (`args`, `args.clone()`,
/// `args["query"]`).
fn root_local(body: &Body, mut e: ExprId) -> Option<LocalId> {
    for _ in 0..64 {
        match &body.expr(e).kind {
            ExprKind::Local(l) => return Some(*l),
            ExprKind::MethodCall { receiver, .. } => e = *receiver,
            ExprKind::Field { base, .. } | ExprKind::Index { base, .. } => e = *base,
            ExprKind::Ref(x) | ExprKind::Deref(x) => e = *x,
            _ => return None,
        }
    }
    None
}

/// Whether pattern `pat` binds `local` by itself (`args`, `args: Value`, `mut args`).
fn binds(body: &Body, pat: PatId, local: LocalId) -> bool {
    matches!(body.pat(body.untyped(pat)).kind, PatKind::Bind { local: l, sub: None } if l == local)
}
