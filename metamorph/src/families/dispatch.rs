//! Four families that respell a string dispatch: `match method { "a" => .., "b" | "c" => ..,
//! other => .. }`, the shape of a hand-rolled JSON-RPC server (`"tools/call"`) or of a tool
//! table (`match name { "read" => .. }`).
//!
//! - `dispatch_const`: each literal of the arms becomes a `const MM_K0: &str` declared before the
//!   module-level item that holds the match, and the arm matches the const.
//! - `dispatch_if_chain`: `{ let mm_s0: &str = <scrutinee>; if mm_s0 == "a" { .. } else .. }`.
//! - `dispatch_eq_method`: the same with `mm_s0.eq("a")`.
//! - `dispatch_enum`: an enum and a parser `fn mm_parse0(&str) -> MmMethod0` declared before the
//!   item, and the site matches the parsed variant.
//!
//! A site is a match without attributes or guards whose arms are string literals (or `|` of
//! them), at least two, then one final catch-all (`_`, or a lower-case binding that names no
//! item). Such a match only compiles on a `&str`, which is why the new `let` says `: &str`:
//! that also fixes what `name.as_ref()` means. When the scrutinee may hold a temporary
//! (`name.to_lowercase().as_str()`), a `let` would drop it too early, so the scrutinee stays a
//! match's: `match <scrutinee> { mm_s0 => { let mm_s0: &str = mm_s0; if .. } }`.
//! Skipped: matches on tuples and other non-string shapes, without a catch-all, with guards or
//! `Some("x")`-like patterns. (A const context cannot match a `str`: no site there compiles.)
//! Nested sites: the if-chain and enum families rewrite the outermost site only (an inner one
//! is copied as it is, inside an arm); `dispatch_const` rewrites every site, nested or not.
//! Arm bodies and literals are copied, so every finding keeps its place.

use std::collections::BTreeMap;
use std::ops::Range;

use syn::visit::Visit;

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

/// A unit struct per family; they share everything but the style.
macro_rules! family {
    ($ty:ident, $name:literal, $about:literal, $style:expr) => {
        pub struct $ty;

        impl Family for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn about(&self) -> &'static str {
                $about
            }
            fn rewrite(&self, tree: &Tree) -> Rewrite {
                rewrite(tree, $style)
            }
        }
    };
}

family!(
    DispatchConst,
    "dispatch_const",
    "string arms of a dispatch match name consts declared before the item",
    Style::Const
);
family!(
    DispatchIfChain,
    "dispatch_if_chain",
    "a match on a string becomes an if chain of `==`",
    Style::IfChain { method: false }
);
family!(
    DispatchEqMethod,
    "dispatch_eq_method",
    "a match on a string becomes an if chain of `.eq(..)`",
    Style::IfChain { method: true }
);
family!(
    DispatchEnum,
    "dispatch_enum",
    "a match on a string becomes a match on an enum parsed from it",
    Style::Enum
);

#[derive(Clone, Copy)]
enum Style {
    Const,
    IfChain { method: bool },
    Enum,
}

fn rewrite(tree: &Tree, style: Style) -> Rewrite {
    let mut names = TreeNames::of(tree);
    let mut rewriter = Rewriter::new(tree);
    for (path, text) in tree.rust_files() {
        let Some(parsed) = Parsed::new(text) else {
            continue;
        };
        let sites = find_sites(&parsed, text, &names);
        let mut w = Writer {
            path,
            text,
            names: &mut names,
            rewriter: &mut rewriter,
        };
        match style {
            Style::Const => w.consts(&sites),
            Style::IfChain { method } => outermost(&sites)
                .into_iter()
                .for_each(|s| w.if_chain(s, method)),
            Style::Enum => outermost(&sites).into_iter().for_each(|s| w.enumerate(s)),
        }
    }
    rewriter.finish()
}

/// A dispatch may answer one method itself and send the rest on (`match method { "tools/call"
/// => .., _ => .. }`): one string arm and a catch-all are a site.
const MIN_STRING_ARMS: usize = 1;

/// A string dispatch match, as byte ranges of its file.
struct Site {
    whole: Range<usize>,
    scrutinee: Range<usize>,
    /// The scrutinee holds no temporary a `let` would drop before the arms run.
    no_temporary: bool,
    /// Just after the match's `{`, and its `}`.
    open_end: usize,
    close_start: usize,
    /// The string arms, then the catch-all.
    arms: Vec<Arm>,
    anchor: Anchor,
}

