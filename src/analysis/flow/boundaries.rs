//! Byte offsets that are char boundaries of a string: where a search of it found its
//! pattern, its length, and sums of them (`Fact::Boundary`). Slicing the string at such
//! offsets cannot panic.

use super::*;

/// std's char-boundary APIs: a fn that calls one handles boundaries itself (a bound moved
/// to `floor_char_boundary`, a slice behind `is_char_boundary`, offsets from `char_indices`).
const BOUNDARY_APIS: &[&str] = &[
    "is_char_boundary",
    "floor_char_boundary",
    "ceil_char_boundary",
    "char_indices",
];

impl Flow<'_, '_> {
    /// For a slice of a string (`&s[..60]`, `&s[start..end]`, `&s[i..]`): whether it can
    /// split a character. A byte offset can fall inside a multi-byte character whatever the
    /// string's byte length is known to be, so a length check does not make it safe; an
    /// offset known to be a char boundary does (`0`, the string's length, where a search
    /// found a pattern or an ASCII prefix the string was checked to start with ends), and so
    /// does text known to be ASCII. `None` for an index that is no range, a string not known
    /// to be text, or a slice from an offset the caller does not choose (`chosen`: the
    /// bounds come from the fn's parameters): such offsets mostly come from scanning the
    /// text itself, which this walk does not follow, and are judged as other indexes are.
    pub(crate) fn text_prefix_can_split(
        &mut self,
        base: ExprId,
        index: ExprId,
        chosen: bool,
    ) -> Option<bool> {
        let body = self.body;
        let ExprKind::Range { start, end, .. } = body.expr(index).kind else {
            return None;
        };
        let is_zero = |e: ExprId| matches!(body.expr(e).kind, ExprKind::Lit(Lit::Int(0)));
        let start = start.filter(|&s| !is_zero(s));
        if start.is_none() && end.is_none_or(is_zero) {
            return None;
        }
        let text = self
            .base_ty(base, 0)
            .is_some_and(crate::analysis::std_types::is_text);
        if !text || crate::analysis::text::is_constant(body, base) || self.ascii_formatted(base) {
            return None;
        }
        // Each bound on its own: past an ASCII prefix the string was checked to start with;
        // a crate helper's char boundary (at most the length), or the string's length.
        let start_ok = start.is_none_or(|s| {
            self.made_by_boundary_helper(s)
                || crate::analysis::text::place_key(body, base)
                    .is_some_and(|p| self.past_checked_prefix(&p, index))
        });
        let end_ok = end.is_none_or(|e| self.made_by_boundary_helper(e) || self.is_len_of(e, base));
        if start_ok && end_ok {
            return Some(false);
        }
        // A start the code fixes (`&line[3..]`) is a byte offset whatever the text holds:
        // past what a check made ASCII it can split a character (or pass the end).
        let fixed_start = start
            .is_some_and(|s| matches!(body.expr(body.peel(s)).kind, ExprKind::Lit(Lit::Int(_))));
        if start.is_some() && !chosen && !fixed_start {
            return None;
        }
        let given =
            |b: Option<ExprId>, ok: bool| ok || b.is_none_or(|b| self.given_by_boundary_api(b));
        let on_boundary = (given(start, start_ok) && given(end, end_ok))
            || self.slices_at_boundaries(base, index)
            || self.slices_at_found_indices(base, index, false)
            || self.before_checked_suffix(base, index);
        Some(!on_boundary)
    }

    /// `&s[..s.len() - k]` after `s.ends_with(p)` for an ASCII literal `p` at least `k` bytes
    /// long (`len` through a local holding `s.len()`): the cut falls inside that suffix's
    /// ASCII bytes or at its start, in bounds and on a char boundary.
    pub(crate) fn before_checked_suffix(&self, base: ExprId, index: ExprId) -> bool {
        let body = self.body;
        let ExprKind::Range {
            start,
            end: Some(end),
            inclusive: false,
        } = body.expr(index).kind
        else {
            return false;
        };
        if start.is_some_and(|s| !matches!(body.expr(s).kind, ExprKind::Lit(Lit::Int(0)))) {
            return false;
        }
        let ExprKind::Binary {
            op: BinOp::Sub,
            lhs,
            rhs,
        } = body.expr(body.peel(end)).kind
        else {
            return false;
        };
        let (ExprKind::Lit(Lit::Int(cut)), Some(place)) = (
            &body.expr(rhs).kind,
            crate::analysis::text::place_key(body, base),
        ) else {
            return false;
        };
        let measured = length_of(body, lhs).and_then(|r| crate::analysis::text::place_key(body, r));
        measured.as_ref() == Some(&place)
            && self
                .checks
                .ascii_suffix
                .iter()
                .any(|(p, len)| *p == place && usize::try_from(*cut).is_ok_and(|c| c <= *len))
    }

    /// Whether `e` is (a local holding) text formatted only from ASCII literal text and
    /// numbers in hexadecimal, octal or binary (`format!("{:x}", digest)`): ASCII.
    fn ascii_formatted(&self, e: ExprId) -> bool {
        let body = self.body;
        matches!(&body.expr(initial_value(body, e)).kind,
            ExprKind::Macro(m) if m.format.as_ref().is_some_and(|f| ascii_template(&f.template)))
    }

