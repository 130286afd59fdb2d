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

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::tree::Tree;

#[path = "dispatch_sites.rs"]
mod sites;
use sites::{Anchor, Arm, ArmKind, Site, Wrap, find_sites, outermost};

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
    for (path, text, parsed) in crate::syntax::parsed_files(tree) {
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
