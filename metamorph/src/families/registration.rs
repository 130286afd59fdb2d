//! Registries spelled another way.
//!
//! `registration_from_array` and `registration_collect`: a map made empty and filled by inserts
//! right after (`let mut m = HashMap::new(); m.insert(k, v); ..`) is made from an array of its
//! entries (`HashMap::from([(k, v), ..])`, `[(k, v), ..].into_iter().collect()`). Each key and
//! value is evaluated in the same order, and a later duplicate key wins as with `insert`.
//! Inside an array, tuples do not coerce: a value that relied on `insert`'s expected type (a fn
//! item or closure becoming a fn pointer, a box becoming `Box<dyn ..>`) gets an `as V` cast to
//! the value type the `let` spells; without that type such a site is skipped.
//!
//! `registration_fn_cast`: `m.insert(k, f)` with a fn of the same module becomes
//! `m.insert(k, f as fn(A) -> R)`, the pointer type spelled from `f`'s signature.
//!
//! `registration_vec` (`registration_vec.rs`): such a map read only by `get` becomes a vector
//! of entries searched by key. `registration_boxed` (`registration_boxed.rs`): such a map of fn
//! pointers whose found values are only called holds `Box<dyn Fn>` instead.

use std::ops::Range;

use syn::visit::Visit;

use self::entries::{Kind, is_str_ref, kind, mentions, needs_parens};
use super::Family;
use super::fns::{Index, TypeFacts, text};
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct RegistrationFromArray;
pub struct RegistrationCollect;
pub struct RegistrationFnCast;
pub struct RegistrationVec;
pub struct RegistrationBoxed;

impl Family for RegistrationFromArray {
    fn name(&self) -> &'static str {
        "registration_from_array"
    }

    fn about(&self) -> &'static str {
        "a map filled by inserts right after it is made is built by `HashMap::from([..])`"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_runs(tree, Form::FromArray)
    }
}

impl Family for RegistrationCollect {
    fn name(&self) -> &'static str {
        "registration_collect"
    }

    fn about(&self) -> &'static str {
        "a map filled by inserts right after it is made is collected from an array of entries"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_runs(tree, Form::Collect)
    }
}

impl Family for RegistrationFnCast {
    fn name(&self) -> &'static str {
        "registration_fn_cast"
    }

    fn about(&self) -> &'static str {
        "a fn inserted in a map is cast to the fn pointer type of its signature"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        cast::rewrite_fn_casts(tree)
    }
}

impl Family for RegistrationVec {
    fn name(&self) -> &'static str {
        "registration_vec"
    }

    fn about(&self) -> &'static str {
        "a map filled by inserts and read by `get` becomes a vector of entries searched by key"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_each_run(tree, Form::FromArray, vec_form::vec_edits)
    }
}

impl Family for RegistrationBoxed {
    fn name(&self) -> &'static str {
        "registration_boxed"
    }

    fn about(&self) -> &'static str {
        "a map of fn pointers whose found values are only called holds `Box<dyn Fn>` instead"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_each_run(tree, Form::FromArray, |site, stmts, run, _| {
            boxed::boxed_edits(site, stmts, run)
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    FromArray,
    Collect,
}

fn rewrite_runs(tree: &Tree, form: Form) -> Rewrite {
    rewrite_each_run(tree, form, |site, _, run, path| {
        // Before edition 2021, `array.into_iter()` iterates over references.
        if form == Form::Collect && !edition_2021(tree, path) {
            return None;
        }
        Some(vec![(run.range.clone(), site.chunks(run, path)?)])
    })
}

/// Edits to apply: byte ranges of one file and what replaces each.
type Edits = Vec<(Range<usize>, Vec<Chunk>)>;

/// The edits `each` makes of every registration run of the tree, given the run's file, its
/// block's statements and the site it is read in.
fn rewrite_each_run(
    tree: &Tree,
    form: Form,
    each: impl Fn(&Site<'_>, &[syn::Stmt], &Run<'_>, &str) -> Option<Edits>,
) -> Rewrite {
    let index = Index::of(tree);
    let mut rewriter = Rewriter::new(tree);
    for (path, text) in tree.rust_files() {
        let Some(parsed) = Parsed::new(text) else {
            continue;
        };
        let mut blocks = Blocks(Vec::new());
        blocks.visit_file(&parsed.ast);
        let site = Site {
            index: &index,
            parsed: &parsed,
            text,
            form,
        };
        for block in blocks.0 {
            for run in runs(&block.stmts, &site, path) {
                for (range, chunks) in each(&site, &block.stmts, &run, path).unwrap_or_default() {
                    rewriter.replace(path, range, chunks);
                }
            }
        }
    }
    rewriter.finish()
}

/// The index of the `let` that starts `run` in `stmts`, and the statements after the run.
fn let_and_rest<'s>(
    site: &Site<'_>,
    stmts: &'s [syn::Stmt],
    run: &Run<'_>,
) -> Option<(usize, &'s [syn::Stmt])> {
    let at = stmts.iter().position(|s| {
        let node = site.parsed.node(s);
        node.start <= run.range.start && run.range.start < node.end
    })?;
    Some((at, stmts.get(at + 1 + run.entries.len()..)?))
}