    /// Whether `e` is (a local holding) the result of a crate fn that calls std's
    /// char-boundary APIs (`align_to_char_boundary(text, n)`).
    fn made_by_boundary_helper(&self, e: ExprId) -> bool {
        let body = self.body;
        let value = initial_value(body, e);
        matches!(
            body.expr(value).kind,
            ExprKind::Call { .. } | ExprKind::MethodCall { .. }
        ) && self.calls_boundary_finder(value)
    }

    /// Whether call `call` surely runs a fn that finds char boundaries with std's APIs.
    fn calls_boundary_finder(&self, call: ExprId) -> bool {
        self.resolved.targets(call).any(|c| {
            !c.may
                && c.targets.iter().any(|&t| {
                    self.env
                        .summaries
                        .get(t as usize)
                        .is_some_and(|s| s.finds_char_boundaries)
                })
        })
    }

    /// Whether this fn finds char boundaries with std's APIs, itself or through the fn
    /// whose call is its value (a body moved into a helper).
    pub(super) fn finds_char_boundaries(&self) -> bool {
        let body = self.body;
        if calls_boundary_api(body) {
            return true;
        }
        let Some(root) = body.root else {
            return false;
        };
        let value = body.peel(body.value_of(root));
        matches!(
            body.expr(value).kind,
            ExprKind::Call { .. } | ExprKind::MethodCall { .. }
        ) && self.calls_boundary_finder(value)
    }

    /// Whether `e` is `base.len()`.
    fn is_len_of(&self, e: ExprId, base: ExprId) -> bool {
        let body = self.body;
        matches!(&body.expr(body.peel(e)).kind,
            ExprKind::MethodCall { receiver, method, args, .. }
                if method == "len" && args.is_empty()
                    && crate::analysis::text::place_key(body, *receiver).is_some()
                    && crate::analysis::text::place_key(body, *receiver)
                        == crate::analysis::text::place_key(body, base))
    }

