//! What inlining must know of a helper's body (its returns, whether it may leave its caller,
//! the names it uses and binds) and of its caller (the names in scope there).

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use crate::families::fn_refs::is_expression_macro;
use crate::syntax::{self, Parsed};

/// Macros that evaluate their arguments where they stand and never return from the fn
/// (when their tokens hold no `?` nor `return`), and whose value does not depend on the line
/// they are on (`line!` and `column!` are not among them: inlined, they would say the
/// caller's).
fn never_returns(name: &str) -> bool {
    is_expression_macro(name)
        || matches!(
            name,
            "matches"
                | "json"
                | "concat"
                | "stringify"
                | "env"
                | "cfg"
                | "file"
                | "module_path"
                | "error"
                | "warn"
                | "info"
                | "debug"
                | "trace"
        )
}

/// What a helper's body does that inlining must know.
#[derive(Default)]
pub(super) struct BodyScan {
    /// The `return` keywords of the fn itself.
    pub returns: Vec<proc_macro2::Span>,
    /// A `?` of the fn itself, or a macro that may return.
    pub refused: bool,
    /// The first segments of its paths, and every word a macro of it holds.
    pub uses: BTreeSet<String>,
    /// The names its patterns bind (parameters included).
    pub binds: BTreeSet<String>,
    /// How deep in closures, async blocks and nested items the visit is.
    depth: usize,
}

impl BodyScan {
    fn nested(&mut self, visit: impl FnOnce(&mut Self)) {
        self.depth += 1;
        visit(self);
        self.depth -= 1;
    }
}

impl<'ast> Visit<'ast> for BodyScan {
    fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
        if self.depth == 0 {
            self.returns.push(r.return_token.span);
        }
        syn::visit::visit_expr_return(self, r);
    }

    fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
        self.refused |= self.depth == 0;
        syn::visit::visit_expr_try(self, t);
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.nested(|me| syn::visit::visit_expr_closure(me, c));
    }

    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        self.nested(|me| syn::visit::visit_expr_async(me, a));
    }

    fn visit_item(&mut self, i: &'ast syn::Item) {
        self.nested(|me| syn::visit::visit_item(me, i));
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if let Some(first) = p.segments.first() {
            self.uses.insert(first.ident.to_string());
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.binds.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = syntax::last_segment(&mac.path).unwrap_or_default();
        self.refused |= !never_returns(&name) || may_return(mac.tokens.clone());
        words(mac.tokens.clone(), &mut self.uses);
        self.visit_path(&mac.path);
    }
}

/// Whether tokens hold `?` or `return`.
fn may_return(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Punct(p) => p.as_char() == '?',
        TokenTree::Ident(i) => i == "return",
        TokenTree::Group(g) => may_return(g.stream()),
        TokenTree::Literal(_) => false,
    })
}

/// Every identifier among tokens and every name a string literal among them may capture
/// as a format string (`{name}`, `{name:?}`).
fn words(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            TokenTree::Group(g) => words(g.stream(), out),
            TokenTree::Literal(l) => captures(&l.to_string(), out),
            TokenTree::Punct(_) => {}
        }
    }
}

fn captures(text: &str, out: &mut BTreeSet<String>) {
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix('{') {
            rest = after;
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.insert(rest[..end].to_string());
        }
    }
}

/// Whether a parameter's pattern holds `_`: the fn keeps such an argument until it returns,
/// a `let` would not take it from the caller at all (`let _ = x` does not move `x`).
pub(super) fn ignores_an_argument(sig: &syn::Signature) -> bool {
    struct Wild(bool);
    impl<'ast> Visit<'ast> for Wild {
        fn visit_pat_wild(&mut self, _: &'ast syn::PatWild) {
            self.0 = true;
        }
    }
    let mut wild = Wild(false);
    for input in &sig.inputs {
        wild.visit_fn_arg(input);
    }
    wild.0
}

/// The names a caller binds (its patterns, its and its impl's generic parameters), and
/// whether its body declares items.
pub(super) struct CallerScope {
    pub bound: BTreeSet<String>,
    pub has_items: bool,
}

impl CallerScope {
    pub fn find(parsed: &Parsed, caller: Range<usize>) -> Option<CallerScope> {
        let mut finder = FindCaller {
            parsed,
            target: caller,
            generics: Vec::new(),
            found: None,
        };
        finder.visit_file(&parsed.ast);
        finder.found
    }
}

struct FindCaller<'a> {
    parsed: &'a Parsed,
    target: Range<usize>,
    /// The generic parameters of the impls and traits around the visit.
    generics: Vec<String>,
    found: Option<CallerScope>,
}

impl FindCaller<'_> {
    fn check(&mut self, node: Range<usize>, sig: &syn::Signature, block: &syn::Block) -> bool {
        if node != self.target {
            return false;
        }
        let mut scan = CallerScan::default();
        scan.visit_signature(sig);
        scan.visit_block(block);
        scan.bound.extend(self.generics.iter().cloned());
        self.found = Some(CallerScope {
            bound: scan.bound,
            has_items: scan.has_items,
        });
        true
    }

    fn with_generics(&mut self, generics: &syn::Generics, visit: impl FnOnce(&mut Self)) {
        let before = self.generics.len();
        self.generics.extend(crate::syntax::generic_names(generics));
        visit(self);
        self.generics.truncate(before);
    }
}

impl<'ast> Visit<'ast> for FindCaller<'_> {
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        self.with_generics(&i.generics, |me| syn::visit::visit_item_impl(me, i));
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.with_generics(&t.generics, |me| syn::visit::visit_item_trait(me, t));
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !self.check(self.parsed.node(f), &f.sig, &f.block) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !self.check(self.parsed.node(f), &f.sig, &f.block) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        let done = match &f.default {
            Some(block) => self.check(self.parsed.node(f), &f.sig, block),
            None => false,
        };
        if !done {
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
}

#[derive(Default)]
struct CallerScan {
    bound: BTreeSet<String>,
    has_items: bool,
}

impl<'ast> Visit<'ast> for CallerScan {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.bound.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_generics(&mut self, g: &'ast syn::Generics) {
        self.bound.extend(crate::syntax::generic_names(g));
        syn::visit::visit_generics(self, g);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {
        self.has_items = true;
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = syntax::last_segment(&mac.path).unwrap_or_default();
        if let Some(args) = is_expression_macro(&name)
            .then(|| syntax::macro_args(mac))
            .flatten()
        {
            for arg in &args {
                self.visit_expr(&arg.expr);
            }
            return;
        }
        // Another macro may bind names the parser cannot see (`select! { v = f => .. }`):
        // its lone lower-case identifiers count as bound.
        let mut idents = Vec::new();
        syntax::idents(&mac.tokens, &mut idents);
        for i in idents {
            let name = i.ident.to_string();
            if !i.after_dot_or_path
                && !i.before_bang_or_path
                && !name.starts_with(char::is_uppercase)
            {
                self.bound.insert(name);
            }
        }
    }
}
