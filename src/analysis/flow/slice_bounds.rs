//! Whether a slice's bounds say anything about falling outside the sliced value.
//!
//! An offset a fn computes from the data it slices (a scan's cursor, a field of a parsed
//! region, a helper's return) is in range by that code's own logic; the walk does not
//! follow such logic, and a slice is not a bug because it has a bound. What does say a bound
//! may miss:
//! - a fixed cut (`&s[..500]`, `1..end`, `500.min(n)`), a constant or a literal;
//! - a subtraction, which can wrap (`n - 1`), and an inclusive end (`..=n`, one past a count);
//! - a number about another value: its length (`&a[i..i + b.len()]`), where a search of it
//!   found something, how many bytes were read into it;
//! - for text, a count of chars (`s.chars().position(..)`, `.chars().count()`), a step past
//!   a found pattern further than the pattern's ASCII bytes (`i + 2` after `find('=')`), and a
//!   cut at a length the text was compared with (`if s.len() > max { &s[..max] }`).
//!
//! A bound the caller chooses (the tool's arguments, a constant passed in) is judged where it
//! is chosen, through the summary's index sites.

use super::*;
use crate::analysis::facts::BoundRisk;
use crate::analysis::flow_index::root_place;
use crate::analysis::found::Limit;
use crate::analysis::text::{place_key, text_place_hash};

/// How far a bound is followed through `let` locals never assigned again.
const LOCAL_DEPTH: u8 = 4;

/// The sliced value, as the bounds are compared with it.
struct Sliced {
    place: Option<String>,
    hash: Option<u32>,
    text: bool,
}

impl Flow<'_, '_> {
    /// What says a range index's bounds may fall outside `base` (or, with `text`, inside one
    /// of its characters), if anything does.
    pub(crate) fn bounds_may_miss(
        &mut self,
        base: ExprId,
        index: ExprId,
        text: bool,
    ) -> Option<BoundRisk> {
        let body = self.body;
        let ExprKind::Range {
            start,
            end,
            inclusive,
        } = body.expr(index).kind
        else {
            return None;
        };
        let text = text
            || self
                .base_ty(base, 0)
                .is_some_and(crate::analysis::std_types::is_text);
        let sliced = Sliced {
            place: root_place(body, base),
            hash: text_place_hash(body, base),
            text,
        };
        let literal_end =
            end.is_some_and(|e| matches!(body.expr(body.peel(e)).kind, ExprKind::Lit(_)));
        if inclusive && !literal_end {
            return Some(BoundRisk::InclusiveEnd);
        }
        if let Some(risk) = self.bound_values_may_miss(index, [start, end], &sliced) {
            return Some(risk);
        }
        // A fixed count, not a cursor a scan moves (`while j < s.len() { j += 1 }`).
        let fixed = |e: &ExprId| match body.expr(body.peel(*e)).kind {
            ExprKind::Local(l) => !super::super::found::is_assigned(body, l),
            _ => true,
        };
        let cut_at_length = text
            && end
                .filter(fixed)
                .and_then(|e| place_key(body, body.peel(e)))
                .zip(sliced.place.clone())
                .is_some_and(|(e, b)| self.checks.length_against.contains(&(b, e)));
        if cut_at_length {
            return Some(BoundRisk::CutAtLength);
        }
        if self.measured_against_other(start, end, &sliced) {
            return Some(BoundRisk::MeasuredAgainstOther);
        }
        [start, end]
            .into_iter()
            .flatten()
            .find_map(|b| self.bound_may_miss(b, &sliced, 0))
    }

    /// What the walk knows of the bounds' values: a named constant (`&s[..MAX]`), or a char
    /// boundary of another string (a helper's search of it). A sum or a counter holding
    /// integers is no constant.
    fn bound_values_may_miss(
        &self,
        index: ExprId,
        exprs: [Option<ExprId>; 2],
        sliced: &Sliced,
    ) -> Option<BoundRisk> {
        let body = self.body;
        let constant = |e: ExprId, v: &Val| {
            matches!(body.expr(body.peel(e)).kind, ExprKind::Path(_))
                && !v.is_empty()
                && v.iter().all(|o| matches!(o.fact, Fact::Int(n) if n != 0))
        };
        let bounds = self.range_bounds.get(&index)?;
        exprs.into_iter().flatten().zip(bounds).find_map(|(e, v)| {
            if constant(e, v) {
                return Some(BoundRisk::FixedCut);
            }
            v.iter()
                .any(|o| match o.fact {
                    Fact::Boundary { of, .. } => sliced.hash.is_some_and(|h| h != of),
                    Fact::ForeignOffset => true,
                    _ => false,
                })
                .then_some(BoundRisk::OffsetOfOther)
        })
    }

