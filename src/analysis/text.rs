//! Readings of IR shapes and texts the flow needs: the text an expression writes, places and
//! their keys, arms that catch everything, `?` operands, indexes that can panic. What the
//! words of a message say is `wording`'s.

use crate::model::ir::*;

pub use super::wording::{
    is_failure_text, is_sql, mentions_arguments, mentions_request, mentions_unknown_tool,
    names_the_request,
};

/// The text an expression writes itself: its string literals and format templates, in
/// source order, joined by spaces. Identifiers are not text: a constant called `MISSING`
/// says nothing about the message it sends.
pub fn written_text(body: &Body, e: ExprId) -> String {
    let within = body.expr(e).span;
    let mut pieces: Vec<(u32, &str)> = Vec::new();
    for x in &body.exprs {
        if x.span.start < within.start || x.span.end > within.end {
            continue;
        }
        match &x.kind {
            ExprKind::Lit(Lit::Str(s)) => pieces.push((x.span.start, s)),
            ExprKind::Macro(m) => {
                if let Some(f) = &m.format {
                    pieces.push((x.span.start, &f.template));
                }
                if let Some(j) = &m.json {
                    json_strings(j, &mut pieces);
                }
            }
            _ => {}
        }
    }
    pieces.sort_by_key(|&(at, _)| at);
    let texts: Vec<&str> = pieces.into_iter().map(|(_, t)| t).collect();
    texts.join(" ")
}

/// The string values a `json!` literal writes (its keys are structure, not text).
fn json_strings<'a>(j: &'a Json, out: &mut Vec<(u32, &'a str)>) {
    match j {
        Json::Object(members) => members.iter().for_each(|m| json_strings(&m.value, out)),
        Json::Array(items) => items.iter().for_each(|i| json_strings(i, out)),
        Json::Lit(Lit::Str(s), at) => out.push((at.start, s)),
        Json::Lit(..) | Json::Null | Json::Expr(_) => {}
    }
}

/// The literal text an expression starts with: a string literal or a format string.
pub fn message_text(body: &Body, e: ExprId) -> Option<String> {
    match &body.expr(body.peel(e)).kind {
        ExprKind::Lit(Lit::Str(s)) => Some(s.to_string()),
        ExprKind::Macro(m) => m.format.as_ref().map(|f| f.template.clone()),
        ExprKind::MethodCall {
            receiver, method, ..
        } if matches!(method.as_str(), "to_string" | "into" | "to_owned") => {
            message_text(body, *receiver)
        }
        ExprKind::Call { func, args } => match &body.expr(*func).kind {
            ExprKind::Path(p) if p.len() == 2 && p[0] == "String" && p[1] == "from" => {
                args.first().and_then(|&a| message_text(body, a))
            }
            _ => None,
        },
        _ => None,
    }
}

/// What `serde_json::from_value(x)` and friends parse: the tool's arguments (`Some(true)`),
/// the request's `params` (`Some(false)`), or something else.
pub fn parses_arguments(body: &Body, e: ExprId) -> Option<bool> {
    let ExprKind::Call { args, .. } = &body.expr(body.peel(e)).kind else {
        return None;
    };
    let (root, _) = match args.first() {
        Some(&a) => chain_root(body, a),
        None => return None,
    };
    if !deserializes(body, e) {
        return None;
    }
    let root = root?;
    let r = root.to_lowercase();
    if r.contains("arg") || r.contains("input") {
        Some(true)
    } else if r.contains("param") || r.contains("request") {
        Some(false)
    } else {
        None
    }
}

/// Whether `e` is a serde deserialisation of its first argument (`from_value(v)`,
/// `from_str(s)`, `from_slice(b)`).
pub fn deserializes(body: &Body, e: ExprId) -> bool {
    let ExprKind::Call { func, args } = &body.expr(body.peel(e)).kind else {
        return false;
    };
    !args.is_empty()
        && matches!(&body.expr(*func).kind,
            ExprKind::Path(p) if p.last().is_some_and(|l| matches!(l.as_str(), "from_value" | "from_str" | "from_slice")))
}