struct Arm {
    start: usize,
    /// After the arm's comma, or its body when it has none.
    end: usize,
    body: Range<usize>,
    /// Emitted inside `{ }`: copied as it is, or wrapped (in parentheses too when it starts with
    /// a block-like expression that a statement would end early).
    wrap: Wrap,
    kind: ArmKind,
}

#[derive(Clone, Copy, PartialEq)]
enum Wrap {
    Block,
    Braces,
    Parens,
}

enum ArmKind {
    Strings(Vec<StrLit>),
    /// `_` (None) or a binding, as written (`other`, `mut other`).
    CatchAll(Option<String>),
}

struct StrLit {
    range: Range<usize>,
    value: String,
}

/// Where declarations go: before the module-level item that holds the site.
#[derive(Clone)]
struct Anchor {
    at: usize,
    /// What the item's module is (0: the file; else the inline `mod`'s name offset).
    module: usize,
    /// Between declarations and the item: a line break and the item's indentation, or a space
    /// when the item does not start its line.
    separator: String,
    /// The item's `#[cfg(..)]` and `#[allow(..)]`: a declaration exists when its user does, and
    /// is allowed what its user is.
    attrs: Vec<Range<usize>>,
}

fn outermost(sites: &[Site]) -> Vec<&Site> {
    let mut kept: Vec<&Site> = Vec::new();
    for site in sites {
        let inside = |k: &&Site| k.whole.start <= site.whole.start && site.whole.end <= k.whole.end;
        if !kept.iter().any(inside) {
            kept.push(site);
        }
    }
    kept
}

fn find_sites(parsed: &Parsed, text: &str, names: &TreeNames) -> Vec<Site> {
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
    parsed: &'a Parsed,
    text: &'a str,
    names: &'a TreeNames,
    sites: Vec<Site>,
    anchor: Option<Anchor>,
    /// The next item visited is a direct item of a module.
    module_level: bool,
    module: usize,
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
fn no_temporary(e: &syn::Expr) -> bool {
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

/// Makes the edits of one file.
struct Writer<'a, 'r, 't> {
    path: &'a str,
    text: &'a str,
    names: &'a mut TreeNames,
    rewriter: &'r mut Rewriter<'t>,
}

/// The chunks of one replacement.
struct Out<'p> {
    path: &'p str,
    chunks: Vec<Chunk>,
}

impl Out<'_> {
    fn text(&mut self, text: impl Into<String>) {
        self.chunks.push(Chunk::text(text));
    }

    fn copy(&mut self, range: Range<usize>) {
        self.chunks.push(Chunk::copy(self.path, range));
    }

    /// An arm's body as a block; a binding catch-all binds its name first.
    fn block(&mut self, arm: &Arm, binding: Option<&str>, var: &str) {
        let (open, close) = match (binding, arm.wrap) {
            (None, Wrap::Block) => (String::new(), ""),
            (None, Wrap::Braces) => ("{ ".to_string(), " }"),
            (None, Wrap::Parens) => ("{ (".to_string(), ") }"),
            (Some(b), Wrap::Parens) => (format!("{{ let {b} = {var}; ("), ") }"),
            (Some(b), _) => (format!("{{ let {b} = {var}; "), " }"),
        };
        self.text(open);
        self.copy(arm.body.clone());
        self.text(close);
    }
}

