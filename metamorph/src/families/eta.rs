//! Callables as values, spelled another way.
//!
//! `eta_expand`: a fn of the tree given as an argument (`.handler(read_file)`) becomes a
//! closure that calls it (`.handler(|mm_a0| read_file(mm_a0))`). `eta_reduce`: a closure that
//! only calls a fn of the tree with its own parameters in order (`|a| f(a)`, `move |a| f(a)`,
//! `|a| async move { f(a).await }` for an `async fn`) becomes the fn's path.
//!
//! Both keep what is called and with what; what they may change is a type. A closure has a
//! type of its own and takes its parameter types from where it goes: it is skipped where values
//! must share one type (a map or vector whose element type is unknown), and a fn with reference
//! parameters is only expanded where an `Fn(..)` bound or fn pointer type gives the closure its
//! (higher-ranked) signature. A closure may coerce its arguments and result (`&String` to
//! `&str`): it is only reduced when the expected signature is the fn's own, or when the fn's
//! types are owned ones that nothing coerces to.

use std::collections::BTreeSet;

use syn::visit::Visit;

use super::Family;
use super::fns::{FnDef, Index, TypeFacts, type_name};
use super::scope::{ArgPlace, Callee, Scope, arg_place, each_fn};
use crate::edit::{Chunk, Rewrite, Rewriter};
use crate::names::TreeNames;
use crate::syntax::Parsed;
use crate::tree::Tree;

pub struct EtaExpand;
pub struct EtaReduce;

impl Family for EtaExpand {
    fn name(&self) -> &'static str {
        "eta_expand"
    }

    fn about(&self) -> &'static str {
        "a fn given as an argument becomes a closure that calls it"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        let names = TreeNames::of(tree);
        let Some(prefix) = param_prefix(&names.all_idents) else {
            return Rewriter::new(tree).finish();
        };
        rewrite_sites(tree, |site, index, scope, file, parsed| {
            let Site::Path { path, place } = site else {
                return None;
            };
            let def = index.resolve(path, scope)?;
            let ok = match &place {
                ArgPlace::Expected(_) => true,
                ArgPlace::Open => !has_refs(def),
                ArgPlace::Container => false,
            };
            if !ok {
                return None;
            }
            let params: Vec<String> = (0..def.arity()).map(|i| format!("{prefix}{i}")).collect();
            let list = params.join(", ");
            let range = parsed.node(path);
            let chunks = vec![
                Chunk::text(format!("|{list}| ")),
                Chunk::copy(file, range.clone()),
                Chunk::text(format!("({list})")),
            ];
            Some((range, chunks))
        })
    }
}

impl Family for EtaReduce {
    fn name(&self) -> &'static str {
        "eta_reduce"
    }

    fn about(&self) -> &'static str {
        "a closure that only calls a fn with its own parameters becomes the fn"
    }

    fn rewrite(&self, tree: &Tree) -> Rewrite {
        rewrite_sites(tree, |site, index, scope, file, parsed| {
            let (closure, place) = match site {
                Site::Closure { closure, place } => (closure, Some(place)),
                Site::LetClosure(closure) => (closure, None),
                Site::Path { .. } => return None,
            };
            let (path, def) = reducible(closure, index, scope)?;
            let owned =
                def.params().into_iter().all(|t| owned(t, index)) && output_owned(def, index);
            let ok = match place {
                None => true,
                Some(ArgPlace::Expected(sig)) => owned || sig.fits(def),
                Some(_) => owned,
            };
            ok.then(|| {
                (
                    parsed.node(closure),
                    vec![Chunk::copy(file, parsed.node(path))],
                )
            })
        })
    }
}

/// A place a callable stands.
enum Site<'a> {
    /// A path given as an argument (or boxed as one).
    Path {
        path: &'a syn::ExprPath,
        place: ArgPlace,
    },
    /// A closure given as an argument (or boxed as one).
    Closure {
        closure: &'a syn::ExprClosure,
        place: ArgPlace,
    },
    /// `let name = |..| ..;` without a type.
    LetClosure(&'a syn::ExprClosure),
}

