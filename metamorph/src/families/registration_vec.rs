//! `registration_vec`: a map filled by inserts right after it is made, and then only read by
//! `get`, becomes a vector of entries searched by key:
//! `let mut m: HashMap<&str, V> = HashMap::new(); m.insert(k, v); .. m.get(e)` →
//! `let m: Vec<MmEntry<&str, V>> = vec![MmEntry { key: k, handler: v }, ..]; ..
//! { let mm_k: &str = AsRef::<str>::as_ref(e); m.iter().find(|mm_e| mm_e.key == mm_k)
//! .map(|mm_e| &mm_e.handler) }`.
//!
//! The keys are distinct (a run with a repeated key is skipped), so the search finds what
//! `get` found, an `Option<&V>` borrowing the same registry. The key type must be spelled
//! `&str`, so that comparing as `str` is what hashing compared; `e` is a place, a literal or
//! `&`/`.as_str()` of a place, so that it is still evaluated once and borrows nothing
//! temporary; and every later mention of the map in its block is such a `get`.

use syn::visit::Visit;

use super::entries::is_str_ref;
use super::{Edits, Run, Site, let_and_rest, mentions_in};
use crate::edit::Chunk;

/// The edits that turn `run` (in the block of `stmts`) and its lookups into a vector.
pub(super) fn vec_edits(
    site: &Site<'_>,
    stmts: &[syn::Stmt],
    run: &Run<'_>,
    file: &str,
) -> Option<Edits> {
    let (Some(key_ty), Some(value_ty)) = site.slot_types(run)? else {
        return None;
    };
    if !is_str_ref(key_ty, site.index) {
        return None;
    }
    let parsed = site.parsed;
    let (at, rest) = let_and_rest(site, stmts, run)?;
    let lookups = lookups(rest, &run.map)?;
    // The entries as the `insert`s made them: keys and values cast where the array needs it
    // (`Site::chunks` checks the keys are distinct; its chunks are not used).
    site.chunks(run, file)?;
    // Named after where the run starts: unique in its file, whatever else is rewritten.
    let entry = format!("MmEntry{}", run.range.start);
    let mut chunks = vec![Chunk::text(format!(
        "struct {entry}<K, V> {{ key: K, handler: V }}\n{}let {}: Vec<{entry}<",
        run.indent, run.map
    ))];
    chunks.push(Chunk::copy(file, parsed.node(key_ty)));
    chunks.push(Chunk::text(", "));
    chunks.push(Chunk::copy(file, parsed.node(value_ty)));
    chunks.push(Chunk::text(">> = vec![\n"));
    for (k, v) in &run.entries {
        chunks.push(Chunk::text(format!("{}    {entry} {{ key: ", run.indent)));
        chunks.extend(site.entry_part(k, Some(key_ty), file)?);
        chunks.push(Chunk::text(", handler: "));
        chunks.extend(site.entry_part(v, Some(value_ty), file)?);
        chunks.push(Chunk::text(" },\n"));
    }
    chunks.push(Chunk::text(format!("{}];", run.indent)));
    let mut edits = vec![(parsed.node(&stmts[at]).start..run.range.end, chunks)];
    for call in lookups {
        let key = call.args.first()?;
        edits.push((
            parsed.node(call),
            vec![
                Chunk::text("{ let mm_k: &str = ::core::convert::AsRef::<str>::as_ref("),
                Chunk::copy(file, parsed.node(key)),
                Chunk::text(format!(
                    "); {}.iter().find(|mm_e| mm_e.key == mm_k).map(|mm_e| &mm_e.handler) }}",
                    run.map
                )),
            ],
        ));
    }
    Some(edits)
}

/// The `map.get(key)` calls in `rest`, when they are every mention of `map` there and each
/// key is a place, a literal or `&`/`.as_str()` of one; `None` otherwise, or when there is
/// none.
fn lookups<'a>(rest: &'a [syn::Stmt], map: &str) -> Option<Vec<&'a syn::ExprMethodCall>> {
    let mut gets = Gets {
        map,
        found: Vec::new(),
    };
    for stmt in rest {
        gets.visit_stmt(stmt);
    }
    let mentions = mentions_in(rest, map);
    let simple = gets
        .found
        .iter()
        .all(|c| c.args.first().is_some_and(is_place));
    (simple && !gets.found.is_empty() && gets.found.len() == mentions).then_some(gets.found)
}

struct Gets<'m, 'a> {
    map: &'m str,
    found: Vec<&'a syn::ExprMethodCall>,
}

impl<'a> Visit<'a> for Gets<'_, 'a> {
    fn visit_expr_method_call(&mut self, call: &'a syn::ExprMethodCall) {
        let on_map = matches!(&*call.receiver, syn::Expr::Path(p)
            if p.qself.is_none() && p.path.is_ident(self.map) && p.attrs.is_empty());
        if on_map && call.method == "get" && call.args.len() == 1 && call.turbofish.is_none() {
            self.found.push(call);
        }
        syn::visit::visit_expr_method_call(self, call);
    }
}

/// A path, a field of one, a string literal, `.as_str()` of a place, or `&` or `*` of a path
/// or field (`&` of a call's value would borrow a temporary).
fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.qself.is_none(),
        syn::Expr::Lit(l) => matches!(l.lit, syn::Lit::Str(_)),
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Reference(r) => {
            r.mutability.is_none() && matches!(&*r.expr, syn::Expr::Path(_) | syn::Expr::Field(_))
        }
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && is_place(&u.expr),
        syn::Expr::Paren(p) => is_place(&p.expr),
        syn::Expr::MethodCall(m) => {
            m.method == "as_str" && m.args.is_empty() && is_place(&m.receiver)
        }
        _ => false,
    }
}