/// How many times the identifier `name` occurs in `stmts`, macro arguments included.
fn mentions_in(stmts: &[syn::Stmt], name: &str) -> usize {
    stmts
        .iter()
        .map(|stmt| {
            let mut idents = Vec::new();
            crate::syntax::idents(&quote::ToTokens::to_token_stream(stmt), &mut idents);
            idents.iter().filter(|i| i.ident == name).count()
        })
        .sum()
}

struct Blocks<'ast>(Vec<&'ast syn::Block>);

impl<'ast> Visit<'ast> for Blocks<'ast> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.0.push(b);
        syn::visit::visit_block(self, b);
    }
}

/// `let mut m[: T] = HashMap::new();` and the inserts into `m` right after it.
struct Run<'a> {
    map: String,
    annotation: Option<&'a syn::Type>,
    ctor: &'a syn::Path,
    /// From the constructor call to the last insert's `;`.
    range: Range<usize>,
    indent: String,
    entries: Vec<(&'a syn::Expr, &'a syn::Expr)>,
}

struct Site<'a> {
    index: &'a Index,
    parsed: &'a Parsed,
    text: &'a str,
    form: Form,
}

fn runs<'a>(stmts: &'a [syn::Stmt], site: &Site<'_>, file: &str) -> Vec<Run<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < stmts.len() {
        let found =
            map_let(&stmts[i], site.index, file).and_then(|(map, annotation, call, ctor)| {
                let entries: Vec<_> = stmts[i + 1..]
                    .iter()
                    .map_while(|s| insert_into(s, &map))
                    .collect();
                let last = stmts.get(i + entries.len())?;
                let start = site.parsed.node(&stmts[i]).start;
                let line = site.text[..start].rfind('\n').map_or(0, |n| n + 1);
                let indent = &site.text[line..start];
                (entries.len() >= 2).then(|| Run {
                    map,
                    annotation,
                    ctor,
                    range: site.parsed.node(call).start..site.parsed.node(last).end,
                    indent: if indent.trim().is_empty() {
                        indent.to_string()
                    } else {
                        String::new()
                    },
                    entries,
                })
            });
        match found {
            Some(run) => {
                i += 1 + run.entries.len();
                out.push(run);
            }
            None => i += 1,
        }
    }
    out
}

/// `let mut m[: T] = <std map>::new();`: the map's name, its annotation, the call, its path.
fn map_let<'a>(
    stmt: &'a syn::Stmt,
    index: &Index,
    file: &str,
) -> Option<(
    String,
    Option<&'a syn::Type>,
    &'a syn::ExprCall,
    &'a syn::Path,
)> {
    let syn::Stmt::Local(local) = stmt else {
        return None;
    };
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let (pat, annotation) = match &local.pat {
        syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
        p => (p, None),
    };
    let syn::Pat::Ident(id) = pat else {
        return None;
    };
    if id.mutability.is_none() || id.by_ref.is_some() || id.subpat.is_some() {
        return None;
    }
    let syn::Expr::Call(call) = &*init.expr else {
        return None;
    };
    let syn::Expr::Path(p) = &*call.func else {
        return None;
    };
    (p.qself.is_none() && std_map_ctor(&p.path, call, index, file))
        .then(|| (id.ident.to_string(), annotation, call, &p.path))
}