    /// Whether offset `e` is one std's char-boundary APIs gave or checked: a call of one
    /// (`s.floor_char_boundary(n)`), a local bound from an expression that calls one (`let
    /// cut = s.char_indices().nth(n).map(|(i, _)| i).unwrap_or(s.len())`, `for (i, _) in
    /// s.char_indices()`), or one such an API checks (`while !s.is_char_boundary(end)`); one
    /// past such an offset by a char's length (`i + c.len_utf8()`) too. Other offsets of the
    /// same fn are no char boundaries for it: a fn that cuts one string carefully may cut
    /// another at a fixed byte.
    fn given_by_boundary_api(&self, e: ExprId) -> bool {
        let body = self.body;
        let e = body.peel(e);
        match &body.expr(e).kind {
            ExprKind::Local(l) => self
                .boundary_locals
                .get_or_init(|| boundary_locals(body))
                .get(*l as usize)
                .copied()
                .unwrap_or(false),
            ExprKind::MethodCall { method, .. } if BOUNDARY_APIS.contains(&method.as_str()) => true,
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                self.given_by_boundary_api(*lhs)
                    && matches!(&body.expr(body.peel(*rhs)).kind,
                        ExprKind::MethodCall { method, .. } if method == "len_utf8")
            }
            _ => false,
        }
    }

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
                // The error side of a call's value is no number (a fn returning `usize` has
                // none; the call's provenance is tagged so).
                b.iter().any(|o| o.part != Part::Err)
                    && b.iter()
                        .filter(|o| o.part != Part::Err)
                        .all(|o| match o.fact {
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
        for o in v.iter().filter(|o| o.part != Part::Err) {
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

/// Whether a body calls one of std's char-boundary APIs.
/// Per local, whether it holds an offset std's char-boundary APIs gave or checked: bound
/// (by `let`, assignment or a `for` over it) from an expression that calls one, or passed to
/// one. One pass over the body; spans of one body nest, so "calls one" is a range query.
fn boundary_locals(body: &Body) -> Vec<bool> {
    let mut calls: Vec<u32> = Vec::new();
    let mut out = vec![false; body.locals.len()];
    let mut checked: Vec<crate::model::ir::Sp> = Vec::new();
    for e in &body.exprs {
        if let ExprKind::MethodCall { method, args, .. } = &e.kind
            && BOUNDARY_APIS.contains(&method.as_str())
        {
            calls.push(e.span.start);
            if method == "is_char_boundary" {
                checked.extend(args.iter().map(|&a| body.expr(a).span));
            }
        }
    }
    if calls.is_empty() {
        return out;
    }
    calls.sort_unstable();
    checked.sort_unstable_by_key(|c| c.start);
    // The arguments of one check do not hold another's: the nearest before is the one.
    let is_checked = |sp: crate::model::ir::Sp| {
        let i = checked.partition_point(|c| c.start <= sp.start);
        i > 0 && checked[i - 1].contains(sp)
    };
    let calls_within = |sp: crate::model::ir::Sp| {
        let i = calls.partition_point(|&c| c < sp.start);
        calls.get(i).is_some_and(|&c| c < sp.end)
    };
    let mut bound = Vec::new();
    for e in &body.exprs {
        match &e.kind {
            ExprKind::Block { stmts, .. } => {
                for s in stmts {
                    if let Stmt::Let {
                        pat,
                        init: Some(init),
                        ..
                    } = s
                        && calls_within(body.expr(*init).span)
                    {
                        body.bindings(*pat, &mut bound);
                    }
                }
            }
            ExprKind::For { pat, iter, .. } if calls_within(body.expr(*iter).span) => {
                body.bindings(*pat, &mut bound);
            }
            ExprKind::Assign { place, value, .. } if calls_within(body.expr(*value).span) => {
                if let ExprKind::Local(l) = body.expr(*place).kind {
                    bound.push(l);
                }
            }
            ExprKind::Local(l) if is_checked(e.span) => bound.push(*l),
            _ => {}
        }
    }
    for l in bound {
        if let Some(slot) = out.get_mut(l as usize) {
            *slot = true;
        }
    }
    out
}

fn calls_boundary_api(body: &Body) -> bool {
    body.exprs.iter().any(|e| {
        matches!(&e.kind, ExprKind::MethodCall { method, .. }
            if BOUNDARY_APIS.contains(&method.as_str()))
    })
}

/// Whether a format template writes ASCII only: ASCII literal text, and placeholders that
/// format numbers in hexadecimal, octal or binary (`{:x}`, `{:08X}`, `{:#b}`).
fn ascii_template(template: &str) -> bool {
    if !template.is_ascii() {
        return false;
    }
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if rest.starts_with('{') {
            rest = &rest[1..];
            continue;
        }
        let Some(close) = rest.find('}') else {
            return false;
        };
        let spec = rest[..close].rsplit_once(':').map_or("", |(_, s)| s);
        if !spec.ends_with(['x', 'X', 'o', 'b']) {
            return false;
        }
        rest = &rest[close + 1..];
    }
    true
}

/// What `e` is: through locals to the value each was initialised with (a few steps).
/// The value whose `len()` `e` is, directly or through locals never assigned again.
fn length_of(body: &Body, e: ExprId) -> Option<ExprId> {
    let mut at = body.peel(e);
    for _ in 0..8 {
        match &body.expr(at).kind {
            ExprKind::Local(l) if !crate::analysis::found::is_assigned(body, *l) => {
                at = body.peel(body.local(*l).init?);
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if method == "len" && args.is_empty() => return Some(*receiver),
            _ => return None,
        }
    }
    None
}

fn initial_value(body: &Body, e: ExprId) -> ExprId {
    let mut at = body.peel(e);
    for _ in 0..8 {
        match body.expr(at).kind {
            ExprKind::Local(l) => match body.local(l).init {
                Some(i) => at = body.peel(i),
                None => return at,
            },
            _ => return at,
        }
    }
    at
}

impl Flow<'_, '_> {
    /// For `s.chars().take_while(p)` where `p` passes only ASCII chars (`*c == '#'`,
    /// `c.is_ascii_digit()`): the place of `s`, each char counted being one byte of it.
    pub(crate) fn leading_ascii_chars(&self, e: ExprId) -> Option<u32> {
        let body = self.body;
        let ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } = &body.expr(body.peel(e)).kind
        else {
            return None;
        };
        let [pred] = &args[..] else { return None };
        if method != "take_while" || !passes_only_ascii(body, *pred) {
            return None;
        }
        match &body.expr(body.peel(*receiver)).kind {
            ExprKind::MethodCall {
                receiver: text,
                method,
                args,
                ..
            } if method == "chars" && args.is_empty() && self.is_text(*text) => {
                crate::analysis::text::text_place_hash(body, *text)
            }
            _ => None,
        }
    }
}

/// Whether closure `e` is true only of ASCII chars: a comparison with an ASCII char literal,
/// `is_ascii*` methods, and `&&` / `||` of such tests.
fn passes_only_ascii(body: &Body, e: ExprId) -> bool {
    let ExprKind::Closure(c) = body.expr(e).kind else {
        return false;
    };
    ascii_test(body, body.value_of(body.closure(c).body))
}

fn ascii_test(body: &Body, e: ExprId) -> bool {
    let ascii_char = |x: ExprId| matches!(body.expr(body.peel(x)).kind, ExprKind::Lit(Lit::Char(c)) if c.is_ascii());
    match &body.expr(e).kind {
        ExprKind::Binary {
            op: BinOp::Eq,
            lhs,
            rhs,
        } => ascii_char(*lhs) || ascii_char(*rhs),
        ExprKind::Binary {
            op: BinOp::And,
            lhs,
            rhs,
        } => ascii_test(body, *lhs) || ascii_test(body, *rhs),
        ExprKind::Binary {
            op: BinOp::Or,
            lhs,
            rhs,
        } => ascii_test(body, *lhs) && ascii_test(body, *rhs),
        ExprKind::MethodCall { method, .. } => method.starts_with("is_ascii"),
        _ => false,
    }
}
