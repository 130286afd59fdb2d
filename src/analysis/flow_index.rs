//! The flow walk's indexing and slicing (`v[i]`, `s[a..b]`): whether the index may be out of
//! bounds or off a char boundary, given the checks seen so far, and the length checks and
//! stdio pairs recorded on the way.

use super::facts::*;
use super::flow::*;
use super::value::*;
use crate::model::ir::*;

impl Flow<'_, '_> {
    pub(super) fn index(&mut self, id: ExprId, base: ExprId, index: ExprId, bracket: Sp) -> Val {
        let bv = self.eval(base);
        let iv = self.eval(index);
        let bounds = self
            .range_bounds
            .get(&index)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut params: Vec<u16> = Vec::new();
        for o in iv.iter().chain(bounds.iter().flat_map(Val::iter)) {
            if let Fact::Param(k) = o.fact
                && !params.contains(&k)
            {
                params.push(k);
            }
        }
        let place = super::text::place_key(self.body, base);
        // A slice whose bound the arguments choose is safe after a length check only when that
        // bound is what the check compared (`if n <= v.len() { &v[..n] }`), not after any
        // check of the length (`if v.len() < 2 { return }` says nothing of `n`).
        let range = matches!(self.body.expr(index).kind, ExprKind::Range { .. });
        let length_checked = if range && !params.is_empty() {
            self.bound_compared_with_length(base, index)
        } else {
            place
                .as_ref()
                .is_some_and(|p| self.checks.length.contains(p))
        };
        let checked = length_checked
            || place
                .as_ref()
                .is_some_and(|p| self.past_checked_prefix(p, index))
            || self.slices_at_found_indices(base, index, self.is_element_sequence(base))
            || self.before_checked_suffix(base, index)
            || self.slices_at_boundaries(base, index);
        let shape = super::text::index_can_panic(self.body, index);
        let base_ty = self.resolved_base_is_sequence(base);
        // A range's value is no number: its bounds' provenance is kept beside it.
        let chosen = !params.is_empty();
        let splits_text = self.text_prefix_can_split(base, index, chosen);
        // `items[0]` of a list the caller sends: it may be empty (or shorter).
        let caller_sized = matches!(self.body.expr(index).kind, ExprKind::Lit(Lit::Int(_)))
            && self.is_element_sequence(base)
            && bv.any(|o| matches!(o.fact, Fact::Param(_)));
        // `map["key"]`: `Index` on a map (std's, serde_json's `Map`) panics when the key is
        // absent, where indexing a JSON `Value` gives `Null`. Whether a map the caller sends
        // holds the key is the caller's choice: judged where the map is chosen.
        let map_params: Vec<u16> = bv
            .iter()
            .filter_map(|o| match o.fact {
                Fact::Param(k) => Some(k),
                _ => None,
            })
            .collect();
        let absent_key = !map_params.is_empty() && self.indexes_map_by_key(base, index);
        if absent_key {
            for k in map_params {
                if !params.contains(&k) {
                    params.push(k);
                }
            }
        }
        let can_panic = match splits_text {
            Some(splits) => splits,
            None => {
                absent_key || !checked && (shape || (!params.is_empty() && base_ty) || caller_sized)
            }
        };
        if can_panic {
            let kind = if absent_key {
                PanicKind::Index
            } else if splits_text.is_some() {
                PanicKind::TextSplit
            } else if matches!(self.body.expr(index).kind, ExprKind::Range { .. }) {
                PanicKind::Slice
            } else {
                PanicKind::Index
            };
            let risk = if kind == PanicKind::Index {
                None
            } else {
                self.bounds_may_miss(base, index, kind == PanicKind::TextSplit)
            };
            let computed_bounds = kind != PanicKind::Index && risk.is_none();
            let span = Sp {
                start: self.body.expr(base).span.start,
                end: bracket.end,
            };
            for &k in &params {
                if self.index.len() < MAX_INDEX_SITES {
                    self.index.push((k, self.site(id)));
                }
            }
            self.facts.panics.push(PanicSite {
                owner: self.owner,
                at: Some(id),
                span,
                what: match kind {
                    _ if absent_key => "indexing a map by a key it may not hold".into(),
                    PanicKind::TextSplit => "slicing text at a byte offset".into(),
                    PanicKind::Slice => "slicing".into(),
                    _ => "indexing".into(),
                },
                kind,
                guarded: self.catch > 0,
                within: self.open.last().copied(),
                invariant: None,
                params,
                computed_bounds,
                risk,
            });
        }
        // A member read out of an object by its key is that member: the object's own
        // verdict (an `"error"` member beside it) is not the verdict of its other members.
        let mut bv = bv;
        if self.body.str_lit(index).is_some_and(|key| key != "error") {
            bv.retain(|o| o.fact != Fact::ErrJson);
        }
        bv
    }