/// `HashMap::new()`, `HashMap::with_capacity(n)`, `BTreeMap::new()`, `HashMap::<K, V>::new()`,
/// `std::collections::HashMap::new()`: std's maps only (another crate's `HashMap` may lack
/// `From<[(K, V); N]>` or order entries otherwise).
fn std_map_ctor(path: &syn::Path, call: &syn::ExprCall, index: &Index, file: &str) -> bool {
    let segs: Vec<&syn::PathSegment> = path.segments.iter().collect();
    let Some((last, before)) = segs.split_last() else {
        return false;
    };
    let Some((map, prefix)) = before.split_last() else {
        return false;
    };
    let map_name = map.ident.to_string();
    let ctor_ok = last.arguments.is_none()
        && match (last.ident.to_string().as_str(), call.args.len()) {
            ("new", 0) => map_name == "HashMap" || map_name == "BTreeMap",
            // The capacity is dropped: only one without effects.
            ("with_capacity", 1) => {
                map_name == "HashMap"
                    && matches!(call.args[0], syn::Expr::Lit(_) | syn::Expr::Path(_))
            }
            _ => false,
        };
    let map_args_ok = match &map.arguments {
        syn::PathArguments::None => true,
        syn::PathArguments::AngleBracketed(a) => a.args.len() <= 2,
        syn::PathArguments::Parenthesized(_) => false,
    };
    if !ctor_ok || !map_args_ok || prefix.iter().any(|s| !s.arguments.is_none()) {
        return false;
    }
    let prefix: Vec<String> = prefix.iter().map(|s| s.ident.to_string()).collect();
    match prefix
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => index.std_name(file, &map_name, &["std", "collections"]),
        ["std", "collections"] | ["std", "collections", "hash_map" | "btree_map"] => true,
        [m @ ("collections" | "hash_map" | "btree_map")] => index.std_name(file, m, &["std"]),
        _ => false,
    }
}

/// `m.insert(k, v);` → `(k, v)`.
fn insert_into<'a>(stmt: &'a syn::Stmt, map: &str) -> Option<(&'a syn::Expr, &'a syn::Expr)> {
    let syn::Stmt::Expr(syn::Expr::MethodCall(call), Some(_)) = stmt else {
        return None;
    };
    let syn::Expr::Path(receiver) = &*call.receiver else {
        return None;
    };
    let is_map = receiver.path.is_ident(map) && receiver.attrs.is_empty();
    let ok = is_map && call.attrs.is_empty() && call.method == "insert" && call.turbofish.is_none();
    match (ok, call.args.first(), call.args.get(1), call.args.len()) {
        (true, Some(k), Some(v), 2) => Some((k, v)),
        _ => None,
    }
}

impl Site<'_> {
    fn chunks(&self, run: &Run<'_>, file: &str) -> Option<Vec<Chunk>> {
        let (key_ty, value_ty) = self.slot_types(run)?;
        let mut keys = Vec::new();
        for (k, v) in &run.entries {
            // The entries are evaluated before the map exists.
            if mentions(k, &run.map) || mentions(v, &run.map) {
                return None;
            }
            keys.push(text(*k));
        }
        keys.sort();
        keys.dedup();
        // Equal keys: which key object is kept could differ; a registry has none anyway.
        if keys.len() != run.entries.len() {
            return None;
        }
        let ctor = self.parsed.node(run.ctor);
        let mut chunks = match self.form {
            Form::FromArray => {
                let name_at = self
                    .parsed
                    .range(run.ctor.segments.last()?.ident.span())
                    .start;
                vec![
                    Chunk::copy(file, ctor.start..name_at),
                    Chunk::text("from([\n"),
                ]
            }
            Form::Collect => vec![Chunk::text("[\n")],
        };
        for (k, v) in &run.entries {
            chunks.push(Chunk::text(format!("{}    (", run.indent)));
            chunks.extend(self.entry_part(k, key_ty, file)?);
            chunks.push(Chunk::text(", "));
            chunks.extend(self.entry_part(v, value_ty, file)?);
            chunks.push(Chunk::text("),\n"));
        }
        match self.form {
            Form::FromArray => chunks.push(Chunk::text(format!("{}]);", run.indent))),
            Form::Collect => {
                chunks.push(Chunk::text(format!("{}].into_iter().collect", run.indent)));
                if run.annotation.is_none() {
                    let segs = &run.ctor.segments;
                    let map_seg = segs.iter().nth(segs.len().checked_sub(2)?)?;
                    chunks.push(Chunk::text("::<"));
                    chunks.push(Chunk::copy(file, ctor.start..self.parsed.node(map_seg).end));
                    if map_seg.arguments.is_none() {
                        chunks.push(Chunk::text("<_, _>"));
                    }
                    chunks.push(Chunk::text(">"));
                }
                chunks.push(Chunk::text("();"));
            }
        }
        Some(chunks)
    }

    /// The key and value types the `let` or the constructor's turbofish spells (`None`: not
    /// spelled, or with `_`); `None` for a map with a hasher of its own.
    #[allow(clippy::type_complexity)]
    fn slot_types<'r>(
        &self,
        run: &Run<'r>,
    ) -> Option<(Option<&'r syn::Type>, Option<&'r syn::Type>)> {
        let from_annotation = run.annotation.and_then(map_args);
        let segs = &run.ctor.segments;
        let map_seg = segs.iter().nth(segs.len().checked_sub(2)?)?;
        let from_turbofish = match &map_seg.arguments {
            syn::PathArguments::AngleBracketed(a) => type_args(&a.args),
            _ => Vec::new(),
        };
        let args = match from_annotation {
            Some(args) => args,
            None => from_turbofish,
        };
        let spelled = |t: &'r syn::Type| (!TypeFacts::of(t).infer).then_some(t);
        match args.as_slice() {
            [] => Some((None, None)),
            [k, v] => Some((spelled(k), spelled(v))),
            _ => None,
        }
    }

    /// A key or value as copied, with `as T` when the array needs it; `None` when it may need
    /// a coercion that no cast can stand for.
    fn entry_part(
        &self,
        expr: &syn::Expr,
        slot: Option<&syn::Type>,
        file: &str,
    ) -> Option<Vec<Chunk>> {
        let cast = match (kind(expr, self.index)?, slot) {
            (Kind::Data, _) | (Kind::Str | Kind::Cast(_), None) => false,
            (Kind::Cast(t), Some(s)) => text(t) != text(s),
            (Kind::Str, Some(s)) => !is_str_ref(s, self.index),
            (Kind::Castable(need), Some(s)) if need.met_by(s, self.index) => true,
            (Kind::Castable(_), _) => return None,
        };
        let range = self.parsed.node(expr);
        if !cast {
            return Some(vec![Chunk::copy(file, range)]);
        }
        let slot = slot?;
        let mut out = Vec::new();
        let paren = needs_parens(expr);
        if paren {
            out.push(Chunk::text("("));
        }
        out.push(Chunk::copy(file, range));
        out.push(Chunk::text(if paren { ") as " } else { " as " }));
        out.push(Chunk::copy(file, self.parsed.node(slot)));
        Some(out)
    }
}

