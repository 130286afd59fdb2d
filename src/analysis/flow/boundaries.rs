//! Byte offsets that are char boundaries of a string: where a search of it found its
//! pattern, its length, and sums of them (`Fact::Boundary`). Slicing the string at such
//! offsets cannot panic.

use super::*;

impl Flow<'_, '_> {
    /// `s[start..end]` whose bounds are all offsets a search or a length gave (or `0`),
    /// through locals, sums, loop cursors and helpers' returns: char boundaries, in bounds.
    pub(crate) fn slices_at_boundaries(&self, base: ExprId, index: ExprId) -> bool {
        let (Some(bounds), Some(text)) = (
            self.range_bounds.get(&index),
            crate::analysis::text::text_place_hash(self.body, base),
        ) else {
            return false;
        };
        !bounds.is_empty()
            && bounds.iter().all(|b| {
                !b.is_empty()
                    && b.iter().all(|o| match o.fact {
                        // A place names a string in the fn that found it only.
                        Fact::Boundary { of, .. } => of == text && o.site.func == self.func,
                        Fact::Int(0) => true,
                        _ => false,
                    })
            })
    }
}

/// `a + b` as a char boundary of a string: an offset found in it plus an offset found after
/// it (a cursor and what a search from the cursor found: what follows is what follows `b`),
/// plus a length (the found pattern's), or plus at most as many bytes as are known to be
/// ASCII after it. `None` when the sum is not known to be one.
pub(crate) fn boundary_sum(a: &Val, b: &Val, func: FnId) -> Option<Fact> {
    // (the string, the least ASCII run after, whether every origin is a length); `0` is an
    // offset of any string.
    let offsets = |v: &Val| {
        let mut out: Option<(Option<u32>, u8, bool)> = None;
        for o in v.iter() {
            let (of, after, length) = match o.fact {
                // A place names a string in the fn that found it only.
                Fact::Boundary {
                    of,
                    ascii_after,
                    length,
                } if o.site.func == func => (Some(of), ascii_after, length),
                Fact::Int(0) => (None, 0, false),
                _ => return None,
            };
            out = Some(match out {
                None => (of, after, length),
                Some((o2, a2, l2)) => {
                    let of = match (of, o2) {
                        (Some(x), Some(y)) if x != y => return None,
                        (x, y) => x.or(y),
                    };
                    (of, after.min(a2), length && l2)
                }
            });
        }
        out
    };
    let small = |v: &Val| match v.0.as_slice() {
        [o] => match o.fact {
            Fact::Int(k) => u8::try_from(k).ok(),
            _ => None,
        },
        _ => None,
    };
    let found = |of: u32, ascii_after: u8| Fact::Boundary {
        of,
        ascii_after,
        length: false,
    };
    match (offsets(a), offsets(b)) {
        // A cursor plus what was found after it, both in one string.
        (Some((x, _, false)), Some((y, after, false))) => match (x, y) {
            (Some(x), Some(y)) if x != y => None,
            (x, y) => x.or(y).map(|of| found(of, after)),
        },
        // A found offset plus the length of what was found.
        (Some((Some(of), _, false)), Some((_, _, true))) => Some(found(of, 0)),
        (Some((Some(of), n, false)), None) => {
            small(b).filter(|&k| k <= n).map(|k| found(of, n - k))
        }
        (None, Some((Some(of), n, false))) => {
            small(a).filter(|&k| k <= n).map(|k| found(of, n - k))
        }
        _ => None,
    }
}
