//! Where the dispatch families find their sites: matches on a `&str` with string arms and a
//! catch-all, and what each arm and scrutinee allows (a temporary in the scrutinee, a body that
//! must be wrapped to parse the same).

use std::ops::Range;

use syn::visit::Visit;

use crate::names::TreeNames;
use crate::syntax::Parsed;

/// A dispatch may answer one method itself and send the rest on (`match method { "tools/call"
/// => .., _ => .. }`): one string arm and a catch-all are a site.
const MIN_STRING_ARMS: usize = 1;

/// A string dispatch match, as byte ranges of its file.
pub(super) struct Site {
    pub(super) whole: Range<usize>,
    pub(super) scrutinee: Range<usize>,
    /// The scrutinee holds no temporary a `let` would drop before the arms run.
    pub(super) no_temporary: bool,
    /// Just after the match's `{`, and its `}`.
    pub(super) open_end: usize,
    pub(super) close_start: usize,
    /// The string arms, then the catch-all.
    pub(super) arms: Vec<Arm>,
    pub(super) anchor: Anchor,
}

pub(super) struct Arm {
    pub(super) start: usize,
    /// After the arm's comma, or its body when it has none.
    pub(super) end: usize,
    pub(super) body: Range<usize>,
    /// Emitted inside `{ }`: copied as it is, or wrapped (in parentheses too when it starts with
    /// a block-like expression that a statement would end early).
    pub(super) wrap: Wrap,
    pub(super) kind: ArmKind,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Wrap {
    Block,
    Braces,
    Parens,
}

pub(super) enum ArmKind {
    Strings(Vec<StrLit>),
    /// `_` (None) or a binding, as written (`other`, `mut other`).
    CatchAll(Option<String>),
}

pub(super) struct StrLit {
    pub(super) range: Range<usize>,
    pub(super) value: String,
}

/// Where declarations go: before the module-level item that holds the site.
#[derive(Clone)]
pub(super) struct Anchor {
    pub(super) at: usize,
    /// What the item's module is (0: the file; else the inline `mod`'s name offset).
    pub(super) module: usize,
    /// Between declarations and the item: a line break and the item's indentation, or a space
    /// when the item does not start its line.
    pub(super) separator: String,
    /// The item's `#[cfg(..)]` and `#[allow(..)]`: a declaration exists when its user does, and
    /// is allowed what its user is.
    pub(super) attrs: Vec<Range<usize>>,
}

pub(super) fn outermost(sites: &[Site]) -> Vec<&Site> {
    let mut kept: Vec<&Site> = Vec::new();
    for site in sites {
        let inside = |k: &&Site| k.whole.start <= site.whole.start && site.whole.end <= k.whole.end;
        if !kept.iter().any(inside) {
            kept.push(site);
        }
    }
    kept
}

pub(super) fn find_sites(parsed: &Parsed, text: &str, names: &TreeNames) -> Vec<Site> {
    let mut finder = Finder {
        parsed,
        text,
        names,
        sites: Vec::new(),
        anchor: None,
        module_level: true,
        module: 0,
    };
    finder.visit_file(&parsed.ast);
    finder.sites
}

struct Finder<'a> {
    pub(super) parsed: &'a Parsed,
    pub(super) text: &'a str,
    pub(super) names: &'a TreeNames,
    pub(super) sites: Vec<Site>,
    pub(super) anchor: Option<Anchor>,
    /// The next item visited is a direct item of a module.
    pub(super) module_level: bool,
    pub(super) module: usize,
}

impl Finder<'_> {
    fn anchor_of(&self, item: &syn::Item) -> Anchor {
        let at = self.parsed.node(item).start;
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &self.text[line_start..at];
        let separator = if indent.trim().is_empty() {
            format!("\n{indent}")
        } else {
            " ".to_string()
        };
        let attrs = item_attrs(item)
            .iter()
            .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("allow"))
            .map(|a| self.parsed.node(a))
            .collect();
        Anchor {
            at,
            module: self.module,
            separator,
            attrs,
        }
    }

    fn site(&self, m: &syn::ExprMatch) -> Option<Site> {
        if !m.attrs.is_empty() || !string_like(&m.expr) {
            return None;
        }
        let (last, strings) = m.arms.split_last()?;
        if strings.len() < MIN_STRING_ARMS {
            return None;
        }
        let mut arms = Vec::new();
        for arm in strings {
            let lits = string_pattern(&arm.pat)?
                .into_iter()
                .map(|s| StrLit {
                    range: self.parsed.node(s),
                    value: s.value(),
                })
                .collect();
            arms.push(self.arm(arm, ArmKind::Strings(lits))?);
        }
        let catch_all = self.catch_all(&last.pat)?;
        arms.push(self.arm(last, ArmKind::CatchAll(catch_all))?);
        Some(Site {
            whole: self.parsed.node(m),
            scrutinee: self.parsed.node(&*m.expr),
            no_temporary: no_temporary(&m.expr),
            open_end: self.parsed.range(m.brace_token.span.open()).end,
            close_start: self.parsed.range(m.brace_token.span.close()).start,
            arms,
            anchor: self.anchor.clone()?,
        })
    }

    fn arm(&self, arm: &syn::Arm, kind: ArmKind) -> Option<Arm> {
        if !arm.attrs.is_empty() || arm.guard.is_some() {
            return None;
        }
        let body = self.parsed.node(&*arm.body);
        let end = arm
            .comma
            .as_ref()
            .map_or(body.end, |c| self.parsed.node(c).end);
        Some(Arm {
            start: self.parsed.node(&arm.pat).start,
            end,
            body,
            wrap: wrap(&arm.body),
            kind,
        })
    }

    /// `Some(None)` for `_`, `Some(Some(binding))` for a plain binding; `None` otherwise (an
    /// upper-case or item name may be a constant pattern, not a binding).
    fn catch_all(&self, pat: &syn::Pat) -> Option<Option<String>> {
        match pat {
            syn::Pat::Wild(w) if w.attrs.is_empty() => Some(None),
            syn::Pat::Ident(p)
                if p.attrs.is_empty() && p.by_ref.is_none() && p.subpat.is_none() =>
            {
                let name = p.ident.to_string();
                let lower = !name.starts_with(|c: char| c.is_uppercase());
                let binding = lower && !self.names.items.contains(&name);
                let mutable = if p.mutability.is_some() { "mut " } else { "" };
                binding.then(|| Some(format!("{mutable}{name}")))
            }
            _ => None,
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let saved = (self.anchor.clone(), self.module_level, self.module);
        if self.module_level {
            self.anchor = Some(self.anchor_of(item));
        }
        self.module_level = false;
        if let syn::Item::Mod(m) = item {
            self.module_level = true;
            self.module = self.parsed.range(m.ident.span()).start;
        }
        syn::visit::visit_item(self, item);
        (self.anchor, self.module_level, self.module) = saved;
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        if let Some(site) = self.site(m) {
            self.sites.push(site);
        }
        syn::visit::visit_expr_match(self, m);
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        _ => &[],
    }
}