/// A local or a field of one, as text (`v`, `args.items`), to match checks with uses.
pub fn place_key(body: &Body, e: ExprId) -> Option<String> {
    match &body.expr(e).kind {
        ExprKind::Local(l) => Some(body.local(*l).name.to_string()),
        ExprKind::SelfValue => Some("self".into()),
        ExprKind::Field { base, member } => Some(format!("{}.{member}", place_key(body, *base)?)),
        ExprKind::Ref(inner) | ExprKind::Deref(inner) => place_key(body, *inner),
        _ => None,
    }
}

/// The string a text expression is part of, as a hash of its place: `s`, `self.text`, or
/// the string a slice of it (`s[cursor..]`) was taken from.
pub fn text_place_hash(body: &Body, e: ExprId) -> Option<u32> {
    let e = body.peel(e);
    if let ExprKind::Index { base, index, .. } = body.expr(e).kind
        && matches!(body.expr(index).kind, ExprKind::Range { .. })
    {
        return text_place_hash(body, base);
    }
    // A prefix of a string (`s.trim_end()`) keeps its offsets: an offset in it is one of `s`.
    if let ExprKind::MethodCall {
        receiver, method, ..
    } = &body.expr(e).kind
        && matches!(
            method.as_str(),
            "trim_end" | "trim_end_matches" | "trim_ascii_end"
        )
    {
        return text_place_hash(body, *receiver);
    }
    let key = place_key(body, e)?;
    Some(name_hash(&key))
}

/// The hash of a place's key (see [`text_place_hash`]). FNV-1a: stable, and a collision only
/// merges two places of one fn.
pub fn name_hash(key: &str) -> u32 {
    key.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The value a local is bound to by a plain `let x = e;`, when nothing assigns it again.
pub fn let_init(body: &Body, local: LocalId) -> Option<ExprId> {
    let reassigned = body.exprs.iter().any(|e| {
        matches!(e.kind, ExprKind::Assign { place, .. }
            if matches!(body.expr(place).kind, ExprKind::Local(l) if l == local))
    });
    if reassigned {
        return None;
    }
    body.exprs.iter().find_map(|e| {
        let ExprKind::Block { stmts, .. } = &e.kind else {
            return None;
        };
        stmts.iter().find_map(|st| match st {
            Stmt::Let {
                pat,
                init: Some(init),
                els: None,
                ..
            } if matches!(body.pat(body.untyped(*pat)).kind,
                PatKind::Bind { local: l, sub: None } if l == local) =>
            {
                Some(*init)
            }
            _ => None,
        })
    })
}

/// Whether a block or expression ends by leaving the fn or the process.
pub fn diverges(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Return(_) | ExprKind::Break(_) | ExprKind::Continue => true,
        ExprKind::Block { tail: Some(t), .. } => diverges(body, *t),
        ExprKind::Block {
            tail: None, stmts, ..
        } => match stmts.last() {
            Some(Stmt::Expr { expr, .. }) => diverges(body, *expr),
            _ => false,
        },
        ExprKind::Macro(m) => matches!(
            m.name.as_str(),
            "panic" | "bail" | "unreachable" | "todo" | "unimplemented"
        ),
        ExprKind::Call { func, .. } => matches!(&body.expr(*func).kind,
            ExprKind::Path(p) if p.last().is_some_and(|s| s == "exit" || s == "abort")),
        // A `match` every arm of which leaves, an `if` both of whose branches do.
        ExprKind::Match { arms, .. } => {
            !arms.is_empty() && arms.iter().all(|a| diverges(body, a.body))
        }
        ExprKind::If {
            then,
            els: Some(els),
            ..
        } => diverges(body, *then) && diverges(body, *els),
        _ => false,
    }
}

/// A catch-all arm: `_`, or a plain binding that is not a constant or unit variant.
pub fn is_fallback(body: &Body, p: PatId) -> bool {
    matches!(
        &body.pat(p).kind,
        PatKind::Wild | PatKind::Bind { sub: None, .. }
    )
}

