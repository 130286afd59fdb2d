//! Two families that spell a two-way branch another way.
//!
//! `match_if_let`: `if let P = E { A } else { B }` becomes `match E { P => { A }, _ => { B } }`,
//! and a two-arm `match E { P => A, _ => B }` (the second arm `_`, `None` after `Some(..)` or
//! `Err(_)` after `Ok(..)`, no guards) becomes `if let P = E { A } else { B }`.
//!
//! `let_else`: `let x = match E { Ok(v) => v, Err(_) => DIVERGE };` (or `Some`/`None`, either
//! order, `_`, or `Err(e)` when `DIVERGE` does not mention `e`) becomes
//! `let Ok(x) = E else { DIVERGE };`, and `let Ok(x) = E else { .. };` becomes
//! `let x = match E { Ok(x) => x, _ => { .. } };`. `DIVERGE` is `return`, `break`, `continue`,
//! `panic!`/`unreachable!`, or a block that ends in one (checked on the syntax).
//!
//! The edits touch only the glue (keywords, arm patterns, commas, braces), so `A`, `B`, `E` keep
//! their bytes and sites nested in them are rewritten too. An arm that is a block becomes the
//! `if`'s block itself, and a scrutinee gets parentheses only where it would not parse back
//! without them: neither draws a warning a `#![deny(warnings)]` server would fail on. Skipped:
//! guards, arm attributes, irrefutable patterns, an `else if let` after a plain `if` (it cannot
//! become `else match`), `mut` bindings a reference scrutinee would bind otherwise (only a call's
//! result may be bound `mut` in a new `let .. else`; none goes into a new match arm).
//!
//! Both forms run the same code, but they drop the scrutinee's temporaries at different points
//! (edition 2024's `if let` drops them before `else`; `match` keeps them to its end). That is
//! seen only through a `Drop` with effects: a site is skipped when `E` calls a lock or borrow
//! method (`lock`, `borrow_mut`, ...) or awaits, and, when the tree implements `Drop` itself,
//! when `E` calls anything at all.

use std::collections::BTreeMap;
use std::ops::Range;

use syn::visit::Visit;

use super::Family;
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::syntax::Parsed;
use crate::tree::Tree;
use checks::{
    Slot, binds_nothing_after, irrefutable, needs_parens, overlaps, plain_block, scrutinee_is_safe,
    value_and_diverging_arm,
};

#[path = "control_checks.rs"]
mod checks;

pub struct MatchIfLet;
pub struct LetElse;

impl Family for MatchIfLet {
    fn name(&self) -> &'static str {
        "match_if_let"
    }

    fn about(&self) -> &'static str {
        "`if let .. else` as a two-arm `match`, and a two-arm `match` as `if let .. else`"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_files(tree, Kind::MatchIfLet)
    }
}

impl Family for LetElse {
    fn name(&self) -> &'static str {
        "let_else"
    }

    fn about(&self) -> &'static str {
        "`let x = match E { Ok(v) => v, _ => return .. }` as `let .. else`, and back"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_files(tree, Kind::LetElse)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    MatchIfLet,
    LetElse,
}

fn rewrite_files(tree: &Tree, kind: Kind) -> Rewrite {
    // A `Drop` of the tree's own may have effects the order of drops shows.
    let has_drop = tree.rust_files().any(|(_, text)| text.contains("Drop for"));
    let mut rewriter = Rewriter::new(tree);
    for (path, _, parsed) in crate::syntax::parsed_files(tree) {
        let mut sites = Sites {
            path,
            parsed: &parsed,
            rewriter: &mut rewriter,
            has_drop,
            kind,
            taken: Vec::new(),
            else_ifs: BTreeMap::new(),
        };
        sites.visit_file(&parsed.ast);
    }
    rewriter.finish()
}

struct Sites<'a, 'r, 't> {
    path: &'a str,
    parsed: &'a Parsed,
    rewriter: &'r mut Rewriter<'t>,
    has_drop: bool,
    kind: Kind,
    /// The ranges this family edited in the file.
    taken: Vec<Range<usize>>,
    /// Where an `if` in `else` position starts, and whether its parent became a `match`.
    else_ifs: BTreeMap<usize, bool>,
}

impl Sites<'_, '_, '_> {
    fn node<T: syn::spanned::Spanned>(&self, node: &T) -> Range<usize> {
        self.parsed.node(node)
    }

    /// All the edits of one site, or none: a site whose glue clashes with another site's is
    /// left as it is (half of a site's edits would not parse).
    fn edits(&mut self, edits: Vec<(Range<usize>, Vec<Chunk>)>) -> bool {
        let clash = edits
            .iter()
            .any(|(r, _)| self.taken.iter().any(|t| overlaps(t, r)));
        if clash {
            return false;
        }
        for (range, chunks) in edits {
            self.taken.push(range.clone());
            self.rewriter.replace(self.path, range, chunks);
        }
        true
    }

    fn copy<T: syn::spanned::Spanned>(&self, node: &T) -> Chunk {
        Chunk::copy(self.path, self.node(node))
    }
}

