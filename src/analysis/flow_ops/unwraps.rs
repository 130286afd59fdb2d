//! Unwraps and the checks before them: which `unwrap`/`expect` is a panic on caller data,
//! which one an established invariant or an earlier check makes safe.

use super::*;

impl Flow<'_, '_> {
    /// `x.unwrap()` / `x.expect(..)`: a panic site unless the fn made it safe or it cannot
    /// fail on caller data.
    pub(super) fn unwrap_site(
        &mut self,
        id: ExprId,
        receiver: ExprId,
        method: &str,
        arg0: Option<ExprId>,
    ) {
        let body = self.body;
        let inner = body.peel(receiver);
        let lock = matches!(&body.expr(inner).kind, ExprKind::MethodCall { method: m, args, .. }
            if args.is_empty() && matches!(m.as_str(), "lock" | "read" | "write"));
        let serialization = self.serializes_to_json(inner);
        // `writeln!(string, ..)` into memory cannot fail; into a file or a socket it can. A
        // destination of unknown type is taken for memory.
        let write_to_memory = matches!(&body.expr(inner).kind, ExprKind::Macro(m)
        if matches!(m.name.as_str(), "write" | "writeln")
            && m.args.first().is_some_and(|&d| {
                !self.is_stdout_expr(d)
                    && self
                        .base_ty(d, 0)
                        .and_then(|t| crate::analysis::types::type_name(t))
                        .is_none_or(|n| matches!(n, "String" | "str" | "Vec" | "Formatter"))
            }));
        let message = arg0.and_then(|a| body.str_lit(a)).unwrap_or_default();
        if serialization
            || write_to_memory
            || text::is_constant(body, inner)
            || self.cannot_fail_on_input(inner)
            || self.checked_before(inner)
            || self.finds_entry(inner)
        {
            return;
        }
        // Asserted, not caller data: a lock poisoned only by another panic, an `expect` whose
        // message or preceding code establishes what it expects.
        let invariant = if lock {
            Some(Invariant::Lock)
        } else if method == "expect" && text::states_invariant(message) {
            Some(Invariant::Stated)
        } else if method == "expect" && self.invariant_established(inner) {
            Some(Invariant::Piped)
        } else {
            None
        };
        let span = match body.expr(id).kind.method_span() {
            Some(name) => Sp {
                start: name.start,
                end: body.expr(id).span.end,
            },
            None => body.expr(id).span,
        };
        let kind = if method == "expect" {
            PanicKind::Expect
        } else {
            PanicKind::Unwrap
        };
        self.panic_site(span, format!("`.{method}()`"), kind, invariant);
    }

    /// `serde_json::to_string(&v)` and its kin: serializing the crate's data to JSON, which does
    /// not fail on it (its failure is taken as impossible, as for `.unwrap()`).
    pub(in crate::analysis) fn serializes_to_json(&self, e: ExprId) -> bool {
        let body = self.body;
        let ExprKind::Call { func, .. } = &body.expr(body.peel(e)).kind else {
            return false;
        };
        let ExprKind::Path(p) = &body.expr(*func).kind else {
            return false;
        };
        let r = self.imports.resolve_segments(p);
        r.first().is_some_and(|f| f == "serde_json")
            && r.last().is_some_and(|l| {
                matches!(
                    l.as_str(),
                    "to_value" | "to_string" | "to_string_pretty" | "to_vec" | "to_vec_pretty"
                )
            })
    }

    /// `child.stdout.take().expect(..)` after `.stdout(Stdio::piped())`: the handle is there.
    pub(super) fn invariant_established(&self, receiver: ExprId) -> bool {
        let (_, first) = text::chain_root(self.body, receiver);
        matches!(first.as_deref(), Some("take"))
            && matches!(&self.body.expr(text::chain_start(self.body, receiver)).kind,
                ExprKind::Field { member, .. } if matches!(member.as_str(), "stdout" | "stdin" | "stderr"))
    }

