//! `inline_helper`: a private free fn called exactly once in the whole tree, from a fn of the
//! same module, is inlined at its call and its definition removed.
//!
//! With `fn helper(a: A, b: B) -> R { BODY }`, the call `helper(x, y)` becomes
//! `{ let (a, b): (A, B) = (x, y); BODY' }`, where BODY' is the body with its tail bound to a
//! typed local (`let mm_ret0: R = TAIL; mm_ret0`: coerced to `R` as a return value is, its
//! temporaries dropped before the caller goes on). Each `return` of the fn (not of a closure or
//! async block in it) becomes `break 'mm_inline0`, out of a labeled block, and the whole is
//! given the return type by `::core::convert::identity::<R>(..)` (the breaks' values are
//! coerced to it, `.into()` infers it). When an argument makes a temporary its value may
//! borrow (`make().as_str()`), the parameters are bound by `match ::core::convert::identity::<(A,
//! B)>((x, y)) { (a, b) => { BODY' } }`, which keeps temporaries alive as long as the call did
//! and gives the arguments a call's coercions and reborrows. In every form the arguments are
//! evaluated before any parameter is bound, as at a call, and outside the body's own block (its
//! items, its label).
//!
//! A helper is left alone when inlining could change what it does or break the build: `?`
//! or a macro that may return in its body, generics, lifetimes, `impl Trait`, `async`,
//! `const` or `unsafe`, lint attributes (`#[allow]` would not reach the inlined code); a
//! caller that binds a name the body uses freely or declares items (the body would see
//! them), a `const` caller, an argument that is a closure (its parameter types came from the
//! helper's signature). Files with mcp-lint suppression directives other than file-wide ones
//! are left alone: what a directive covers would change.

use std::ops::Range;

use syn::visit::Visit;

use super::Family;
use super::fn_refs::{Call, FreeFn, RefIndex, RefKind, free_fns};
use super::fn_support::{attrs_only, copy_with, has_local_directive, plain_signature};
use crate::edit::{Chunk, Rewrite, Rewriter, overlaps};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;
use scan::{BodyScan, CallerScope};

pub struct InlineHelper;

impl Family for InlineHelper {
    fn name(&self) -> &'static str {
        "inline_helper"
    }

    fn about(&self) -> &'static str {
        "a private fn called once is inlined at its call, its returns breaking out of a block"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let index = RefIndex::of(tree);
        let mut names = TreeNames::of(tree);
        let mut rewriter = Rewriter::new(tree);
        for (path, text) in tree.rust_files() {
            // An mcp-lint suppression directive covers a line or an item: inlined code would
            // come under the caller's directives and leave the helper's.
            if has_local_directive(text) {
                continue;
            }
            let Some(parsed) = Parsed::new(text) else {
                continue;
            };
            // The ranges this file's inlinings replaced: a later one must not copy from them
            // (its body or arguments would bring back a call to a removed helper).
            let mut taken: Vec<Range<usize>> = Vec::new();
            for helper in free_fns(&parsed.ast.items) {
                let Some(site) = Site::find(&index, path, &parsed, &helper, &names) else {
                    continue;
                };
                let def = parsed.node(helper.item);
                if taken
                    .iter()
                    .any(|t| overlaps(t, &def) || overlaps(t, &site.call.range))
                {
                    continue;
                }
                let chunks = site.inlined(path, &parsed, &mut names);
                if rewriter.replace(path, site.call.range.clone(), chunks) {
                    rewriter.replace_text(path, def.clone(), "");
                    taken.extend([def, site.call.range.clone()]);
                }
            }
        }
        rewriter.finish()
    }
}

/// `a` alone, or `(a, b)`: the pieces of a `let`, of as many parameters as the helper has.
fn tuple(items: impl Iterator<Item = Vec<Chunk>>, count: usize) -> Vec<Chunk> {
    let mut out = Vec::new();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(Chunk::text(", "));
        }
        out.extend(item);
    }
    if count > 1 {
        out.insert(0, Chunk::text("("));
        out.push(Chunk::text(")"));
    }
    out
}

/// A helper that can be inlined, and its one call.
struct Site<'a> {
    item: &'a syn::ItemFn,
    call: Call,
    body: BodyScan,
}