impl<'ast> Visit<'ast> for Sites<'_, '_, '_> {
    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        if self.kind == Kind::MatchIfLet {
            // `else if let` may become `else match` only where the `else` became `_ =>`.
            let allowed = self.else_ifs.get(&self.node(e).start) != Some(&false);
            let converted = allowed && self.if_let_to_match(e);
            if let Some((_, else_branch)) = &e.else_branch
                && let syn::Expr::If(inner) = &**else_branch
            {
                self.else_ifs.insert(self.node(inner).start, converted);
            }
        }
        syn::visit::visit_expr_if(self, e);
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        if self.kind == Kind::MatchIfLet {
            self.match_to_if_let(e);
        }
        syn::visit::visit_expr_match(self, e);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if self.kind == Kind::LetElse {
            if local.init.as_ref().is_some_and(|i| i.diverge.is_some()) {
                self.let_else_to_match(local);
            } else {
                self.match_to_let_else(local);
            }
        }
        syn::visit::visit_local(self, local);
    }
}

impl Sites<'_, '_, '_> {
    /// `if let P = E { A } else B` → `match E { P => { A }, _ => B }`.
    fn if_let_to_match(&mut self, e: &syn::ExprIf) -> bool {
        let syn::Expr::Let(cond) = &*e.cond else {
            return false;
        };
        let Some((else_token, else_branch)) = &e.else_branch else {
            return false;
        };
        if !e.attrs.is_empty()
            || !cond.attrs.is_empty()
            || irrefutable(&cond.pat)
            || !scrutinee_is_safe(&cond.expr, self.has_drop)
        {
            return false;
        }
        let start = self.node(e).start;
        let scrutinee = self.node(&*cond.expr);
        let then_end = self.node(&e.then_branch).end;
        let arm = vec![
            Chunk::text(" { "),
            self.copy(&*cond.pat),
            Chunk::text(" =>"),
        ];
        self.edits(vec![
            (start..scrutinee.start, vec![Chunk::text("match ")]),
            (scrutinee.end..scrutinee.end, arm),
            (then_end..then_end, vec![Chunk::text(",")]),
            (
                self.parsed.range(else_token.span),
                vec![Chunk::text("_ =>")],
            ),
            (
                self.node(&**else_branch).end..self.node(&**else_branch).end,
                vec![Chunk::text(" }")],
            ),
        ])
    }

    /// `match E { P => A, _ => B }` → `if let P = E { A } else { B }`.
    fn match_to_if_let(&mut self, e: &syn::ExprMatch) {
        let [first, second] = e.arms.as_slice() else {
            return;
        };
        let plain = |arm: &syn::Arm| arm.attrs.is_empty() && arm.guard.is_none();
        if !e.attrs.is_empty()
            || !plain(first)
            || !plain(second)
            || irrefutable(&first.pat)
            || matches!(&first.pat, syn::Pat::Or(o) if o.leading_vert.is_some())
            || !binds_nothing_after(&first.pat, &second.pat)
            || !scrutinee_is_safe(&e.expr, self.has_drop)
        {
            return;
        }
        let scrutinee = self.node(&*e.expr);
        let parens = needs_parens(&e.expr, Slot::IfLet);
        let head = vec![
            Chunk::text("if let "),
            self.copy(&first.pat),
            Chunk::text(if parens { " = (" } else { " = " }),
        ];
        let mut edits = vec![(self.node(e).start..scrutinee.start, head)];
        let close = if parens { ")" } else { "" };
        let (a, b) = (self.node(&*first.body), self.node(&*second.body));
        let arrow = |arm: &syn::Arm| self.parsed.range(arm.fat_arrow_token.spans[1]).end;
        let comma = |arm: &syn::Arm| arm.comma.map(|c| (self.parsed.range(c.span), vec![]));
        // A block arm is the `if`'s block itself (`{ { a } }` would draw `unused_braces`); the
        // match's own braces hold an arm that is not a block.
        let (a_block, b_block) = (plain_block(&first.body), plain_block(&second.body));
        if a_block {
            edits.push((
                scrutinee.end..a.start,
                vec![Chunk::text(format!("{close} "))],
            ));
        } else {
            if parens {
                edits.push((scrutinee.end..scrutinee.end, vec![Chunk::text(close)]));
            }
            edits.push((self.node(&first.pat).start..arrow(first), vec![]));
        }
        let middle = match (a_block, b_block) {
            (true, true) => (a.end..b.start, " else "),
            (true, false) => (a.end..arrow(second), " else {"),
            (false, true) => (a.end..b.start, " } else "),
            (false, false) => {
                edits.extend(comma(first));
                (self.node(&second.pat).start..arrow(second), "} else {")
            }
        };
        edits.push((middle.0, vec![Chunk::text(middle.1)]));
        if b_block {
            edits.push((b.end..self.node(e).end, vec![]));
        } else {
            edits.extend(comma(second));
        }
        self.edits(edits);
    }

    /// `let x = match E { Ok(v) => v, Err(_) => D };` → `let Ok(x) = E else { D };`.
    fn match_to_let_else(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            return;
        };
        let syn::Expr::Match(m) = &*init.expr else {
            return;
        };
        let syn::Pat::Ident(binding) = &local.pat else {
            return;
        };
        let Some((value, diverge)) = value_and_diverging_arm(m) else {
            return;
        };
        // `mut` on the new pattern would move out of a reference where the match bound by
        // reference; a call's result is a value, not a reference to one we could see.
        let call = matches!(&*m.expr, syn::Expr::Call(_) | syn::Expr::MethodCall(_));
        if binding.by_ref.is_some()
            || binding.subpat.is_some()
            || (binding.mutability.is_some() && !call)
            || !m.attrs.is_empty()
            || !scrutinee_is_safe(&m.expr, self.has_drop)
        {
            return;
        }
        let syn::Pat::TupleStruct(value_pat) = &value.pat else {
            return;
        };
        let scrutinee = self.node(&*m.expr);
        let parens = needs_parens(&m.expr, Slot::LetElse);
        let pattern = vec![
            self.copy(&value_pat.path),
            Chunk::text("("),
            self.copy(&local.pat),
            Chunk::text(")"),
        ];
        let open = if parens { "(" } else { "" };
        let mut edits = vec![
            (self.node(&local.pat), pattern),
            (self.node(m).start..scrutinee.start, vec![Chunk::text(open)]),
        ];
        let close = if parens { ")" } else { "" };
        let body = self.node(&*diverge.body);
        if plain_block(&diverge.body) {
            // The block is the else-block; the value arm goes with the glue around it.
            edits.push((
                scrutinee.end..body.start,
                vec![Chunk::text(format!("{close} else "))],
            ));
            edits.push((body.end..self.node(m).end, vec![]));
        } else {
            // The match's braces become the else-block's.
            let brace = self.parsed.range(m.brace_token.span.open()).end;
            edits.push((
                scrutinee.end..brace,
                vec![Chunk::text(format!("{close} else {{"))],
            ));
            edits.push((self.node(value), vec![]));
            let arrow = self.parsed.range(diverge.fat_arrow_token.spans[1]).end;
            edits.push((self.node(&diverge.pat).start..arrow, vec![]));
            if let Some(comma) = &diverge.comma {
                edits.push((self.parsed.range(comma.span), vec![]));
            }
        }
        self.edits(edits);
    }

    /// `let Ok(x) = E else { D };` → `let x = match E { Ok(x) => x, _ => { D } };`.
    fn let_else_to_match(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            return;
        };
        let Some((else_token, diverge)) = &init.diverge else {
            return;
        };
        let syn::Pat::TupleStruct(pat) = &local.pat else {
            return;
        };
        let is_variant = pat.path.is_ident("Ok") || pat.path.is_ident("Some");
        let [syn::Pat::Ident(binding)] = pat.elems.iter().collect::<Vec<_>>().as_slice() else {
            return;
        };
        // `Some(mut v) => v` would draw `unused_mut`, and `Some(v)` binds by reference where
        // `mut` bound by value (edition 2021, a reference scrutinee): `mut` is left alone.
        if !is_variant
            || binding.by_ref.is_some()
            || binding.mutability.is_some()
            || binding.subpat.is_some()
            || !scrutinee_is_safe(&init.expr, self.has_drop)
        {
            return;
        }
        let scrutinee = self.node(&*init.expr);
        let parens = needs_parens(&init.expr, Slot::Match);
        let else_end = self.parsed.range(else_token.span).end;
        let diverge_end = self.node(&**diverge).end;
        self.edits(vec![
            (self.node(&local.pat), vec![self.copy(binding)]),
            (
                scrutinee.start..scrutinee.start,
                vec![Chunk::text(if parens { "match (" } else { "match " })],
            ),
            (
                scrutinee.end..else_end,
                vec![
                    Chunk::text(if parens { ") { " } else { " { " }),
                    self.copy(pat),
                    Chunk::text(format!(" => {}, _ =>", binding.ident)),
                ],
            ),
            (diverge_end..diverge_end, vec![Chunk::text(" }")]),
        ]);
    }
}

#[cfg(test)]
#[path = "control_tests.rs"]
mod tests;