    /// `m["key"]` on a map typed as one (std's maps, serde_json's `Map`), unless the fn asks
    /// whether it holds that key (`m.contains_key("key")`).
    fn indexes_map_by_key(&self, base: ExprId, index: ExprId) -> bool {
        let body = self.body;
        let Some(key) = body.str_lit(index) else {
            return false;
        };
        let is_map = self.base_ty(base, 0).is_some_and(|t| {
            super::types::is_map(t)
                || matches!(super::types::peel(t), crate::model::resolve::Ty::Path { path, args }
                    if args.len() == 2 && path.last().is_some_and(|l| l == "Map"))
        });
        if !is_map {
            return false;
        }
        let place = super::text::place_key(body, base);
        let asks = body.exprs.iter().any(|e| {
            matches!(&e.kind, ExprKind::MethodCall { receiver, method, args, .. }
                if matches!(method.as_str(), "contains_key" | "get" | "entry")
                    && args.first().is_some_and(|&a| body.str_lit(a) == Some(key))
                    && super::text::place_key(body, *receiver) == place)
        });
        !asks
    }

    /// Whether a term of a range's bounds was compared with the length of the sliced value.
    fn bound_compared_with_length(&self, base: ExprId, index: ExprId) -> bool {
        let body = self.body;
        let ExprKind::Range { start, end, .. } = body.expr(index).kind else {
            return false;
        };
        let Some(place) = root_place(body, base) else {
            return false;
        };
        let mut terms = Vec::new();
        for b in [start, end].into_iter().flatten() {
            bound_terms(body, b, &mut terms, 0);
        }
        terms
            .into_iter()
            .any(|t| self.checks.length_against.contains(&(place.clone(), t)))
    }

