//! `registration_boxed`: a map of fn pointers filled by inserts right after it is made, and
//! then only read by `get` whose found value is only called, holds boxed closures instead:
//! `let mut m: HashMap<K, fn(A) -> R> = ..; m.insert(k, f);` →
//! `let mut m: HashMap<K, Box<dyn Fn(A) -> R>> = ..; m.insert(k, Box::new(f));`.
//!
//! A `&Box<dyn Fn(A) -> R>` is called as the `&fn(A) -> R` was, so a lookup whose value is
//! bound by `Some(f)` (in a `match` or an `if let`) and only called (`f(x)`) answers the same.
//! The pointer type must be spelled in the `let` (no lifetimes, no `unsafe` or `extern`), and
//! a value a fn path or a closure whose parameters are typed or that a boxed `Fn` can type.

use syn::visit::Visit;

use super::{Edits, Run, Site, let_and_rest, map_args, mentions_in};
use crate::edit::Chunk;
use crate::families::fns::TypeFacts;
use crate::syntax;

pub(super) fn boxed_edits(site: &Site<'_>, stmts: &[syn::Stmt], run: &Run<'_>) -> Option<Edits> {
    let parsed = site.parsed;
    let annotation = run.annotation?;
    let value_ty = *map_args(annotation)?.get(1)?;
    let syn::Type::BareFn(f) = value_ty else {
        return None;
    };
    let plain =
        f.lifetimes.is_none() && f.unsafety.is_none() && f.abi.is_none() && f.variadic.is_none();
    let named = f.inputs.iter().any(|a| a.name.is_some());
    if !plain || named || TypeFacts::of(value_ty).named_lifetime {
        return None;
    }
    let (_, rest) = let_and_rest(site, stmts, run)?;
    if !only_called_lookups(rest, &run.map) {
        return None;
    }
    for (_, v) in &run.entries {
        if !boxable(v) {
            return None;
        }
    }
    // `fn(A) -> R` → `Box<dyn Fn(A) -> R>`: the `fn` token becomes `dyn Fn`.
    let ty = parsed.node(value_ty);
    let after_fn = parsed.node(&f.fn_token).end;
    let mut edits: Edits = vec![(ty.start..after_fn, vec![Chunk::text("Box<dyn Fn")])];
    edits.push((ty.end..ty.end, vec![Chunk::text(">")]));
    for (_, v) in &run.entries {
        let r = parsed.node(*v);
        edits.push((r.start..r.start, vec![Chunk::text("Box::new(")]));
        edits.push((r.end..r.end, vec![Chunk::text(")")]));
    }
    Some(edits)
}

/// A fn path, or a closure that is not `async` (a boxed `Fn` holds and types it).
fn boxable(v: &syn::Expr) -> bool {
    match v {
        syn::Expr::Path(p) => {
            p.qself.is_none() && p.path.segments.iter().all(|s| s.arguments.is_none())
        }
        syn::Expr::Closure(c) => c.asyncness.is_none() && c.constness.is_none(),
        _ => false,
    }
}

/// Whether every mention of `map` in `rest` is `map.get(..)` as the scrutinee of a `match`
/// or an `if let` whose `Some(f)` binding is only called.
fn only_called_lookups(rest: &[syn::Stmt], map: &str) -> bool {
    let mut lookups = Lookups {
        map,
        ok: 0,
        bad: false,
    };
    for stmt in rest {
        lookups.visit_stmt(stmt);
    }
    !lookups.bad && lookups.ok > 0 && lookups.ok == mentions_in(rest, map)
}

struct Lookups<'m> {
    map: &'m str,
    ok: usize,
    bad: bool,
}

impl Lookups<'_> {
    fn is_get(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::MethodCall(m) if m.method == "get" && m.args.len() == 1
            && matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident(self.map)))
    }

    /// `Some(f) => body`: `f` bound by name, and only called in `body`.
    fn called_binding(pat: &syn::Pat, body: &syn::Expr) -> bool {
        let syn::Pat::TupleStruct(ts) = pat else {
            return false;
        };
        let [syn::Pat::Ident(id)] = ts.elems.iter().collect::<Vec<_>>()[..] else {
            return false;
        };
        if !ts.path.is_ident("Some") || id.subpat.is_some() || id.by_ref.is_some() {
            return false;
        }
        let name = id.ident.to_string();
        let mut calls = Calls {
            name: &name,
            called: 0,
        };
        calls.visit_expr(body);
        let mut idents = Vec::new();
        syntax::idents(&quote::ToTokens::to_token_stream(body), &mut idents);
        calls.called == idents.iter().filter(|i| i.ident == name).count()
    }
}

impl<'a> Visit<'a> for Lookups<'_> {
    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        if self.is_get(&m.expr) {
            let some = m
                .arms
                .iter()
                .filter(|a| matches!(a.pat, syn::Pat::TupleStruct(_)));
            if some.clone().all(|a| Self::called_binding(&a.pat, &a.body)) {
                self.ok += 1;
            } else {
                self.bad = true;
            }
            for arm in &m.arms {
                self.visit_arm(arm);
            }
            return;
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        if let syn::Expr::Let(l) = &*i.cond
            && self.is_get(&l.expr)
        {
            let body = syn::Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block: i.then_branch.clone(),
            });
            if Self::called_binding(&l.pat, &body) {
                self.ok += 1;
            } else {
                self.bad = true;
            }
            self.visit_block(&i.then_branch);
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
            return;
        }
        syn::visit::visit_expr_if(self, i);
    }
}

/// Counts the calls `name(..)`.
struct Calls<'n> {
    name: &'n str,
    called: usize,
}

impl<'a> Visit<'a> for Calls<'_> {
    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if matches!(&*c.func, syn::Expr::Path(p) if p.path.is_ident(self.name)) {
            self.called += 1;
        }
        syn::visit::visit_expr_call(self, c);
    }
}
