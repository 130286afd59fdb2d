//! Indices a string search returned: `s.find(':')` gives a byte offset that is a character
//! boundary of `s` and at most its length, so slicing `s` at it cannot panic, nor one past it
//! when the pattern is ASCII (`&s[i + 1..]` after `s.find('=')`).
//!
//! So does a count `Read::read` returned: `n = r.read(&mut buf)?` is at most `buf.len()`, so
//! `&buf[..n]` cannot panic (`..=n` can); and an element's index `v.iter().position(..)`
//! returned, below `v.len()`, so `&v[i + 1..]` cannot either.
//!
//! So does a bound made from a length or a constant: `a.min(v.len())`, `v.len()
//! .saturating_sub(k)`, `cmp::min(a, CHUNK)` are at most `v.len()` (or `CHUNK`), so slicing
//! `v` (or a buffer made `vec![0; CHUNK]`) up to or from them cannot panic either. They are
//! byte counts, not char boundaries: a string sliced at one can still split a character.
//!
//! One pass over a fn body maps each local bound from a search to the searched expression and
//! the pattern's length in bytes when that is ASCII (0 otherwise): `if let Some(i) =
//! s.find(..)`, `let Some(i) = .. else`, `match s.find(..) { Some(i) => .. }`,
//! `let i = s.find(..)?` (or `.unwrap()`), and the parameter of a closure given to `.map(..)`
//! and friends on the search.

use foldhash::HashMap;

use crate::model::ir::{BinOp, Body, ExprId, ExprKind, Lit, LocalId, PatId, PatKind, Stmt};

/// What a local holds when it was bound from a search: the searched value and the ASCII
/// pattern's length (0 when not known to be ASCII).
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub searched: Limit,
    pub pattern_len: usize,
    /// The pattern searched for, when a search gave the offset: the offset plus its length
    /// is the end of the match, a char boundary whatever the pattern is.
    pub pattern: Option<ExprId>,
    /// Slicing the searched value at it cannot split a character (a search's index, a
    /// count of bytes read, an element's index); a length-derived bound can.
    pub boundary: bool,
}

/// What an offset is known to be at most.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// The length of this value (a local or a field path on one).
    LenOf(ExprId),
    /// This constant: an integer literal or a path to a `const`.
    Const(ExprId),
}

impl Found {
    fn at_most_len(searched: ExprId, pattern_len: usize) -> Found {
        Found {
            searched: Limit::LenOf(searched),
            pattern_len,
            pattern: None,
            boundary: true,
        }
    }
}