type Edit = (std::ops::Range<usize>, Vec<Chunk>);

/// Runs `edit` on every site of every fn body that is not `const`.
fn rewrite_sites(
    tree: &Tree,
    edit: impl Fn(Site<'_>, &Index, &Scope, &str, &Parsed) -> Option<Edit>,
) -> Rewrite {
    let index = Index::of(tree);
    let mut rewriter = Rewriter::new(tree);
    for (path, _, parsed) in crate::syntax::parsed_files(tree) {
        let module = index.module_of(path);
        each_fn(path, &module, &parsed.ast.items, &mut |scope, block| {
            if scope.is_const {
                return;
            }
            let mut sites = Sites {
                index: &index,
                scope,
                out: Vec::new(),
            };
            sites.visit_block(block);
            for site in sites.out {
                if let Some((range, chunks)) = edit(site, &index, scope, path, &parsed) {
                    rewriter.replace(path, range, chunks);
                }
            }
        });
    }
    rewriter.finish()
}

struct Sites<'a, 'ast> {
    index: &'a Index,
    scope: &'a Scope,
    out: Vec<Site<'ast>>,
}

impl<'ast> Sites<'_, 'ast> {
    fn arg(&mut self, callee: Callee<'ast>, idx: usize, arg: &'ast syn::Expr) {
        let (inner, boxed) = match arg {
            syn::Expr::Call(w) if is_box_new(&w.func) && w.args.len() == 1 => (&w.args[0], true),
            _ => (arg, false),
        };
        let place = || arg_place(self.index, self.scope, callee, idx, boxed);
        match inner {
            syn::Expr::Path(path) => self.out.push(Site::Path {
                path,
                place: place(),
            }),
            syn::Expr::Closure(closure) => self.out.push(Site::Closure {
                closure,
                place: place(),
            }),
            _ => {}
        }
    }
}

impl<'ast> Visit<'ast> for Sites<'_, 'ast> {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        // What a generic wrapper (`Some(f)`, `Box::new(f)`, `Mutex::new(f)`) holds takes its
        // type from further out: only the wrapper as an argument is read (`Box::new` only).
        if !is_wrapper(&call.func) {
            for (i, arg) in call.args.iter().enumerate() {
                self.arg(Callee::Call(call), i, arg);
            }
        }
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        for (i, arg) in call.args.iter().enumerate() {
            self.arg(Callee::Method(call), i, arg);
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Ident(_), Some(init)) = (&local.pat, &local.init)
            && let syn::Expr::Closure(closure) = &*init.expr
        {
            self.out.push(Site::LetClosure(closure));
        }
        syn::visit::visit_local(self, local);
    }
}

fn path_names(func: &syn::Expr) -> Vec<String> {
    match func {
        syn::Expr::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// `Box::new`, `Arc::new`, `Rc::new`.
fn is_box_new(func: &syn::Expr) -> bool {
    matches!(path_names(func).as_slice(), [.., ty, new] if new == "new" && matches!(ty.as_str(), "Box" | "Arc" | "Rc"))
}

/// A constructor (`Some`, `Ok`, `Wrapper`) or a std generic wrapper's `new`/`pin`/`from`.
fn is_wrapper(func: &syn::Expr) -> bool {
    const GENERIC: [&str; 10] = [
        "Box", "Arc", "Rc", "Pin", "Cell", "RefCell", "Mutex", "RwLock", "Option", "Some",
    ];
    match path_names(func).as_slice() {
        [.., last] if last.starts_with(|c: char| c.is_uppercase()) => true,
        [.., ty, f] => {
            GENERIC.contains(&ty.as_str()) && matches!(f.as_str(), "new" | "pin" | "from")
        }
        _ => false,
    }
}

/// A prefix `p` such that no identifier of the tree is `p` followed by digits.
fn param_prefix(idents: &BTreeSet<String>) -> Option<String> {
    ('a'..='z').map(|c| format!("mm_{c}")).find(|p| {
        !idents.iter().any(|i| {
            i.strip_prefix(p.as_str())
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()))
        })
    })
}

