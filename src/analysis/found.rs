//! Indices a string search returned: `s.find(':')` gives a byte offset that is a character
//! boundary of `s` and at most its length, so slicing `s` at it cannot panic, nor one past it
//! when the pattern is ASCII (`&s[i + 1..]` after `s.find('=')`).
//!
//! So does a count `Read::read` returned: `n = r.read(&mut buf)?` is at most `buf.len()`, so
//! `&buf[..n]` cannot panic (`..=n` can); and an element's index `v.iter().position(..)`
//! returned, below `v.len()`, so `&v[i + 1..]` cannot either.
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
    pub searched: ExprId,
    pub pattern_len: usize,
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
    let PatKind::TupleStruct { path, elems } = &body.pat(pat).kind else {
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
    let PatKind::Bind { local, sub: None } = body.pat(pat).kind else {
        return;
    };
    let mut inner = match &body.expr(value).kind {
        ExprKind::Try { expr, .. } => *expr,
        ExprKind::MethodCall {
            receiver, method, ..
        } if matches!(method.as_str(), "unwrap" | "expect") => *receiver,
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

/// `s.find(p)` / `s.rfind(p)`: the searched value and the pattern's ASCII length;
/// `r.read(&mut buf)`: the buffer, a count being at most its length.
fn search(body: &Body, e: ExprId) -> Option<Found> {
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
        return Some(Found {
            searched: buffer,
            pattern_len: 0,
        });
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
        return Some(Found {
            searched: *sequence,
            pattern_len: 1,
        });
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
        searched: *receiver,
        pattern_len,
    })
}

/// Whether slicing `base` at `bound` (plus `extra` bytes) cannot panic: the bound is an
/// index a search of `base` returned, or that index plus at most the ASCII pattern's length.
pub fn is_found_bound(
    body: &Body,
    found: &HashMap<LocalId, Found>,
    base: ExprId,
    bound: ExprId,
    extra: usize,
) -> bool {
    let (local, offset) = match &body.expr(bound).kind {
        ExprKind::Local(l) => (*l, 0),
        ExprKind::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => match (&body.expr(*lhs).kind, &body.expr(*rhs).kind) {
            (ExprKind::Local(l), ExprKind::Lit(Lit::Int(k))) => (*l, *k),
            _ => return false,
        },
        _ => return false,
    };
    let Some(f) = found.get(&local) else {
        return false;
    };
    let within = usize::try_from(offset)
        .is_ok_and(|k| k + extra == 0 || k.saturating_add(extra) <= f.pattern_len);
    within && same_value(body, f.searched, base)
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
