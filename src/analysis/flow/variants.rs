//! Values of known enum variants: a fn that `match`es its receiver or a parameter on a crate
//! enum's variants answers a caller that passes a known variant with that variant's arm (a
//! mapper's `Self::BadInput(..) => invalid_params(..)`), through delegating fns and through
//! the crate's `From` impls at `?`.

use super::*;
use crate::model::ir::FnKind;

impl Flow<'_, '_> {
    /// The crate enum variant `path` names (`Error::NotFound`, `Self::NotFound`, a variant
    /// imported by name), as a hash of `Enum::Variant`.
    pub fn variant_of(&self, path: &[Name]) -> Option<u32> {
        let resolved = self.imports.resolve_segments(path);
        let [.., ty, variant] = &resolved[..] else {
            return None;
        };
        let ty = match ty.as_str() {
            "Self" => self.def.owner.as_ref()?.as_str(),
            ty => ty,
        };
        self.env.types.variant_fields(ty, variant)?;
        let key = format!("{ty}::{variant}");
        Some(key.bytes().fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        }))
    }

    /// The receiver (`RECEIVER`) or parameter `match`ed by the `match` at `id` when that
    /// `match` is the fn's value (its tail, not in a closure).
    pub(crate) fn variant_input(&self, id: ExprId, scrutinee: ExprId) -> Option<u16> {
        let body = self.body;
        // A mapper's value (a `Result` is made of its exits, not of its tail).
        if self.owner.is_some()
            || body.root.map(|r| body.value_of(r)) != Some(id)
            || self.env.types.ret(self.func).as_result().is_some()
        {
            return None;
        }
        self.input_key(scrutinee)
    }

    /// `self` (`RECEIVER`) or parameter k, as `e` names it.
    pub(crate) fn input_key(&self, e: ExprId) -> Option<u16> {
        let body = self.body;
        match body.expr(body.peel(e)).kind {
            ExprKind::SelfValue => Some(RECEIVER),
            ExprKind::Local(l) => self
                .def
                .params
                .iter()
                .position(|p| {
                    matches!(body.pat(p.pat).kind, PatKind::Bind { local, sub: None } if local == l)
                })
                .and_then(|k| u16::try_from(k).ok()),
            _ => None,
        }
    }

    /// The crate enum variants a pattern matches (`Error::A(..) | Error::B { .. }`).
    pub(crate) fn pattern_variants(&self, pat: PatId) -> Vec<u32> {
        match &self.body.pat(pat).kind {
            PatKind::Path(path)
            | PatKind::TupleStruct { path, .. }
            | PatKind::Struct { path, .. } => self.variant_of(path).into_iter().collect(),
            PatKind::Or(items) => items
                .iter()
                .flat_map(|&p| self.pattern_variants(p))
                .collect(),
            PatKind::Ref(p) | PatKind::Typed { pat: p, .. } => self.pattern_variants(*p),
            _ => Vec::new(),
        }
    }

    /// The error the crate's `impl From<E> for F` makes at `?` (`at`) from an error `err` of
    /// known variants of `E`, `F` being this fn's error type, when that impl has an arm for
    /// each of them.
    pub(crate) fn converted_by_variant(&self, err: &Val, at: ExprId) -> Option<Val> {
        let (_, into) = self.env.types.ret(self.func).as_result()?;
        let mut variants = Vec::new();
        for o in err.iter() {
            match o.fact {
                Fact::Variant(v) => variants.push(v),
                f if f.is_other_error() && !self.wraps_a_variant(err, o) => return None,
                _ => {}
            }
        }
        if variants.is_empty() {
            return None;
        }
        let here = self.site(at);
        self.env
            .types
            .trait_method("From", "from")
            .into_iter()
            .find_map(|f| {
                if !self.converts_into(f, into) {
                    return None;
                }
                let arms = &self.env.summaries.get(f as usize)?.by_variant;
                let mut out = Val::default();
                for v in &variants {
                    let mut found = false;
                    for (_, _, val) in arms.iter().filter(|(k, w, _)| *k == 0 && w == v) {
                        found = true;
                        for o in val.iter().filter(|o| matches!(o.fact, Fact::Protocol(_))) {
                            out.push(Origin {
                                site: here,
                                via: None,
                                wrap: None,
                                local: None,
                                ..*o
                            });
                        }
                    }
                    if !found {
                        return None;
                    }
                }
                (!out.is_empty()).then_some(out)
            })
    }

    /// Whether `from` fn `f` is of an `impl From<..> for T` with `T` the type `into` (the
    /// same name, or both the SDK's protocol error however imported).
    fn converts_into(
        &self,
        f: crate::analysis::program::FnId,
        into: &crate::model::resolve::Ty,
    ) -> bool {
        let program = self.env.program;
        let FnKind::Method { impl_idx } = program.def(f).kind else {
            return false;
        };
        let Some(imp) = program.file_ir(f).impls.get(impl_idx as usize) else {
            return false;
        };
        // The impl's type as the crate's aliases name it (`impl From<E> for McpError` with
        // `type McpError = rmcp::ErrorData`).
        let self_ty = self.env.types.expand(&imp.self_ty);
        let into = self.env.types.expand(into);
        let same_name =
            self_ty.last_segment().is_some() && self_ty.last_segment() == into.last_segment();
        let protocol = |t| self.env.sdk.is_some_and(|s| s.is_protocol_error_type(t));
        same_name || (protocol(&self_ty) && protocol(&into))
    }

    /// `v` without the error origins that are one of its variants under another name: the
    /// `Err(..)` around it, and the mark of the binding that holds it (`|e| e.to_rpc()`).
    pub(crate) fn without_variant_wrappers(&self, v: &Val) -> Val {
        if !v.any(|o| matches!(o.fact, Fact::Variant(_))) {
            return v.clone();
        }
        Val(v
            .iter()
            .filter(|o| {
                o.fact != Fact::ErrValue && !(o.fact.is_other_error() && self.wraps_a_variant(v, o))
            })
            .copied()
            .collect())
    }

    /// Whether error origin `o` is the `Err(..)` around one of `err`'s variants (`Err(E::A
    /// { .. })` is one error, recorded both as made there and as of variant `A`).
    pub(crate) fn wraps_a_variant(&self, err: &Val, o: &Origin) -> bool {
        // The error bound from a crate call (`f(x).map_err(|e| ..)`) is the errors its summary
        // lists, which `err` holds as they are: variants made however deep in that call.
        if o.fact == Fact::ErrValue
            && err.any(|r| r.fact == Fact::Returned && r.site == o.site)
            && err.any(|v| matches!(v.fact, Fact::Variant(_)) && v.site.func != o.site.func)
        {
            return true;
        }
        let span =
            |s: crate::analysis::program::Site| self.env.program.def(s.func).body.expr(s.expr).span;
        err.any(|v| {
            // Where the variant entered this fn: made here, or a helper's value (`Err(bad(..))`).
            let at = v.via.filter(|s| s.func == o.site.func).unwrap_or(v.site);
            matches!(v.fact, Fact::Variant(_))
                && at.func == o.site.func
                && span(o.site).contains(span(at))
        })
    }

    /// A fn whose value is a call that picks by variant (`fn from(e: Problem) -> ErrorData {
    /// e.into_rpc() }`, a mapper's body moved into a helper) picks by the same variant: the
    /// callee's arms become this fn's, for the receiver or parameter it passes on.
    pub(crate) fn forward_variants(
        &mut self,
        id: ExprId,
        targets: &[FnId],
        receiver: Option<ExprId>,
        args: &[ExprId],
    ) {
        let body = self.body;
        if self.owner.is_some()
            || body.root.map(|r| body.value_of(r)) != Some(id)
            || self.env.types.ret(self.func).as_result().is_some()
        {
            return;
        }
        for &t in targets {
            let Some(summary) = self.env.summaries.get(t as usize) else {
                continue;
            };
            for (input, variant, val) in &summary.by_variant {
                let passed = if *input == RECEIVER {
                    receiver
                } else {
                    args.get(*input as usize).copied()
                };
                let Some(own) = passed.and_then(|e| self.input_key(e)) else {
                    continue;
                };
                // As a call's value: made in the callee, reached through this call.
                let here = self.site(id);
                let val = Val(val
                    .iter()
                    .filter(|o| !matches!(o.fact, Fact::Param(_)))
                    .map(|o| Origin {
                        via: o.via.or(Some(here)),
                        ..*o
                    })
                    .collect());
                if self.by_variant.len() < 64 {
                    self.by_variant.push((own, *variant, val));
                }
            }
        }
    }
}

/// The value of a call to a fn that `match`es its receiver or a parameter on an enum's
/// variants, when the caller's value is of known variants all of which have an arm: those
/// arms' values joined. `None` when not known (then every arm's).
pub(crate) fn variant_arms(summary: &Summary, receiver: Option<&Val>, args: &[Val]) -> Option<Val> {
    let (input, _, _) = summary.by_variant.first()?;
    let given = if *input == RECEIVER {
        receiver?
    } else {
        args.get(*input as usize)?
    };
    let variants: Vec<u32> = given
        .iter()
        .filter_map(|o| match o.fact {
            Fact::Variant(v) => Some(v),
            _ => None,
        })
        .collect();
    // Only a value known to be those variants and no other error.
    if variants.is_empty() || given.any(|o| o.fact.is_other_error()) {
        return None;
    }
    let mut out = Val::default();
    for v in variants {
        let arms: Vec<&Val> = summary
            .by_variant
            .iter()
            .filter(|(k, variant, _)| k == input && *variant == v)
            .map(|(_, _, val)| val)
            .collect();
        if arms.is_empty() {
            return None;
        }
        for a in arms {
            out.join(a);
        }
    }
    Some(out)
}