/// Reference or lifetime parameters: a closure only gets them higher-ranked from an
/// expected signature.
fn has_refs(def: &FnDef) -> bool {
    def.params().into_iter().any(|t| {
        let facts = TypeFacts::of(t);
        facts.refs || facts.named_lifetime
    })
}

/// `|a, b| f(a, b)` or `|a| async move { f(a).await }` (for an async `f`): the path and fn.
fn reducible<'c, 'i>(
    closure: &'c syn::ExprClosure,
    index: &'i Index,
    scope: &Scope,
) -> Option<(&'c syn::ExprPath, &'i FnDef)> {
    let plain = closure.attrs.is_empty()
        && closure.lifetimes.is_none()
        && closure.constness.is_none()
        && closure.movability.is_none()
        && closure.asyncness.is_none()
        && matches!(closure.output, syn::ReturnType::Default);
    if !plain {
        return None;
    }
    let mut params = Vec::new();
    for p in &closure.inputs {
        match p {
            syn::Pat::Ident(id)
                if id.attrs.is_empty()
                    && id.by_ref.is_none()
                    && id.mutability.is_none()
                    && id.subpat.is_none() =>
            {
                params.push(id.ident.to_string());
            }
            _ => return None,
        }
    }
    let (call, awaited) = match &*closure.body {
        syn::Expr::Call(call) => (call, false),
        syn::Expr::Async(a) => match a.block.stmts.as_slice() {
            [syn::Stmt::Expr(syn::Expr::Await(aw), None)] if aw.attrs.is_empty() => match &*aw.base
            {
                syn::Expr::Call(call) => (call, true),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let syn::Expr::Path(path) = &*call.func else {
        return None;
    };
    let args: Vec<String> = call
        .args
        .iter()
        .map(|a| match a {
            syn::Expr::Path(p) if p.attrs.is_empty() => p.path.get_ident().map(ToString::to_string),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let first = path.path.segments.first().map(|s| s.ident.to_string());
    if args != params || !call.attrs.is_empty() || first.is_some_and(|f| params.contains(&f)) {
        return None;
    }
    let def = index.resolve(path, scope)?;
    (def.arity() == params.len() && (!awaited || def.sig.asyncness.is_some()))
        .then_some((path, def))
}

/// Types nothing coerces to: owned, not a pointer, no reference or named lifetime, not an
/// alias (which may hide a pointer).
fn owned(ty: &syn::Type, index: &Index) -> bool {
    const POINTERS: [&str; 10] = [
        "Box",
        "Rc",
        "Arc",
        "Weak",
        "Pin",
        "Cell",
        "RefCell",
        "UnsafeCell",
        "NonNull",
        "Self",
    ];
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let facts = TypeFacts::of(ty);
            let name = type_name(ty).unwrap_or_default();
            !facts.refs
                && !facts.named_lifetime
                && !facts.impl_trait
                && !facts.infer
                && !POINTERS.contains(&name.as_str())
                && !name.starts_with("Box")
                && !index.is_alias(&name)
        }
        syn::Type::Tuple(t) => t.elems.iter().all(|e| owned(e, index)),
        syn::Type::Array(a) => owned(&a.elem, index),
        syn::Type::Paren(p) => owned(&p.elem, index),
        syn::Type::Never(_) => true,
        _ => false,
    }
}

/// The output a closure gives back cannot have been coerced: unit, an owned type, an opaque
/// type, or an async fn's future.
fn output_owned(def: &FnDef, index: &Index) -> bool {
    match &def.sig.output {
        _ if def.sig.asyncness.is_some() => true,
        syn::ReturnType::Default => true,
        syn::ReturnType::Type(_, ty) => {
            matches!(&**ty, syn::Type::ImplTrait(_)) || owned(ty, index)
        }
    }
}

#[cfg(test)]
#[path = "eta_tests.rs"]
mod tests;
