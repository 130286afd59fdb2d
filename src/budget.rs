//! Budgets that bound the work on one file: the stack left to recursive passes over syntax,
//! and the places where a pass stopped because a budget ran out. Those places become
//! `mcp_lint::analysis_incomplete` warnings, so nothing is left out silently.

use std::cell::RefCell;

use crate::diagnostic::Span;

/// Below this much stack left, recursive passes stop descending: more than one guarded step
/// of the walk and a lint's helpers takes in a debug build, and half of the 2 MiB a test
/// thread has.
const RED_ZONE: usize = 1 << 20;

/// At most this many places are kept per file (the first ones).
const MAX_PLACES: usize = 8;

thread_local! {
    static PLACES: RefCell<Vec<(Span, String)>> = const { RefCell::new(Vec::new()) };
}

/// Whether the stack left on this thread is too small to go one level deeper.
pub fn stack_low() -> bool {
    stacker::remaining_stack().is_some_and(|left| left < RED_ZONE)
}

/// Records that a pass stopped at `place` for `reason` (kept until [`take`]).
pub fn exceeded(place: Span, reason: impl Into<String>) {
    PLACES.with(|p| {
        let mut places = p.borrow_mut();
        if places.len() < MAX_PLACES
            && !places
                .iter()
                .any(|(s, _)| s.file == place.file && s.start == place.start)
        {
            places.push((place, reason.into()));
        }
    });
}

/// Checks the stack before a recursive step: `true` (and the place recorded) when it is too
/// low to go on.
pub fn too_deep(place: Span) -> bool {
    let low = stack_low();
    if low {
        exceeded(
            place,
            "it nests deeper than the stack left for analysis, so what lies below was not analysed",
        );
    }
    low
}

/// A helper that knows no place: the caller's file start stands for it ([`take`] callers
/// map `usize::MAX` files to their own file).
pub fn helper_too_deep() -> bool {
    let low = stack_low();
    if low {
        exceeded(
            Span {
                file: usize::MAX,
                start: 0,
                end: 0,
            },
            "an expression nests deeper than the stack left for a lint's checks, which stopped there",
        );
    }
    low
}

/// The places recorded on this thread since the last call.
pub fn take() -> Vec<(Span, String)> {
    PLACES.with(|p| std::mem::take(&mut *p.borrow_mut()))
}