/// `Some(x)` or `Some(_)`: every present value, the catch-all of a `match` on an optional
/// string after its `Some("..")` arms.
pub fn is_some_fallback(body: &Body, p: PatId) -> bool {
    matches!(&body.pat(p).kind, PatKind::TupleStruct { path, elems }
        if elems.len() == 1
            && path.last().is_some_and(|l| l == "Some")
            && is_fallback(body, elems[0]))
}

/// Whether the expression mentions a tool's name: a local or field called `name` or
/// `tool_name`, a `.name` access (`match request.name.as_ref()`), or a local initialised
/// with one of these.
pub fn mentions_name(body: &Body, e: ExprId) -> bool {
    mentions_name_given(body, e, &[])
}

/// [`mentions_name`], where `names` are locals known to hold a tool's name (parameters a
/// caller passes it: see `tool_names`).
pub fn mentions_name_given(body: &Body, e: ExprId, names: &[LocalId]) -> bool {
    mentions_name_within(body, e, names, 0)
}

/// How many searches inside searches ([`searches_by_name`]) are followed: each level walks a
/// bounded number of expressions, so the bound keeps hostile nesting linear.
const MAX_SEARCH_NESTING: u32 = 2;

fn mentions_name_within(body: &Body, e: ExprId, names: &[LocalId], nesting: u32) -> bool {
    // `(expr, content)`: with `content`, `expr` is a value whose content a pattern bound
    // (`let Some(x) = expr else`): the name's own value read out of the request
    // (`params["name"].as_str()`), not a value looked up with it (`tools.get(name)`), whose
    // method arguments are not followed.
    let mut stack = vec![(e, false)];
    let mut steps = 0;
    while let Some((id, content)) = stack.pop() {
        steps += 1;
        if steps > 64 {
            return false;
        }
        match &body.expr(id).kind {
            ExprKind::Local(l) => {
                if names.contains(l) {
                    return true;
                }
                let local = body.local(*l);
                // A local is what it was initialised with (`let id = request.name.as_str();`),
                // or the content of what it was unwrapped from.
                stack.extend(local.init.map(|i| (i, content)));
                stack.extend(local.unwraps.map(|u| (u, true)));
                if let Some((tuple, i)) = local.element_of {
                    stack.extend(tuple_element(body, tuple, i).map(|e| (e, content)));
                }
            }
            ExprKind::Field { base, member } => {
                if member == "name" || member == "tool_name" {
                    return true;
                }
                stack.push((*base, content));
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                stack.push((*receiver, content));
                // In a content, a key (`get("name")`) or a search by the name
                // (`find(|t| t.name == name)`) selects by the name; other arguments do not.
                if nesting < MAX_SEARCH_NESTING
                    && args
                        .iter()
                        .any(|&a| searches_within(body, a, names, nesting + 1))
                {
                    return true;
                }
                let keys = args.iter().filter(|&&a| {
                    !content || matches!(body.expr(a).kind, ExprKind::Lit(Lit::Str(_)))
                });
                stack.extend(keys.map(|&a| (a, content)));
            }
            // `params["name"]`, `params.get("name")`.
            ExprKind::Index { base, index, .. } => {
                stack.push((*base, content));
                stack.push((*index, content));
            }
            ExprKind::Lit(Lit::Str(s)) => {
                if matches!(&**s, "name" | "tool_name" | "tool") {
                    return true;
                }
            }
            ExprKind::Ref(i) | ExprKind::Deref(i) | ExprKind::Await(i) => stack.push((*i, content)),
            // `let name = match params["name"].as_str() { Some(n) => n, None => return .. }`:
            // what a `match` gives is its scrutinee's content.
            ExprKind::Match { scrutinee, .. } => stack.push((*scrutinee, true)),
            // `let name = params.get("name").and_then(Value::as_str).ok_or(..)?;`
            ExprKind::Try { expr, .. } => stack.push((*expr, content)),
            // A block is its value; a std conversion (`AsRef::as_ref(name)`,
            // `String::from(name)`) is what it converts.
            ExprKind::Block { tail: Some(t), .. } => stack.push((*t, content)),
            ExprKind::Call { func, args } if args.len() == 1 && is_conversion(body, *func) => {
                stack.push((args[0], content));
            }
            // `.and_then(|p| p.get("name"))`: what the closure gives.
            ExprKind::Closure(c) => stack.push((body.value_of(body.closure(*c).body), content)),
            _ => {}
        }
    }
    false
}