    fn bound_may_miss(&mut self, b: ExprId, sliced: &Sliced, depth: u8) -> Option<BoundRisk> {
        let body = self.body;
        let b = body.peel(b);
        match &body.expr(b).kind {
            ExprKind::Lit(Lit::Int(n)) => (*n != 0).then_some(BoundRisk::FixedCut),
            ExprKind::Binary { op: BinOp::Sub, .. } => Some(BoundRisk::MayWrap),
            ExprKind::Binary { op, lhs, rhs } => {
                let step = |e: ExprId| match body.expr(body.peel(e)).kind {
                    ExprKind::Lit(Lit::Int(k)) => Some(k),
                    _ => None,
                };
                if *op == BinOp::Add
                    && let Some((k, offset)) = step(*rhs)
                        .map(|k| (k, *lhs))
                        .or_else(|| step(*lhs).map(|k| (k, *rhs)))
                {
                    if self.steps_past_pattern(offset, k) {
                        return Some(BoundRisk::StepPastPattern);
                    }
                    if sliced.text && self.steps_past_tested_bytes(offset, k, sliced) {
                        return Some(BoundRisk::StepPastTestedBytes);
                    }
                }
                [*lhs, *rhs]
                    .into_iter()
                    .filter(|&side| step(side).is_none())
                    .find_map(|side| self.bound_may_miss(side, sliced, depth))
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let (receiver, args) = (*receiver, args.clone());
                match method.as_str() {
                    "len" => (root_place(body, receiver) != sliced.place)
                        .then_some(BoundRisk::OtherLength),
                    // The smaller of a length and some count: a cut at that count, and for
                    // text any count is one.
                    "min" | "max" | "clamp" if sliced.text => Some(BoundRisk::CutAtLength),
                    "min" | "max" | "clamp" => std::iter::once(receiver)
                        .chain(args)
                        .find_map(|a| self.bound_may_miss(a, sliced, depth)),
                    _ => (sliced.text && counts_chars(body, b)).then_some(BoundRisk::CharCount),
                }
            }
            ExprKind::Local(l) if depth < LOCAL_DEPTH => {
                let l = *l;
                if self.found_in_other(l, sliced) {
                    return Some(BoundRisk::OffsetOfOther);
                }
                let init = body
                    .local(l)
                    .init
                    .filter(|_| !super::super::found::is_assigned(body, l))?;
                if sliced.text && counts_chars(body, init) {
                    return Some(BoundRisk::CharCount);
                }
                self.bound_may_miss(init, sliced, depth + 1)
            }
            _ => None,
        }
    }

    /// Whether a bound's cursor was compared with the length of another value and never
    /// with the sliced one's (`while i + 7 <= a.len() { &b[i..i + 7] }`): an offset of that
    /// other value.
    fn measured_against_other(
        &self,
        start: Option<ExprId>,
        end: Option<ExprId>,
        sliced: &Sliced,
    ) -> bool {
        let Some(base) = &sliced.place else {
            return false;
        };
        let mut terms = Vec::new();
        for b in [start, end].into_iter().flatten() {
            crate::analysis::flow_index::terms_of(self.body, b, &mut terms, 0);
        }
        let against = &self.checks.length_against;
        terms.iter().any(|t| {
            !against.contains(&(base.clone(), t.clone()))
                && against
                    .iter()
                    .any(|(measured, term)| term == t && measured != base)
        })
    }

    /// Whether local `l` holds a search's offset, a read's count or an element's index of a
    /// value other than the sliced one.
    fn found_in_other(&mut self, l: LocalId, sliced: &Sliced) -> bool {
        let body = self.body;
        let found = self
            .found
            .get_or_insert_with(|| super::super::found::found_indices(body));
        match found.get(&l).map(|f| f.searched) {
            Some(Limit::LenOf(other)) => {
                let other = root_place(body, other);
                other.is_some() && sliced.place.is_some() && other != sliced.place
            }
            _ => false,
        }
    }

    /// `i + k` on text where a byte scan tested fewer than `k` ASCII bytes from `i` on
    /// (`bytes[i] == b'%'` then `&s[i + 1..i + 3]`): the bytes past those may be part of a
    /// multi-byte character. A cursor no byte test looked at is judged as before.
    fn steps_past_tested_bytes(&self, offset: ExprId, k: i64, sliced: &Sliced) -> bool {
        let body = self.body;
        let (&ExprKind::Local(l), Some(place)) =
            (&body.expr(body.peel(offset)).kind, &sliced.place)
        else {
            return false;
        };
        let cursor = body.local(l).name.to_string();
        let tested = |j: u8| {
            self.checks
                .ascii_bytes
                .contains(&(place.clone(), cursor.clone(), j))
        };
        let run = (0..=u8::MAX).take_while(|&j| tested(j)).count();
        run > 0 && usize::try_from(k).is_ok_and(|k| k > run)
    }

    /// `i + k` where `i` is where a string search found a pattern with fewer than `k` known
    /// ASCII bytes: the offset may land inside the character after it, or past the end.
    fn steps_past_pattern(&mut self, offset: ExprId, k: i64) -> bool {
        let body = self.body;
        let ExprKind::Local(l) = body.expr(body.peel(offset)).kind else {
            return false;
        };
        let found = self
            .found
            .get_or_insert_with(|| super::super::found::found_indices(body));
        found.get(&l).is_some_and(|f| {
            f.pattern.is_some() && usize::try_from(k).is_ok_and(|k| k > f.pattern_len)
        })
    }
}

/// Whether `e` counts chars, not bytes: `s.chars().count()`, `s.chars().position(..)`, with
/// the `None` of a position made an error or unwrapped (`.ok_or(..)?`).
fn counts_chars(body: &Body, e: ExprId) -> bool {
    let mut e = body.peel(e);
    loop {
        match &body.expr(e).kind {
            ExprKind::Try { expr, .. } => e = body.peel(*expr),
            ExprKind::MethodCall {
                receiver, method, ..
            } => match method.as_str() {
                "unwrap" | "expect" | "ok_or" | "ok_or_else" | "unwrap_or"
                | "unwrap_or_default" => e = body.peel(*receiver),
                "count" | "position" | "rposition" => return iterates_chars(body, *receiver),
                _ => return false,
            },
            _ => return false,
        }
    }
}

/// Whether an iterator chain starts at `s.chars()`.
fn iterates_chars(body: &Body, mut e: ExprId) -> bool {
    for _ in 0..16 {
        let ExprKind::MethodCall {
            receiver, method, ..
        } = &body.expr(body.peel(e)).kind
        else {
            return false;
        };
        if matches!(method.as_str(), "chars" | "char_indices") {
            return method == "chars";
        }
        e = *receiver;
    }
    false
}