    /// An `unwrap` the same fn has made safe: `x.is_some() && x.unwrap()`, `if v.len() == 1 {
    /// v.into_iter().next().unwrap() }`, `if s.starts_with(p) { s.strip_prefix(p).unwrap() }`.
    pub(super) fn checked_before(&self, receiver: ExprId) -> bool {
        let (root, first) = text::chain_root(self.body, receiver);
        if matches!(first.as_deref(), Some("chars" | "bytes" | "char_indices"))
            && self.rest_is_nonempty(text::chain_start(self.body, receiver))
        {
            return true;
        }
        let Some(root) = root else { return false };
        let c = &self.checks;
        // One step that keeps the variant (`slot.as_mut().unwrap()` after `slot.is_none()`
        // put a value there).
        let one_step = matches!(&self.body.expr(self.body.peel(receiver)).kind,
            ExprKind::MethodCall { receiver: r, .. }
                if !matches!(self.body.expr(self.body.peel(*r)).kind, ExprKind::MethodCall { .. }));
        match first.as_deref() {
            None => c.variant.contains(&root),
            Some(
                "as_ref" | "as_mut" | "as_deref" | "as_deref_mut" | "clone" | "cloned" | "copied"
                | "take",
            ) if one_step => c.variant.contains(&root),
            Some("strip_prefix" | "strip_suffix") => c.affix.contains(&root),
            Some("next") if c.variant.contains(&root) => true,
            Some(
                "iter" | "into_iter" | "chars" | "first" | "last" | "next" | "pop" | "keys"
                | "values",
            ) => c.length.contains(&root),
            _ => false,
        }
    }

    /// `s[i..]` after `i < s.len()` (a cursor compared with the length of `s`, or of a view
    /// of its bytes): the rest holds at least one char, so its first is there.
    fn rest_is_nonempty(&self, e: ExprId) -> bool {
        let body = self.body;
        let ExprKind::Index { base, index, .. } = body.expr(body.peel(e)).kind else {
            return false;
        };
        let ExprKind::Range {
            start: Some(start),
            end: None,
            ..
        } = body.expr(index).kind
        else {
            return false;
        };
        let (Some(place), Some(cursor)) = (
            crate::analysis::flow_index::root_place(body, base),
            text::place_key(body, body.peel(start)),
        ) else {
            return false;
        };
        self.checks.length_below.contains(&(place, cursor))
    }

    /// `x = Some(..)` (or `Ok(..)`): after it, `x.unwrap()` finds that variant, as after
    /// `x.is_some()`.
    pub(crate) fn note_assigned_variant(&mut self, place: ExprId, value: ExprId) {
        let body = self.body;
        let ExprKind::Call { func, args } = &body.expr(body.peel(value)).kind else {
            return;
        };
        let wraps = matches!(&body.expr(*func).kind,
            ExprKind::Path(p) if p.last().is_some_and(|l| l == "Some" || l == "Ok"));
        if wraps
            && args.len() == 1
            && let Some(place) = text::place_key(body, place)
        {
            self.checks.variant.insert(place);
        }
    }

    pub(super) fn note_method_checks(&mut self, receiver: ExprId, method: &str, args: &[ExprId]) {
        // `x.as_ref().is_some_and(..)` checks `x`.
        let receiver = match &self.body.expr(self.body.peel(receiver)).kind {
            ExprKind::MethodCall {
                receiver: r,
                method: m,
                args: a,
                ..
            } if a.is_empty() && matches!(m.as_str(), "as_ref" | "as_mut" | "as_deref") => *r,
            _ => receiver,
        };
        let Some(place) = text::place_key(self.body, receiver) else {
            return;
        };
        if method == "starts_with"
            && let Some(pattern) = args.first().and_then(|&a| self.pattern_key(a))
        {
            self.checks.prefix.insert((place.clone(), pattern));
        }
        // An ASCII literal (or constant) the text starts or ends with: that many bytes there
        // are ASCII, so cutting inside them keeps to char boundaries.
        let ascii_affix = || {
            args.first()
                .and_then(|&a| crate::analysis::strings::expr_str(self.env.types, self.body, a))
                .filter(|p| p.is_ascii())
                .map(str::len)
        };
        let affixes = match method {
            "starts_with" => Some(&mut self.checks.ascii_prefix),
            "ends_with" => Some(&mut self.checks.ascii_suffix),
            _ => None,
        };
        if let (Some(set), Some(len)) = (affixes, ascii_affix()) {
            set.insert((place.clone(), len));
        }
        // After these the map has an entry for the key (`entry` through `or_insert*`).
        if matches!(method, "contains_key" | "insert" | "entry")
            && let Some(key) = args.first().and_then(|&a| self.key_of(a))
        {
            self.checks.keys.insert((place.clone(), key));
        }
        match method {
            "is_empty" => {
                self.checks.length.insert(place);
            }
            "is_some" | "is_none" | "is_ok" | "is_err" | "peek" | "is_some_and" | "is_ok_and" => {
                self.checks.variant.insert(place);
            }
            "starts_with" | "ends_with" => {
                self.checks.affix.insert(place);
            }
            _ => {}
        }
    }