/// A closure that compares something with the requested tool's name
/// (`tools.iter().find(|t| t.name() == tool_name)`): the element it accepts is the tool the
/// request names.
pub fn searches_by_name(body: &Body, arg: ExprId, names: &[LocalId]) -> bool {
    searches_within(body, arg, names, 0)
}

fn searches_within(body: &Body, arg: ExprId, names: &[LocalId], nesting: u32) -> bool {
    let ExprKind::Closure(c) = body.expr(arg).kind else {
        return false;
    };
    let test = body.value_of(body.closure(c).body);
    match &body.expr(test).kind {
        ExprKind::Binary {
            op: BinOp::Eq,
            lhs,
            rhs,
        } => [*lhs, *rhs]
            .iter()
            .any(|&side| mentions_name_within(body, side, names, nesting)),
        _ => false,
    }
}

/// The expression of element `i` of the tuple `e` builds (through `std::convert::identity`,
/// which is its argument).
fn tuple_element(body: &Body, mut e: ExprId, i: u32) -> Option<ExprId> {
    // Each step goes into a strictly smaller expression; the bound is for hostile nesting.
    for _ in 0..8 {
        match &body.expr(e).kind {
            ExprKind::Tuple(elems) => return elems.get(i as usize).copied(),
            ExprKind::Call { func, args } if args.len() == 1 && is_identity(body, *func) => {
                e = args[0];
            }
            _ => return None,
        }
    }
    None
}

/// A std conversion called by path: `AsRef::as_ref`, `Borrow::borrow`, `From::from`,
/// `String::from`, `ToString::to_string`, `ToOwned::to_owned`, `Into::into`, `identity`.
fn is_conversion(body: &Body, func: ExprId) -> bool {
    matches!(&body.expr(func).kind, ExprKind::Path(p)
        if p.last().is_some_and(|l| matches!(l.as_str(),
            "as_ref" | "borrow" | "from" | "to_string" | "to_owned" | "into" | "identity")))
}

/// `std::convert::identity` (or `core::`), however much of its path is written.
fn is_identity(body: &Body, func: ExprId) -> bool {
    matches!(&body.expr(func).kind, ExprKind::Path(p)
        if p.len() >= 2 && p[p.len() - 1] == "identity" && p[p.len() - 2] == "convert")
}

/// The operand of `?` without its adapter (`x.map_err(..)?` → `x`), whether it is an
/// `Option` adapted with `ok_or*`, and whether it is a lock's poisoning.
pub fn question_operand(body: &Body, e: ExprId) -> (ExprId, bool, bool) {
    match &body.expr(e).kind {
        ExprKind::MethodCall {
            receiver, method, ..
        } if matches!(method.as_str(), "map_err" | "ok_or" | "ok_or_else") => {
            let lock = method == "map_err"
                && matches!(&body.expr(*receiver).kind, ExprKind::MethodCall { method: m, args, .. }
                    if args.is_empty() && matches!(m.as_str(), "lock" | "read" | "write"));
            (*receiver, method != "map_err", lock)
        }
        _ => (e, false, false),
    }
}

/// Integer-like index expressions that can be out of bounds: arithmetic, `len()`-based, or
/// a range with a variable bound. A plain name could be a map or JSON key.
pub fn index_can_panic(body: &Body, index: ExprId) -> bool {
    match &body.expr(index).kind {
        ExprKind::Range { start, end, .. } => [start, end]
            .into_iter()
            .flatten()
            .any(|b| !matches!(body.expr(*b).kind, ExprKind::Lit(_))),
        ExprKind::Binary { op, .. } => matches!(op, BinOp::Add | BinOp::Sub),
        ExprKind::MethodCall { method, .. } => method == "len",
        _ => false,
    }
}