/// The locals of `body` bound from a string search.
pub fn found_indices(body: &Body) -> HashMap<LocalId, Found> {
    let mut out = HashMap::default();
    for expr in &body.exprs {
        match &expr.kind {
            ExprKind::Let { pat, expr } => bind_some(body, *pat, *expr, &mut out),
            ExprKind::Match { scrutinee, arms } => {
                for arm in arms {
                    bind_some(body, arm.pat, *scrutinee, &mut out);
                }
            }
            ExprKind::Block { stmts, .. } => {
                for stmt in stmts {
                    if let Stmt::Let {
                        pat,
                        init: Some(init),
                        ..
                    } = stmt
                    {
                        bind_some(body, *pat, *init, &mut out);
                        bind_plain(body, *pat, *init, &mut out);
                    }
                }
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if matches!(
                method.as_str(),
                "map" | "and_then" | "map_or" | "map_or_else" | "is_some_and" | "inspect"
            ) =>
            {
                let Some(found) = search(body, *receiver) else {
                    continue;
                };
                let closure = args.iter().rev().find_map(|&a| match body.expr(a).kind {
                    ExprKind::Closure(c) => Some(c),
                    _ => None,
                });
                let param = closure.and_then(|c| body.closure(c).params.first().copied());
                if let Some(p) = param
                    && let PatKind::Bind { local, sub: None } = body.pat(p).kind
                {
                    out.insert(local, found);
                }
            }
            _ => {}
        }
    }
    out
}

/// `Some(i)` matched against a search, `Ok(n)` against a read.
fn bind_some(body: &Body, pat: PatId, value: ExprId, out: &mut HashMap<LocalId, Found>) {
    let PatKind::TupleStruct { path, elems } = &body.pat(body.untyped(pat)).kind else {
        return;
    };
    if path.last().is_none_or(|l| l != "Some" && l != "Ok") {
        return;
    }
    if let ([inner], Some(found)) = (elems.as_slice(), search(body, value))
        && let PatKind::Bind { local, sub: None } = body.pat(*inner).kind
    {
        out.insert(local, found);
    }
}

/// `let i = s.find(..)?` or `.unwrap()` / `.expect(..)`; `let n = r.read(&mut buf)?`, its
/// error mapped or not (`.map_err(..)?`, `.context(..)?`), or a search's `None` made an error
/// (`.ok_or(..)?`: the value is the `Some`'s).
fn bind_plain(body: &Body, pat: PatId, value: ExprId, out: &mut HashMap<LocalId, Found>) {
    let PatKind::Bind { local, sub: None } = body.pat(body.untyped(pat)).kind else {
        return;
    };
    let mut inner = match &body.expr(value).kind {
        ExprKind::Try { expr, .. } => *expr,
        ExprKind::MethodCall {
            receiver, method, ..
        } if matches!(method.as_str(), "unwrap" | "expect") => *receiver,
        // `let i = match s.find(..) { Some(i) => i, _ => return .. };`: `let else` spelt out.
        ExprKind::Match { scrutinee, arms }
            if arms
                .iter()
                .all(|a| unwraps_itself(body, a) || diverges(body, a.body))
                && arms.iter().any(|a| unwraps_itself(body, a)) =>
        {
            *scrutinee
        }
        _ => return,
    };
    while let ExprKind::MethodCall {
        receiver, method, ..
    } = &body.expr(body.peel(inner)).kind
        && matches!(
            method.as_str(),
            "map_err" | "context" | "with_context" | "wrap_err" | "ok_or" | "ok_or_else"
        )
    {
        inner = *receiver;
    }
    if let Some(found) = search(body, inner) {
        out.insert(local, found);
    }
}

/// `Some(i) => i` (or `Ok(n) => n`): an arm that hands out the found value itself; with every
/// other arm leaving (`return`, `continue`), the `let` holds the search's value.
fn unwraps_itself(body: &Body, arm: &crate::model::ir::Arm) -> bool {
    let PatKind::TupleStruct { path, elems } = &body.pat(arm.pat).kind else {
        return false;
    };
    let ([inner], Some(last)) = (elems.as_slice(), path.last()) else {
        return false;
    };
    (last == "Some" || last == "Ok")
        && arm.guard.is_none()
        && matches!(body.pat(*inner).kind, PatKind::Bind { local, sub: None }
            if matches!(body.expr(body.peel(arm.body)).kind, ExprKind::Local(l) if l == local))
}

/// `s.find(p)` / `s.rfind(p)`: the searched value and the pattern's ASCII length;
/// `r.read(&mut buf)`: the buffer, a count being at most its length.
fn search(body: &Body, e: ExprId) -> Option<Found> {
    search_in(body, e, 0)
}

/// [`search`], through locals never assigned again (`let comma = s.find(',');` then
/// `comma.unwrap_or(..)` or `if let Some(c) = comma`): such a local is its initialiser.
fn search_in(body: &Body, e: ExprId, depth: u32) -> Option<Found> {
    if let ExprKind::Local(l) = body.expr(body.peel(e)).kind {
        let init = body
            .local(l)
            .init
            .filter(|_| depth < 8 && !is_assigned(body, l))?;
        return search_in(body, init, depth + 1);
    }
    let ExprKind::MethodCall {
        receiver,
        method,
        args,
        ..
    } = &body.expr(body.peel(e)).kind
    else {
        return None;
    };
    if method == "read"
        && let [arg] = &args[..]
        && let ExprKind::Ref(buffer) = body.expr(*arg).kind
    {
        // A read into part of the buffer (`&mut buf[..k]`, `&mut buf[a..]`) counts at most
        // that part's bytes, fewer than the buffer's.
        let buffer = match &body.expr(buffer).kind {
            ExprKind::Index { base, index, .. }
                if matches!(body.expr(*index).kind, ExprKind::Range { .. }) =>
            {
                *base
            }
            _ => buffer,
        };
        return Some(Found::at_most_len(buffer, 0));
    }
    // `v.iter().position(..)`: an index of an element, below `v.len()` (so one past it is
    // at most the length). Not over `chars()` or `bytes()`: a char count is no byte offset, and
    // a byte may sit inside a character.
    if matches!(method.as_str(), "position" | "rposition")
        && args.len() == 1
        && let ExprKind::MethodCall {
            receiver: sequence,
            method: iter,
            ..
        } = &body.expr(body.peel(*receiver)).kind
        && matches!(iter.as_str(), "iter" | "iter_mut" | "into_iter")
    {
        return Some(Found::at_most_len(*sequence, 1));
    }
    if !matches!(method.as_str(), "find" | "rfind") || args.len() != 1 {
        return None;
    }
    let pattern_len = match &body.expr(args[0]).kind {
        ExprKind::Lit(Lit::Char(c)) if c.is_ascii() => 1,
        ExprKind::Lit(Lit::Str(s)) if s.is_ascii() => s.len(),
        _ => 0,
    };
    Some(Found {
        pattern: Some(args[0]),
        ..Found::at_most_len(*receiver, pattern_len)
    })
}

/// Whether slicing `base` at `bound` (plus `extra` bytes) cannot panic: the bound is an
/// index a search of `base` returned, or that index plus at most the ASCII pattern's length;
/// or, when `splits_ok` (`base` is no string), a bound made from `base`'s length or from the
/// constant length of the buffer `base` is.
pub fn is_found_bound(
    body: &Body,
    found: &HashMap<LocalId, Found>,
    base: ExprId,
    bound: ExprId,
    extra: usize,
    splits_ok: bool,
) -> bool {
    // `i + p.len()`: the end of the match `s.find(p)` gave `i` for.
    let mut past_match = None;
    let (at, offset) = match &body.expr(bound).kind {
        ExprKind::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => match &body.expr(*rhs).kind {
            ExprKind::Lit(Lit::Int(k)) => (*lhs, *k),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if method == "len" && args.is_empty() => {
                past_match = Some(*receiver);
                (*lhs, 0)
            }
            _ => return false,
        },
        _ => (bound, 0),
    };
    let Ok(offset) = usize::try_from(offset) else {
        return false;
    };
    let mut candidates = Vec::new();
    if let ExprKind::Local(l) = body.expr(at).kind
        && let Some(f) = found.get(&l)
    {
        candidates.push(*f);
    }
    limits(body, at, 0, &mut candidates);
    candidates.iter().any(|f| {
        let whole_match = match past_match {
            None => true,
            Some(p) => extra == 0 && f.pattern.is_some_and(|q| same_pattern(body, p, q)),
        };
        let within =
            whole_match && (offset + extra == 0 || offset.saturating_add(extra) <= f.pattern_len);
        // A buffer made with a fixed length (`[0u8; N]`, `vec![0; N]`) is no string.
        within
            && match f.searched {
                Limit::LenOf(s) => (f.boundary || splits_ok) && same_value(body, s, base),
                Limit::Const(c) => fixed_len(body, base).is_some_and(|n| const_at_most(body, c, n)),
            }
    })
}

/// What `e` is known to be at most, from how it is computed: a length (`v.len()`, a char
/// boundary of `v`), the smaller of two values (`a.min(b)`, `cmp::min(a, b)`), a saturating
/// difference (`n.saturating_sub(k)` is at most `n`), a clamp's upper end, a constant; through
/// locals that are never assigned again. The bound is for hostile nesting.
fn limits(body: &Body, e: ExprId, depth: u32, out: &mut Vec<Found>) {
    if depth > 8 {
        return;
    }
    let e = body.peel(e);
    let below = |out: &mut Vec<Found>, of: ExprId| {
        let from = out.len();
        limits(body, of, depth + 1, out);
        // Less than a length is no char boundary of what it measures.
        for f in &mut out[from..] {
            f.boundary = false;
        }
    };
    let constant = || Found {
        searched: Limit::Const(e),
        pattern_len: 0,
        pattern: None,
        // `0` is a boundary of every string.
        boundary: matches!(body.expr(e).kind, ExprKind::Lit(Lit::Int(0))),
    };
    match &body.expr(e).kind {
        ExprKind::Local(l) if !is_assigned(body, *l) => {
            if let Some(init) = body.local(*l).init {
                limits(body, init, depth + 1, out);
            }
        }
        ExprKind::Lit(Lit::Int(_)) => out.push(constant()),
        ExprKind::Path(p) if p.last().is_some_and(|s| is_const_name(s)) => out.push(constant()),
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } => match (method.as_str(), &args[..]) {
            ("len", []) => out.push(Found::at_most_len(*receiver, 0)),
            ("min", [other]) => {
                below(out, *receiver);
                below(out, *other);
            }
            ("saturating_sub", [_]) => below(out, *receiver),
            ("clamp", [_, high]) => below(out, *high),
            // The index found, or the fallback: what both are at most.
            ("unwrap_or", [fallback]) => {
                let found: Vec<Found> = search(body, *receiver).into_iter().collect();
                let mut other = Vec::new();
                limits(body, *fallback, depth + 1, &mut other);
                out.extend(common(body, &found, &other));
            }
            _ => {}
        },
        ExprKind::Call { func, args } if args.len() == 2 && is_cmp_min(body, *func) => {
            below(out, args[0]);
            below(out, args[1]);
        }
        // One of the branches' values: what all that give one are at most.
        ExprKind::If {
            then,
            els: Some(els),
            ..
        } => out.extend(branches_limit(body, &[*then, *els], depth)),
        ExprKind::Match { arms, .. } => {
            let values: Vec<ExprId> = arms.iter().map(|a| a.body).collect();
            out.extend(branches_limit(body, &values, depth));
        }
        _ => {}
    }
}