impl<'a> Site<'a> {
    fn find(
        index: &RefIndex,
        path: &str,
        parsed: &Parsed,
        helper: &FreeFn<'a>,
        names: &TreeNames,
    ) -> Option<Site<'a>> {
        let item = helper.item;
        let name = item.sig.ident.to_string();
        let [only] = index.refs(&name) else {
            return None;
        };
        let RefKind::Call(call) = &only.kind else {
            return None;
        };
        let caller = call.caller.clone()?;
        let helper_ok = matches!(item.vis, syn::Visibility::Inherited)
            && plain_signature(&item.sig)
            && item.sig.asyncness.is_none()
            && item.sig.unsafety.is_none()
            && attrs_only(&item.attrs, &["doc", "inline", "must_use"])
            && !scan::ignores_an_argument(&item.sig)
            && index.defined_once(&name)
            && !index.bound_in(path, &name);
        let call_ok = only.file == path
            && call.module == helper.module
            && !call.nested
            && !call.caller_is_const
            && !call.closure_arg
            && call.args.len() == item.sig.inputs.len()
            && caller != parsed.node(item);
        if !helper_ok || !call_ok {
            return None;
        }
        let mut body = BodyScan::default();
        body.visit_item_fn(item);
        let scope = CallerScope::find(parsed, caller)?;
        let clash = body
            .uses
            .intersection(&scope.bound)
            .any(|n| !body.binds.contains(n) || names.items.contains(n));
        (!body.refused && !scope.has_items && !clash).then(|| Site {
            item,
            call: call.clone(),
            body,
        })
    }

    /// The text that replaces the call: the simplest form that keeps what the call did.
    fn inlined(&self, path: &str, parsed: &Parsed, names: &mut TreeNames) -> Vec<Chunk> {
        let copy = |node: Range<usize>| Chunk::copy(path, node);
        let sig = &self.item.sig;
        let ret = match &sig.output {
            syn::ReturnType::Type(_, ty) if !is_unit(ty) => Some(copy(parsed.node(&**ty))),
            _ => None,
        };
        let returns = !self.body.returns.is_empty();
        // `identity::<R>` gives breaks the return type; it also keeps a block from ending an
        // expression early where the parser would.
        let wrap = ret.is_some() && (returns || self.call.block_breaks_parse);
        let label = returns.then(|| format!("'{}", names.fresh("mm_inline")));
        let params: Vec<&syn::PatType> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some(t),
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        let pats = params.iter().map(|p| vec![copy(parsed.node(&*p.pat))]);
        let types = params.iter().map(|p| vec![copy(parsed.node(&*p.ty))]);
        let args = self.call.args.iter().map(|a| vec![copy(a.clone())]);
        let mut out = Vec::new();
        if wrap {
            out.push(Chunk::text("::core::convert::identity::<"));
            out.extend(ret.clone());
            out.push(Chunk::text(">("));
        }
        let block = &self.item.block;
        let open = copy(parsed.range(block.brace_token.span.open()));
        let close = copy(parsed.range(block.brace_token.span.close()));
        let interior = self.interior(path, parsed, label.as_deref(), ret, names);
        // Items the body declares are in scope in all its block: the arguments must not be
        // evaluated there, nor may an unlabeled `break` of theirs sit in a labeled block.
        let own_block =
            label.is_some() || block.stmts.iter().any(|s| matches!(s, syn::Stmt::Item(_)));
        if params.is_empty() {
            out.extend(label.iter().map(|l| Chunk::text(format!("{l}: "))));
            out.push(open);
            out.extend(interior);
            out.push(close);
        } else if self.call.plain_args {
            // No temporary to keep alive: `let (a, b): (A, B) = (x, y);` evaluates every
            // argument before it binds a parameter.
            out.push(Chunk::text("{ let "));
            out.extend(tuple(pats, params.len()));
            out.push(Chunk::text(": "));
            out.extend(tuple(types, params.len()));
            out.push(Chunk::text(" = "));
            out.extend(tuple(args, params.len()));
            out.push(Chunk::text(";"));
            if own_block {
                out.push(Chunk::text(" "));
                out.extend(label.iter().map(|l| Chunk::text(format!("{l}: "))));
                out.push(open);
                out.extend(interior);
                out.extend([close, Chunk::text(" }")]);
            } else {
                out.extend(interior);
                out.push(close);
            }
        } else {
            // The arguments' temporaries live as long as the `match`, as they did the call;
            // `identity::<(A, B)>` gives them the coercions (and reborrows) of a call.
            out.push(Chunk::text("match ::core::convert::identity::<"));
            out.extend(tuple(types, params.len()));
            out.push(Chunk::text(">("));
            out.extend(tuple(args, params.len()));
            out.push(Chunk::text(") { "));
            out.extend(tuple(pats, params.len()));
            out.push(Chunk::text(" => "));
            out.extend(label.iter().map(|l| Chunk::text(format!("{l}: "))));
            out.push(open);
            out.extend(interior);
            out.extend([close, Chunk::text(" }")]);
        }
        if wrap {
            out.push(Chunk::text(")"));
        }
        out
    }

    /// The inside of the body's braces, its returns turned into breaks and its tail bound to
    /// a typed local (`let mm_ret0: R = TAIL; mm_ret0`: coerced to `R`, its temporaries dropped
    /// before the caller goes on, as at a return).
    fn interior(
        &self,
        path: &str,
        parsed: &Parsed,
        label: Option<&str>,
        ret: Option<Chunk>,
        names: &mut TreeNames,
    ) -> Vec<Chunk> {
        let block = &self.item.block;
        let inside = parsed.range(block.brace_token.span.open()).end
            ..parsed.range(block.brace_token.span.close()).start;
        let breaks: Vec<(Range<usize>, String)> = match label {
            Some(label) => self
                .body
                .returns
                .iter()
                .map(|r| (parsed.range(*r), format!("break {label}")))
                .collect(),
            None => Vec::new(),
        };
        let within = |r: &Range<usize>| -> Vec<(Range<usize>, String)> {
            let inside = breaks
                .iter()
                .filter(|(b, _)| b.start >= r.start && b.end <= r.end);
            inside.cloned().collect()
        };
        let tail = match (block.stmts.last(), ret) {
            (Some(syn::Stmt::Expr(e, None)), Some(ret)) if !matches!(e, syn::Expr::Return(_)) => {
                Some((parsed.node(e), ret))
            }
            _ => None,
        };
        let Some((tail, ret)) = tail else {
            return copy_with(path, inside.clone(), within(&inside));
        };
        let value = names.fresh("mm_ret");
        let head = inside.start..tail.start;
        let rest = tail.end..inside.end;
        let mut out = copy_with(path, head.clone(), within(&head));
        out.extend([
            Chunk::text(format!("let {value}: ")),
            ret,
            Chunk::text(" = "),
        ]);
        out.extend(copy_with(path, tail.clone(), within(&tail)));
        out.push(Chunk::text(format!("; {value}")));
        out.extend(copy_with(path, rest.clone(), within(&rest)));
        out
    }
}

/// `()`, written out.
fn is_unit(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Tuple(t) if t.elems.is_empty())
}

mod scan;

#[cfg(test)]
mod tests;
