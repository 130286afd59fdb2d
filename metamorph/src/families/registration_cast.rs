//! `registration_fn_cast`: `m.insert(k, f)` → `m.insert(k, f as fn(A) -> R)`.

use syn::visit::Visit;

use super::super::fns::{self, Index, TypeFacts};
use super::super::scope::{Scope, each_fn};
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::syntax::Parsed;
use crate::tree::Tree;

pub(super) fn rewrite_fn_casts(tree: &Tree) -> Rewrite {
    let index = Index::of(tree);
    let mut rewriter = Rewriter::new(tree);
    for (path, text, parsed) in crate::syntax::parsed_files(tree) {
        let module = index.module_of(path);
        each_fn(path, &module, &parsed.ast.items, &mut |scope, block| {
            let mut inserts = FnInserts(Vec::new());
            inserts.visit_block(block);
            for arg in inserts.0 {
                if let Some(chunks) = fn_pointer_cast(&index, scope, arg, &parsed, text) {
                    rewriter.insert(path, parsed.node(arg).end, chunks);
                }
            }
        });
    }
    rewriter.finish()
}

/// The values of `x.insert(k, path)` calls.
struct FnInserts<'ast>(Vec<&'ast syn::ExprPath>);

impl<'ast> Visit<'ast> for FnInserts<'ast> {
    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "insert"
            && call.args.len() == 2
            && let Some(syn::Expr::Path(p)) = call.args.get(1)
        {
            self.0.push(p);
        }
        syn::visit::visit_expr_method_call(self, call);
    }
}

/// ` as fn(A, B) -> R` for a fn of the same module whose types mean the same at the insert.
fn fn_pointer_cast(
    index: &Index,
    scope: &Scope,
    arg: &syn::ExprPath,
    parsed: &Parsed,
    text: &str,
) -> Option<Vec<Chunk>> {
    let def = index.resolve(arg, scope)?;
    let same_place = def.file == scope.file && def.module == scope.module;
    if !same_place
        || def.sig.asyncness.is_some()
        || scope.is_const
        || (def.owner.is_some() && !def.inherent)
    {
        return None;
    }
    let mut types = def.params();
    if let syn::ReturnType::Type(_, ret) = &def.sig.output {
        types.push(ret);
    }
    for ty in &types {
        let facts = TypeFacts::of(ty);
        let self_ok = !facts.idents.contains("Self")
            || (scope.self_ty.is_some() && scope.self_ty == def.owner);
        if facts.named_lifetime || facts.impl_trait || facts.infer || !self_ok {
            return None;
        }
        if facts.idents.iter().any(|i| scope.shadows(i)) {
            return None;
        }
    }
    let copy = |ty: &syn::Type| {
        let range = parsed.node(ty);
        // The signature was parsed from this same text: its spans are offsets in it.
        let same = text
            .get(range.clone())
            .and_then(|t| syn::parse_str::<syn::Type>(t).ok());
        (same.map(|t| fns::text(&t)) == Some(fns::text(ty)))
            .then(|| Chunk::copy(&scope.file, range))
    };
    let mut chunks = vec![Chunk::text(" as fn(")];
    for (i, ty) in def.params().into_iter().enumerate() {
        if i > 0 {
            chunks.push(Chunk::text(", "));
        }
        chunks.push(copy(ty)?);
    }
    chunks.push(Chunk::text(")"));
    if let syn::ReturnType::Type(_, ret) = &def.sig.output {
        chunks.push(Chunk::text(" -> "));
        chunks.push(copy(ret)?);
    }
    Some(chunks)
}