/// The limits every branch that gives a value shares (a branch that panics or returns gives
/// none); none when no branch gives one.
fn branches_limit(body: &Body, branches: &[ExprId], depth: u32) -> Vec<Found> {
    let mut shared: Option<Vec<Found>> = None;
    for &b in branches {
        let value = body.value_of(b);
        if diverges(body, value) {
            continue;
        }
        let mut here = Vec::new();
        limits(body, value, depth + 1, &mut here);
        shared = Some(match shared {
            None => here,
            Some(prev) => common(body, &prev, &here),
        });
    }
    shared.unwrap_or_default()
}

/// The limits both lists have: the same length, or the larger of two constants.
fn common(body: &Body, a: &[Found], b: &[Found]) -> Vec<Found> {
    let mut out = Vec::new();
    for fa in a {
        for fb in b {
            let zero = |l: Limit| matches!(l, Limit::Const(c) if matches!(body.expr(c).kind, ExprKind::Lit(Lit::Int(0))));
            let searched = match (fa.searched, fb.searched) {
                (Limit::LenOf(x), Limit::LenOf(y)) if same_value(body, x, y) => Limit::LenOf(x),
                // Nothing is below `0`: it is at most any length, and a boundary of any string.
                (other, z) | (z, other) if zero(z) => other,
                (Limit::Const(x), Limit::Const(y)) if const_at_most(body, x, y) => Limit::Const(y),
                (Limit::Const(x), Limit::Const(y)) if const_at_most(body, y, x) => Limit::Const(x),
                _ => continue,
            };
            out.push(Found {
                searched,
                pattern_len: fa.pattern_len.min(fb.pattern_len),
                pattern: None,
                boundary: fa.boundary && fb.boundary,
            });
        }
    }
    out
}