impl<'a> Writer<'a, '_, '_> {
    fn out(&self) -> Out<'a> {
        Out {
            path: self.path,
            chunks: Vec::new(),
        }
    }

    /// `{ let var: &str = <scrutinee>;`, or the scrutinee kept a match's when it may hold a
    /// temporary; returns what closes it.
    fn open(&self, out: &mut Out, site: &Site, var: &str) -> &'static str {
        if site.no_temporary {
            out.text(format!("{{ let {var}: &str = "));
            out.copy(site.scrutinee.clone());
            out.text(";");
            "}"
        } else {
            out.text("match ");
            out.copy(site.scrutinee.clone());
            out.text(format!(" {{ {var} => {{ let {var}: &str = {var};"));
            "} }"
        }
    }

    /// The text between the arms (line breaks, comments), before arm `i`.
    fn gap_before(site: &Site, i: usize) -> Range<usize> {
        let start = i
            .checked_sub(1)
            .and_then(|p| site.arms.get(p))
            .map_or(site.open_end, |a| a.end);
        let end = site.arms.get(i).map_or(site.close_start, |a| a.start);
        start..end.max(start)
    }

    fn if_chain(&mut self, site: &Site, method: bool) {
        let var = self.names.fresh("mm_s");
        let mut out = self.out();
        let close = self.open(&mut out, site, &var);
        for (i, arm) in site.arms.iter().enumerate() {
            out.copy(Self::gap_before(site, i));
            match &arm.kind {
                ArmKind::Strings(lits) => {
                    out.text(if i == 0 { "if " } else { "else if " });
                    for (j, lit) in lits.iter().enumerate() {
                        let or = if j == 0 { "" } else { " || " };
                        if method {
                            out.text(format!("{or}{var}.eq("));
                            out.copy(lit.range.clone());
                            out.text(")");
                        } else {
                            out.text(format!("{or}{var} == "));
                            out.copy(lit.range.clone());
                        }
                    }
                    out.text(" ");
                    out.block(arm, None, &var);
                }
                ArmKind::CatchAll(binding) => {
                    out.text("else ");
                    out.block(arm, binding.as_deref(), &var);
                }
            }
        }
        out.copy(Self::gap_before(site, site.arms.len()));
        out.text(close);
        let chunks = out.chunks;
        self.rewriter.replace(self.path, site.whole.clone(), chunks);
    }

    fn enumerate(&mut self, site: &Site) {
        let var = self.names.fresh("mm_s");
        let ty = self.names.fresh("MmMethod");
        let parse = self.names.fresh("mm_parse");
        let mut out = self.out();
        let close = self.open(&mut out, site, &var);
        out.text(format!(" match {parse}({var}) {{"));
        let variants = site.arms.len() - 1;
        let list: Vec<String> = (0..variants).map(|v| format!("V{v}, ")).collect();
        let enum_item = vec![Chunk::text(format!(
            "enum {ty} {{ {}Other }}",
            list.concat()
        ))];
        let mut decl = self.out();
        decl.text(format!(
            "fn {parse}({var}: &str) -> {ty} {{ match {var} {{ "
        ));
        for (i, arm) in site.arms.iter().enumerate() {
            out.copy(Self::gap_before(site, i));
            match &arm.kind {
                ArmKind::Strings(lits) => {
                    for (j, lit) in lits.iter().enumerate() {
                        decl.text(if j == 0 { "" } else { " | " });
                        decl.copy(lit.range.clone());
                    }
                    decl.text(format!(" => {ty}::V{i}, "));
                    out.text(format!("{ty}::V{i} => "));
                    out.copy(arm.body.clone());
                }
                ArmKind::CatchAll(binding) => {
                    out.text(format!("{ty}::Other => "));
                    match binding {
                        Some(_) => out.block(arm, binding.as_deref(), &var),
                        None => out.copy(arm.body.clone()),
                    }
                }
            }
            out.text(",");
        }
        decl.text(format!("_ => {ty}::Other }} }}"));
        out.copy(Self::gap_before(site, site.arms.len()));
        out.text(format!("}} {close}"));
        let chunks = out.chunks;
        if self.rewriter.replace(self.path, site.whole.clone(), chunks) {
            self.declare(&site.anchor, vec![enum_item, decl.chunks]);
        }
    }

    /// Inserts items before the anchor's item, each with its `cfg` and `allow` attributes.
    fn declare(&mut self, anchor: &Anchor, items: Vec<Vec<Chunk>>) -> bool {
        let mut chunks = Vec::new();
        for item in items {
            for attr in &anchor.attrs {
                chunks.push(Chunk::copy(self.path, attr.clone()));
                chunks.push(Chunk::text(" "));
            }
            chunks.extend(item);
            chunks.push(Chunk::text(anchor.separator.clone()));
        }
        self.rewriter.insert(self.path, anchor.at, chunks)
    }

    fn consts(&mut self, sites: &[Site]) {
        // One const per literal, module and attributes (a const of a `#[cfg]` item is not
        // there for another item).
        let mut declared: BTreeMap<(usize, String, String), String> = BTreeMap::new();
        for site in sites {
            let attrs: String = site
                .anchor
                .attrs
                .iter()
                .filter_map(|r| self.text.get(r.clone()))
                .collect();
            for arm in &site.arms {
                let ArmKind::Strings(lits) = &arm.kind else {
                    continue;
                };
                for lit in lits {
                    let key = (site.anchor.module, attrs.clone(), lit.value.clone());
                    let name = match declared.get(&key) {
                        Some(name) => name.clone(),
                        None => {
                            let name = self.names.fresh("MM_K");
                            let decl = vec![
                                Chunk::text(format!("const {name}: &str = ")),
                                Chunk::copy(self.path, lit.range.clone()),
                                Chunk::text(";"),
                            ];
                            if !self.declare(&site.anchor, vec![decl]) {
                                continue;
                            }
                            declared.insert(key, name.clone());
                            name
                        }
                    };
                    self.rewriter
                        .replace_text(self.path, lit.range.clone(), name);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod tests;