/// The literals of `"a"` or `"a" | "b"`.
fn string_pattern(pat: &syn::Pat) -> Option<Vec<&syn::LitStr>> {
    fn one(p: &syn::Pat) -> Option<&syn::LitStr> {
        match p {
            syn::Pat::Lit(syn::ExprLit {
                attrs,
                lit: syn::Lit::Str(s),
            }) if attrs.is_empty() && s.suffix().is_empty() => Some(s),
            _ => None,
        }
    }
    match pat {
        syn::Pat::Or(or) if or.attrs.is_empty() => or.cases.iter().map(one).collect(),
        p => one(p).map(|s| vec![s]),
    }
}

/// Shapes that cannot be a `&str`.
fn string_like(e: &syn::Expr) -> bool {
    !matches!(
        e,
        syn::Expr::Tuple(_)
            | syn::Expr::Array(_)
            | syn::Expr::Struct(_)
            | syn::Expr::Range(_)
            | syn::Expr::Repeat(_)
    )
}

/// Methods that take their receiver by value: a temporary receiver is moved, not borrowed.
const CONSUMING: &str = "and_then copied expect filter flatten map ok ok_or ok_or_else or \
    or_else unwrap unwrap_or unwrap_or_default unwrap_or_else";

/// Whether `let x = e;` keeps what `e` borrows alive: `e` borrows only places, literals and
/// values it moves (`name`, `req.method.as_str()`, `v["method"].as_str().unwrap_or("")`).
pub(super) fn no_temporary(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Paren(p) => no_temporary(&p.expr),
        syn::Expr::Reference(r) => is_place(&r.expr),
        syn::Expr::Try(t) => no_temporary(&t.expr),
        syn::Expr::Lit(_) => true,
        syn::Expr::Call(c) => {
            matches!(&*c.func, syn::Expr::Path(_)) && c.args.iter().all(plain_argument)
        }
        syn::Expr::MethodCall(c) => {
            let consuming = CONSUMING.split_whitespace().any(|m| c.method == m);
            (is_place(&c.receiver) || (consuming && no_temporary(&c.receiver)))
                && c.args.iter().all(plain_argument)
        }
        e => is_place(e),
    }
}

/// A place expression that is not a constant (a constant's value is a temporary).
fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => {
            p.qself.is_none()
                && p.path
                    .segments
                    .last()
                    .is_some_and(|s| !s.ident.to_string().starts_with(|c: char| c.is_uppercase()))
        }
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Index(i) => is_place(&i.expr) && plain_argument(&i.index),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && is_place(&u.expr),
        syn::Expr::Paren(p) => is_place(&p.expr),
        _ => false,
    }
}

fn plain_argument(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Lit(_) | syn::Expr::Path(_) | syn::Expr::Closure(_) => true,
        syn::Expr::Reference(r) => is_place(&r.expr),
        e => is_place(e),
    }
}

fn wrap(body: &syn::Expr) -> Wrap {
    match body {
        syn::Expr::Block(b) if b.attrs.is_empty() && b.label.is_none() => Wrap::Block,
        e if block_like(leftmost(e)) && !block_like(e) => Wrap::Parens,
        _ => Wrap::Braces,
    }
}

/// The sub-expression a statement would start with.
fn leftmost(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Binary(b) => leftmost(&b.left),
        syn::Expr::MethodCall(m) => leftmost(&m.receiver),
        syn::Expr::Field(f) => leftmost(&f.base),
        syn::Expr::Index(i) => leftmost(&i.expr),
        syn::Expr::Cast(c) => leftmost(&c.expr),
        syn::Expr::Try(t) => leftmost(&t.expr),
        syn::Expr::Await(a) => leftmost(&a.base),
        syn::Expr::Call(c) => leftmost(&c.func),
        syn::Expr::Assign(a) => leftmost(&a.left),
        syn::Expr::Range(syn::ExprRange { start: Some(s), .. }) => leftmost(s),
        e => e,
    }
}

fn block_like(e: &syn::Expr) -> bool {
    matches!(
        e,
        syn::Expr::Block(_)
            | syn::Expr::If(_)
            | syn::Expr::Match(_)
            | syn::Expr::Loop(_)
            | syn::Expr::While(_)
            | syn::Expr::ForLoop(_)
            | syn::Expr::Unsafe(_)
            | syn::Expr::Const(_)
            | syn::Expr::TryBlock(_)
    )
}