    /// `m.get(k)` / `m.get_mut(k)` / `m.remove(k)` (its value `.cloned()` or `.copied()`) for
    /// a key the fn checked the map for or put in it: the entry is there.
    fn finds_entry(&self, receiver: ExprId) -> bool {
        let body = self.body;
        let mut at = body.peel(receiver);
        if let ExprKind::MethodCall {
            receiver: r,
            method,
            args,
            ..
        } = &body.expr(at).kind
            && args.is_empty()
            && matches!(method.as_str(), "cloned" | "copied")
        {
            at = body.peel(*r);
        }
        let ExprKind::MethodCall {
            receiver: map,
            method,
            args,
            ..
        } = &body.expr(at).kind
        else {
            return false;
        };
        let is_map = self
            .base_ty(*map, 0)
            .and_then(|t| crate::analysis::types::peel(t).last_segment())
            .is_none_or(|t| crate::analysis::std_types::MAP_TYPES.contains(&t));
        if !is_map || !matches!(method.as_str(), "get" | "get_mut" | "remove") {
            return false;
        }
        match (text::place_key(body, *map), &args[..]) {
            (Some(place), [key]) => {
                self.key_of(*key)
                    .is_some_and(|key| self.checks.keys.contains(&(place.clone(), key)))
                    || self.is_key_of(*key, &place)
            }
            _ => false,
        }
    }

    /// Whether `key` is a local bound to a key of the map at `place` (`for k in m.keys()`).
    fn is_key_of(&self, key: ExprId, place: &str) -> bool {
        let body = self.body;
        let ExprKind::Local(l) = body.expr(body.peel(key)).kind else {
            return false;
        };
        let locals = self
            .key_locals
            .get_or_init(|| crate::analysis::map_keys::key_locals(body));
        locals
            .iter()
            .any(|&(k, map)| k == l && text::place_key(body, map).as_deref() == Some(place))
    }

    /// A map key as a key of `Checks::keys`: the place or literal it is made from, however it
    /// is borrowed or converted (`&k`, `k.to_string()`, `k.clone()`, `String::from(k)`).
    fn key_of(&self, e: ExprId) -> Option<String> {
        let body = self.body;
        let mut at = body.peel(e);
        for _ in 0..4 {
            match &body.expr(at).kind {
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } if args.is_empty()
                    && matches!(
                        method.as_str(),
                        "to_string" | "to_owned" | "clone" | "into" | "as_str" | "as_ref"
                    ) =>
                {
                    at = body.peel(*receiver);
                }
                ExprKind::Call { func, args }
                    if args.len() == 1
                        && matches!(&body.expr(*func).kind, ExprKind::Path(p)
                            if p.last().is_some_and(|l| l == "from")) =>
                {
                    at = body.peel(args[0]);
                }
                _ => break,
            }
        }
        self.pattern_key(at)
    }

    /// A prefix pattern as a key: its place (`kw`, `self.sep`) or its string literal.
    pub(in crate::analysis) fn pattern_key(&self, e: ExprId) -> Option<String> {
        let e = self.body.peel(e);
        match &self.body.expr(e).kind {
            ExprKind::Lit(Lit::Str(s)) => Some(format!("{s:?}")),
            _ => text::place_key(self.body, e),
        }
    }
}