/// `HashMap<K, V>` / `BTreeMap<K, V>` (also with a hasher): its type arguments.
fn map_args(ty: &syn::Type) -> Option<Vec<&syn::Type>> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    if last.ident != "HashMap" && last.ident != "BTreeMap" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => Some(type_args(&a.args)),
        _ => None,
    }
}

fn type_args(
    args: &syn::punctuated::Punctuated<syn::GenericArgument, syn::Token![,]>,
) -> Vec<&syn::Type> {
    args.iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// Whether the package `file` belongs to uses edition 2021 or later.
fn edition_2021(tree: &Tree, file: &str) -> bool {
    let mut dir = file;
    while let Some(i) = dir.rfind('/') {
        dir = &dir[..i];
        if let Some(manifest) = tree.files.get(&format!("{dir}/Cargo.toml")) {
            return manifest_edition(tree, manifest) >= 2021;
        }
    }
    tree.files
        .get("Cargo.toml")
        .is_some_and(|m| manifest_edition(tree, m) >= 2021)
}

/// A manifest's edition (2015 when unsaid), following `edition.workspace = true` to the
/// tree's `[workspace.package]`.
fn manifest_edition(tree: &Tree, manifest: &str) -> u32 {
    let value = |text: &str, section: &str| {
        let mut inside = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                inside = line == section;
            } else if inside && let Some(rest) = line.strip_prefix("edition") {
                return Some(rest.trim().to_string());
            }
        }
        None
    };
    let number = |v: &str| {
        v.trim_start_matches('=')
            .trim()
            .trim_matches('"')
            .parse()
            .ok()
    };
    match value(manifest, "[package]") {
        Some(v) if v.starts_with(".workspace") || v.starts_with("= {") => tree
            .files
            .iter()
            .filter(|(p, _)| p.ends_with("Cargo.toml"))
            .find_map(|(_, m)| value(m, "[workspace.package]").and_then(|v| number(&v)))
            .unwrap_or(2015),
        Some(v) => number(&v).unwrap_or(2015),
        None => 2015,
    }
}

#[path = "registration_boxed.rs"]
mod boxed;
#[path = "registration_cast.rs"]
mod cast;
#[path = "registration_entries.rs"]
mod entries;
#[path = "registration_vec.rs"]
mod vec_form;

#[cfg(test)]
#[path = "registration_tests.rs"]
mod tests;