    /// `&s[p.len()..]` after `s.starts_with(p)`: the prefix is there, so its end is in bounds
    /// (and a char boundary); so is `&s[k..]` for `k` up to the length of an ASCII prefix.
    pub(crate) fn past_checked_prefix(&self, base: &str, index: ExprId) -> bool {
        let body = self.body;
        let ExprKind::Range {
            start: Some(start),
            end: None,
            ..
        } = body.expr(index).kind
        else {
            return false;
        };
        if let ExprKind::Lit(Lit::Int(k)) = body.expr(body.peel(start)).kind {
            return self
                .checks
                .ascii_prefix
                .iter()
                .any(|(p, len)| p == base && usize::try_from(k).is_ok_and(|k| k <= *len));
        }
        let ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } = &body.expr(body.peel(start)).kind
        else {
            return false;
        };
        method == "len"
            && args.is_empty()
            && self
                .pattern_key(*receiver)
                .is_some_and(|p| self.checks.prefix.contains(&(base.to_string(), p)))
    }

    /// `s[i..]`, `s[i + 1..]`, `s[..i]` where `i` is what `s.find(..)` returned. One bound
    /// only (or a start of `0`): `s[1..i]` and `s[i..j]` panic when the start passes the end.
    /// `splits_ok`: `base` is no string, so a bound need not be a char boundary.
    pub(crate) fn slices_at_found_indices(
        &mut self,
        base: ExprId,
        index: ExprId,
        splits_ok: bool,
    ) -> bool {
        let body = self.body;
        let ExprKind::Range {
            start,
            end,
            inclusive,
        } = body.expr(index).kind
        else {
            return false;
        };
        let zero = |b: ExprId| matches!(body.expr(b).kind, ExprKind::Lit(Lit::Int(0)));
        // An inclusive end (`..=i`) is one byte further: it needs one more byte of ASCII
        // pattern.
        let (bound, inclusive) = match (start, end) {
            (Some(s), None) => (s, false),
            (None, Some(e)) => (e, inclusive),
            (Some(s), Some(e)) if zero(s) => (e, inclusive),
            _ => return false,
        };
        let found = self
            .found
            .get_or_insert_with(|| super::found::found_indices(body));
        super::found::is_found_bound(body, found, base, bound, usize::from(inclusive), splits_ok)
    }

    /// Whether the indexed value is a sequence of elements, not a string (a `Vec`, slice or
    /// array), as far as local types tell.
    fn is_element_sequence(&self, base: ExprId) -> bool {
        self.base_ty(base, 0)
            .and_then(|t| super::types::peel(t).last_segment())
            .is_some_and(|s| matches!(s, "Vec" | "[]" | "VecDeque"))
    }

    /// Whether the indexed value is a sequence (a `Vec`, slice, array or string), as far as
    /// local types tell.
    pub(super) fn resolved_base_is_sequence(&self, base: ExprId) -> bool {
        self.base_ty(base, 0)
            .and_then(|t| super::types::peel(t).last_segment())
            .is_some_and(|s| matches!(s, "Vec" | "[]" | "str" | "String" | "VecDeque"))
    }

    /// The type of a local, or of a field path on one (`args.items`), as far as the type
    /// table tells; a few fields deep.
    pub(super) fn base_ty(&self, e: ExprId, depth: u8) -> Option<&crate::model::resolve::Ty> {
        match &self.body.expr(self.body.peel(e)).kind {
            ExprKind::Local(l) => self.resolved.local_tys[*l as usize].as_ref(),
            ExprKind::Field { base, member } if depth < 4 => {
                let owner = super::types::type_name(self.base_ty(*base, depth + 1)?)?;
                self.env.types.field_ty(owner, member)
            }
            _ => None,
        }
    }

    /// `serve((stdin(), stdout()))`: the 0.1-era stdio transport.
    pub(super) fn note_stdio_pair(&mut self, id: ExprId, items: &[ExprId]) {
        let (Some(sdk), [a, b]) = (self.env.sdk, items) else {
            return;
        };
        let path = |e: ExprId| match &self.body.expr(e).kind {
            ExprKind::Call { func, .. } => match &self.body.expr(*func).kind {
                ExprKind::Path(p) => Some(p.clone()),
                _ => None,
            },
            _ => None,
        };
        if let (Some(pa), Some(pb)) = (path(*a), path(*b))
            && sdk.is_stdio_pair(self.imports, &pa, &pb)
        {
            let place = self.place(self.body.expr(id).span.start);
            self.facts.transports.push((id, place));
        }
    }

    pub(super) fn note_length_check(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId) {
        if !matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        ) {
            return;
        }
        let relational = !matches!(op, BinOp::Eq | BinOp::Ne);
        // `i < s.len()` / `s.len() > i`: the cursor is below the length.
        let below = match op {
            BinOp::Lt => Some((rhs, lhs)),
            BinOp::Gt => Some((lhs, rhs)),
            _ => None,
        };
        if let Some((len, cursor)) = below
            && let Some(measured) = self.length_of(len, 0)
            && let (Some(place), Some(cursor)) = (
                root_place(self.body, measured),
                super::text::place_key(self.body, self.body.peel(cursor)),
            )
        {
            self.checks.length_below.insert((place, cursor));
        }
        for (side, other) in [(lhs, rhs), (rhs, lhs)] {
            if let Some(measured) = self.length_of(side, 0)
                && let Some(p) = super::text::place_key(self.body, measured)
            {
                // A view of the same bytes (`s.as_bytes()`) measures `s`.
                let root = root_place(self.body, measured);
                if relational && let Some(root) = root {
                    let mut against: Vec<String> = super::text::place_key(self.body, other)
                        .into_iter()
                        .collect();
                    terms_of(self.body, other, &mut against, 0);
                    for o in against {
                        self.checks.length_against.insert((root.clone(), o));
                    }
                }
                self.checks.length.insert(p);
            }
        }
    }

    /// `bytes[i + j] == b'%'`, `bytes.get(i + j) == Some(&b'%')`: an ASCII byte of the text
    /// `bytes` views, at a cursor and an offset from it.
    pub(super) fn note_byte_test(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId) {
        if op != BinOp::Eq {
            return;
        }
        let body = self.body;
        for (probe, byte) in [(lhs, rhs), (rhs, lhs)] {
            if !is_ascii_byte(body, byte) {
                continue;
            }
            let (base, at) = match &body.expr(body.peel(probe)).kind {
                ExprKind::Index { base, index, .. } => (*base, *index),
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } if method == "get" && args.len() == 1 => (*receiver, args[0]),
                _ => continue,
            };
            let (Some(place), Some((cursor, offset))) =
                (root_place(body, base), cursor_offset(body, at))
            else {
                continue;
            };
            if self.checks.ascii_bytes.len() < MAX_BYTE_TESTS {
                self.checks.ascii_bytes.insert((place, cursor, offset));
            }
        }
    }

    /// The value whose length `e` is: `v.len()`, or a local holding it that is never
    /// assigned again (`let total = v.len();`).
    fn length_of(&self, e: ExprId, depth: u8) -> Option<ExprId> {
        match &self.body.expr(self.body.peel(e)).kind {
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if method == "len" && args.is_empty() => Some(*receiver),
            ExprKind::Local(l) if depth < 4 && !super::found::is_assigned(self.body, *l) => {
                self.length_of(self.body.local(*l).init?, depth + 1)
            }
            _ => None,
        }
    }
}