/// Whether evaluating `e` never gives a value: `return`, `break`, `continue`, or a macro
/// that panics.
fn diverges(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Return(_) | ExprKind::Break(_) | ExprKind::Continue => true,
        // `{ ..; return Err(..); }`
        ExprKind::Block {
            stmts, tail: None, ..
        } => matches!(stmts.last(), Some(Stmt::Expr { expr, .. }) if diverges(body, *expr)),
        ExprKind::Macro(m) => matches!(
            m.name.as_str(),
            "panic" | "unreachable" | "todo" | "unimplemented"
        ),
        _ => false,
    }
}

/// `std::cmp::min`, `cmp::min` or an imported `min`.
fn is_cmp_min(body: &Body, func: ExprId) -> bool {
    matches!(&body.expr(func).kind, ExprKind::Path(p)
        if p.last().is_some_and(|l| l == "min")
            && (p.len() == 1 || p[p.len() - 2] == "cmp"))
}

/// A `const` by Rust's naming convention (`CHUNK_SIZE`).
fn is_const_name(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_uppercase()) && !s.chars().any(|c| c.is_lowercase())
}

/// Whether local `l` is assigned after its `let` (`l = ..`, `l += ..`).
pub(crate) fn is_assigned(body: &Body, l: LocalId) -> bool {
    body.exprs.iter().any(|x| {
        matches!(x.kind, ExprKind::Assign { place, .. }
            if matches!(body.expr(body.peel(place)).kind, ExprKind::Local(p) if p == l))
    })
}