/// Whether an expression is built from literals and constants only, so an `unwrap` on it
/// cannot fail on caller data (`Regex::new("^a+$").unwrap()`, `"5".parse::<u8>().unwrap()`).
pub fn is_constant(body: &Body, e: ExprId) -> bool {
    match &body.expr(e).kind {
        ExprKind::Lit(_) => true,
        ExprKind::Path(p) => p
            .last()
            .is_some_and(|s| s.chars().all(|c| !c.is_lowercase())),
        ExprKind::Ref(i) | ExprKind::Deref(i) => is_constant(body, *i),
        // `Regex::new("^a+$")`; a call without arguments (`env::current_dir()`) reads state.
        ExprKind::Call { func, args } => {
            matches!(body.expr(*func).kind, ExprKind::Path(_))
                && !args.is_empty()
                && args.iter().all(|&a| is_constant(body, a))
        }
        ExprKind::MethodCall { receiver, args, .. } => {
            is_constant(body, *receiver) && args.iter().all(|&a| is_constant(body, a))
        }
        ExprKind::Macro(m) => match m.name.as_str() {
            "concat" => true,
            "json" => m.json.as_ref().is_some_and(json_is_constant),
            _ => false,
        },
        ExprKind::Neg(i) | ExprKind::Not(i) => is_constant(body, *i),
        _ => false,
    }
}

fn json_is_constant(j: &Json) -> bool {
    match j {
        Json::Object(m) => m.iter().all(|m| json_is_constant(&m.value)),
        Json::Array(items) => items.iter().all(json_is_constant),
        Json::Null | Json::Lit(..) => true,
        Json::Expr(_) => false,
    }
}

/// Words with which an `expect` message states an invariant the author has established.
const INVARIANT_WORDS: &[&str] = &[
    "always",
    "above",
    "invariant",
    "infallible",
    "cannot fail",
    "can't fail",
    "never fails",
    "guaranteed",
    "checked",
    "validated",
];

pub fn states_invariant(message: &str) -> bool {
    let text = message.to_lowercase();
    INVARIANT_WORDS.iter().any(|w| text.contains(w))
}

/// A format string with nothing but placeholders and whitespace (`"{}"`, `"{json}\n"`).
pub fn is_bare_template(template: &str) -> bool {
    let mut depth = 0;
    template.chars().all(|c| match c {
        '{' => {
            depth += 1;
            true
        }
        '}' => {
            depth -= 1;
            true
        }
        c if depth > 0 => c != '{',
        c => c.is_whitespace(),
    })
}

/// The local a method chain starts from (`v.iter().next()` → `v`), and its first method.
pub fn chain_root(body: &Body, e: ExprId) -> (Option<String>, Option<String>) {
    let mut cur = body.peel(e);
    let mut first = None;
    let mut steps = 0;
    while let ExprKind::MethodCall {
        receiver, method, ..
    } = &body.expr(cur).kind
    {
        first = Some(method.to_string());
        cur = body.peel(*receiver);
        steps += 1;
        if steps > 256 {
            break;
        }
    }
    (place_key(body, cur), first)
}

/// Whether a method chain (`Command::new(..).arg(..).stdout(..)`) calls one of `names`.
pub fn chain_has_method(body: &Body, e: ExprId, names: &[&str]) -> bool {
    let mut cur = e;
    for _ in 0..256 {
        match &body.expr(body.peel(cur)).kind {
            ExprKind::MethodCall {
                receiver, method, ..
            } => {
                if names.contains(&method.as_str()) {
                    return true;
                }
                cur = *receiver;
            }
            _ => return false,
        }
    }
    false
}

/// The first expression of a method chain.
pub fn chain_start(body: &Body, e: ExprId) -> ExprId {
    let mut cur = body.peel(e);
    for _ in 0..256 {
        match &body.expr(cur).kind {
            ExprKind::MethodCall { receiver, .. } => cur = body.peel(*receiver),
            _ => break,
        }
    }
    cur
}