/// The locals a sum or difference is made of (`i + 7` → `i`): a cursor compared with a
/// length.
pub(super) fn terms_of(body: &Body, e: ExprId, out: &mut Vec<String>, depth: u8) {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs,
            rhs,
        } if depth < 4 => {
            terms_of(body, *lhs, out, depth + 1);
            terms_of(body, *rhs, out, depth + 1);
        }
        ExprKind::Local(l) => out.push(body.local(*l).name.to_string()),
        _ => {}
    }
}

/// The value a view of the same bytes was taken from (`let b = s.as_bytes();` → `s`, `let t =
/// &a.doc;` → `a.doc`): its length and offsets are that value's.
pub(super) fn same_bytes(body: &Body, e: ExprId, depth: u8) -> ExprId {
    let e = body.peel(e);
    match &body.expr(e).kind {
        ExprKind::Local(l) if depth < 4 && !super::found::is_assigned(body, *l) => {
            match body.local(*l).init {
                Some(init) if is_view(body, init) => same_bytes(body, init, depth + 1),
                _ => e,
            }
        }
        ExprKind::MethodCall { receiver, .. } if is_view(body, e) => {
            same_bytes(body, *receiver, depth + 1)
        }
        _ => e,
    }
}

/// Whether `e` is another name for the bytes of a place: a borrow of it, a local, a field, or
/// a view or copy of it (`s.as_bytes()`, `s.as_str()`, `s.clone()`).
fn is_view(body: &Body, e: ExprId) -> bool {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Local(_) | ExprKind::Field { .. } | ExprKind::SelfValue => true,
        ExprKind::MethodCall { method, args, .. } => {
            args.is_empty()
                && matches!(
                    method.as_str(),
                    "as_bytes"
                        | "as_str"
                        | "as_ref"
                        | "clone"
                        | "to_string"
                        | "to_owned"
                        | "to_vec"
                )
        }
        _ => false,
    }
}

/// The place whose bytes `e` is (see [`same_bytes`]).
pub(super) fn root_place(body: &Body, e: ExprId) -> Option<String> {
    super::text::place_key(body, same_bytes(body, e, 0))
}

/// How many byte tests a fn's checks keep: a scanner tests a handful of offsets.
const MAX_BYTE_TESTS: usize = 64;

/// `b'%'` with an ASCII value, or `Some(&b'%')`.
fn is_ascii_byte(body: &Body, e: ExprId) -> bool {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Lit(Lit::Byte(b)) => b.is_ascii(),
        ExprKind::Call { func, args } => {
            matches!(&body.expr(*func).kind, ExprKind::Path(p) if p.last().is_some_and(|l| l == "Some"))
                && matches!(&args[..], [a] if is_ascii_byte(body, *a))
        }
        _ => false,
    }
}

/// `i` → (`i`, 0), `i + 2` → (`i`, 2): a cursor and a small offset from it.
fn cursor_offset(body: &Body, e: ExprId) -> Option<(String, u8)> {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Local(l) => Some((body.local(*l).name.to_string(), 0)),
        ExprKind::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => {
            let ExprKind::Lit(Lit::Int(j)) = body.expr(body.peel(*rhs)).kind else {
                return None;
            };
            let ExprKind::Local(l) = body.expr(body.peel(*lhs)).kind else {
                return None;
            };
            Some((body.local(l).name.to_string(), u8::try_from(j).ok()?))
        }
        _ => None,
    }
}

/// The places a bound is computed from, through locals never assigned again, sums and
/// differences, integer combinators (`min`, `saturating_sub`, ..) and both branches of an `if` (`let i = n - 1;` → `i`, `n`).
fn bound_terms(body: &Body, e: ExprId, out: &mut Vec<String>, depth: u8) {
    if depth > 6 || out.len() > 16 {
        return;
    }
    let e = body.peel(e);
    out.extend(super::text::place_key(body, e));
    match &body.expr(e).kind {
        ExprKind::Local(l) if !super::found::is_assigned(body, *l) => {
            if let Some(init) = body.local(*l).init {
                bound_terms(body, init, out, depth + 1);
            }
        }
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            lhs,
            rhs,
        } => {
            bound_terms(body, *lhs, out, depth + 1);
            bound_terms(body, *rhs, out, depth + 1);
        }
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if super::flow_ops::NUMERIC_COMBINATORS.contains(&method.as_str()) => {
            bound_terms(body, *receiver, out, depth + 1);
            for &a in args.iter() {
                bound_terms(body, a, out, depth + 1);
            }
        }
        ExprKind::If {
            then,
            els: Some(els),
            ..
        } => {
            bound_terms(body, body.value_of(*then), out, depth + 1);
            bound_terms(body, body.value_of(*els), out, depth + 1);
        }
        _ => {}
    }
}