/// The length expression of the buffer `base` is, when it was made with a fixed length
/// (`[0u8; N]`, `vec![0; N]`) and nothing shortens it.
fn fixed_len(body: &Body, base: ExprId) -> Option<ExprId> {
    let ExprKind::Local(l) = body.expr(body.peel(base)).kind else {
        return None;
    };
    if is_assigned(body, l) || shortened(body, l) {
        return None;
    }
    match &body.expr(body.peel(body.local(l).init?)).kind {
        ExprKind::Repeat { len, .. } => Some(*len),
        ExprKind::Macro(m) if m.repeat && m.name == "vec" => m.args.get(1).copied(),
        _ => None,
    }
}

/// Whether a method that can make a `Vec` shorter is called on local `l`.
fn shortened(body: &Body, l: LocalId) -> bool {
    body.exprs.iter().any(|x| {
        matches!(&x.kind, ExprKind::MethodCall { receiver, method, .. }
            if crate::analysis::std_types::SHORTENING_METHODS.contains(&method.as_str())
                && matches!(body.expr(body.peel(*receiver)).kind, ExprKind::Local(p) if p == l))
    })
}

/// Whether constant `c` is at most constant `len`: the same `const`, or integer literals.
fn const_at_most(body: &Body, c: ExprId, len: ExprId) -> bool {
    match (&body.expr(c).kind, &body.expr(body.peel(len)).kind) {
        (ExprKind::Lit(Lit::Int(a)), ExprKind::Lit(Lit::Int(b))) => a <= b,
        (ExprKind::Path(a), ExprKind::Path(b)) => a == b,
        _ => false,
    }
}

/// The same local, or the same field path on one (`self.text`).
fn same_value(body: &Body, a: ExprId, b: ExprId) -> bool {
    let (a, b) = (body.peel(a), body.peel(b));
    match (&body.expr(a).kind, &body.expr(b).kind) {
        (ExprKind::Local(x), ExprKind::Local(y)) => x == y,
        (ExprKind::SelfValue, ExprKind::SelfValue) => true,
        (ExprKind::Field { base: x, member: m }, ExprKind::Field { base: y, member: n }) => {
            m == n && same_value(body, *x, *y)
        }
        _ => false,
    }
}

/// The same pattern: equal string or char literals, the same path (a `const`), or the same
/// local or field path.
fn same_pattern(body: &Body, a: ExprId, b: ExprId) -> bool {
    let (a, b) = (body.peel(a), body.peel(b));
    match (&body.expr(a).kind, &body.expr(b).kind) {
        (ExprKind::Lit(x), ExprKind::Lit(y)) => x == y,
        (ExprKind::Path(x), ExprKind::Path(y)) => x == y,
        _ => same_value(body, a, b),
    }
}
