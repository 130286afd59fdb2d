//! The parsed crate: per file, the fns with their roles, return types and calls, the type
//! aliases and constants, and the lints' candidate sites. Everything here is plain data with
//! byte spans, so files are analysed in parallel and the syntax trees dropped afterwards.

pub mod callgraph;
pub mod resolve;
pub mod walk;

use std::any::Any;
use std::collections::HashMap;

use quote::ToTokens;
use syn::spanned::Spanned;

use crate::diagnostic::{FileId, Span};
use crate::lints::Lint;
use crate::sdk::{ImplContext, Role, Sdk};
use crate::source::span_of;
use resolve::{Imports, Ty};

/// A site a lint found in one file; the lint decides in `finish`, with crate-wide facts,
/// whether it becomes a finding.
pub struct Candidate {
    pub lint: &'static str,
    /// The enclosing fn, as an index into [`FileModel::fns`].
    pub fn_idx: Option<usize>,
    pub span: Span,
    /// Branches (if/else blocks, match arms) enclosing the site, outermost first.
    pub branch: Vec<u32>,
    /// The innermost call whose arguments hold the site (an index into [`FnModel::calls`]):
    /// a site inside `guard(|| ..)` is guarded when `guard` catches panics.
    pub within: Option<usize>,
    /// Inside a closure the SDK runs as a tool handler (tower-mcp's `.handler(|..| ..)`).
    pub in_handler_closure: bool,
    pub data: Box<dyn Any + Send + Sync>,
}

impl Candidate {
    /// A candidate outside any branch, call or handler closure.
    pub fn new(
        lint: &'static str,
        fn_idx: Option<usize>,
        span: Span,
        data: impl Any + Send + Sync,
    ) -> Candidate {
        Candidate {
            lint,
            fn_idx,
            span,
            branch: Vec::new(),
            within: None,
            in_handler_closure: false,
            data: Box::new(data),
        }
    }
}

/// Where a call goes, as far as syntax tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// `f(..)`, `module::f(..)`, `Type::f(..)`: the path as written, resolved through imports.
    Path(Vec<String>),
    /// `self.f(..)`.
    SelfMethod(String),
}

#[derive(Clone, Debug)]
pub struct CallSite {
    pub callee: Callee,
    pub span: Span,
    pub branch: Vec<u32>,
    /// The call is the argument or receiver of a `catch_unwind`.
    pub guarded: bool,
    /// The innermost call whose arguments hold this one.
    pub within: Option<usize>,
    /// Names the enclosing `if`s require to be true.
    pub gates: Vec<String>,
    /// Per argument: its value when it is a `true`/`false` literal.
    pub bool_args: Vec<Option<bool>>,
    /// Made inside a closure the SDK runs as a tool handler.
    pub in_handler_closure: bool,
}

#[derive(Clone, Debug)]
pub struct FnModel {
    pub name: String,
    /// The `Self` type's name for methods.
    pub owner: Option<String>,
    pub module: Vec<String>,
    pub name_span: Span,
    pub role: Role,
    pub ret: Ty,
    pub calls: Vec<CallSite>,
    /// The body runs (in part) under `catch_unwind`.
    pub catches_panics: bool,
    /// Takes `Parameters<T>` (or a 0.1 `#[tool(aggr)]`/`#[tool(param)]` argument).
    pub typed_params: bool,
    /// Returns text that starts like a failure message ("Error: ..").
    pub returns_failure_text: bool,
    /// Branches of the body, indexed by branch id - 1.
    pub branches: Vec<walk::BranchInfo>,
    /// Parameter names, without the receiver.
    pub params: Vec<String>,
}

impl FnModel {
    pub fn display_name(&self) -> String {
        self.name.clone()
    }
}

#[derive(Clone, Debug)]
pub struct TypeAlias {
    pub name: String,
    pub params: Vec<String>,
    pub target: Ty,
}

/// Everything the crate-wide stage needs from one file.
pub struct FileModel {
    pub file: FileId,
    pub fns: Vec<FnModel>,
    pub aliases: Vec<TypeAlias>,
    /// `const NAME: _ = <integer>;`
    pub int_consts: HashMap<String, i64>,
    /// Types the file converts into the SDK's protocol error (`impl From<X> for ErrorData`).
    pub into_protocol_error: Vec<(Ty, Span)>,
    /// Places that create a stdio server transport, with their enclosing fn and branches.
    pub stdio_sites: Vec<(usize, Span, Vec<u32>)>,
    pub candidates: Vec<Candidate>,
    /// Byte ranges of items (attributes included), for suppression comments placed above an
    /// item.
    pub items: Vec<(usize, usize)>,
}

/// What a file is analysed with.
pub struct FileContext<'a> {
    pub file: FileId,
    pub module: Vec<String>,
    pub sdk: Option<&'a dyn Sdk>,
    pub lints: &'a [&'a dyn Lint],
    pub crate_renames: &'a HashMap<String, String>,
    /// The package's configuration (project panic guards and error builders).
    pub config: &'a crate::config::Config,
}

/// Whether the item is test-only (`#[cfg(test)]`, `#[test]`, `#[tokio::test]`).
pub fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let last = attr.path().segments.last().map(|s| s.ident.to_string());
        match last.as_deref() {
            Some("test") => true,
            Some("cfg") => attr
                .meta
                .to_token_stream()
                .to_string()
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "test"),
            _ => false,
        }
    })
}

/// Builds the model of one parsed file.
pub fn build_file(cx: &FileContext<'_>, ast: &syn::File) -> FileModel {
    let mut imports = Imports::new(cx.crate_renames.clone());
    imports.collect(&ast.items);
    let mut model = FileModel {
        file: cx.file,
        fns: Vec::new(),
        aliases: Vec::new(),
        int_consts: HashMap::new(),
        into_protocol_error: Vec::new(),
        stdio_sites: Vec::new(),
        candidates: Vec::new(),
        items: Vec::new(),
    };
    let mut builder = Builder {
        cx,
        imports: &imports,
        model: &mut model,
    };
    builder.items(&ast.items, &mut cx.module.clone());
    model
}

struct Builder<'a, 'm> {
    cx: &'a FileContext<'a>,
    imports: &'a Imports,
    model: &'m mut FileModel,
}

impl Builder<'_, '_> {
    /// `module` grows and shrinks as inline modules are entered and left: one path for the
    /// whole file, so nested modules cost linear, not quadratic, memory.
    fn items(&mut self, items: &[syn::Item], module: &mut Vec<String>) {
        if crate::budget::helper_too_deep() {
            return;
        }
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            if let Some(range) = item_range(item) {
                self.model.items.push(range);
            }
            match item {
                syn::Item::Fn(f) => {
                    self.function(None, &f.attrs, &f.sig, &f.block, module);
                }
                syn::Item::Impl(i) => self.implementation(i, module),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        module.push(m.ident.to_string());
                        self.items(inner, module);
                        module.pop();
                    }
                }
                syn::Item::Type(t) => self.model.aliases.push(TypeAlias {
                    name: t.ident.to_string(),
                    params: t
                        .generics
                        .type_params()
                        .map(|p| p.ident.to_string())
                        .collect(),
                    target: self.imports.ty(&t.ty),
                }),
                syn::Item::Const(c) => {
                    if let Some(value) = int_literal(&c.expr) {
                        self.model.int_consts.insert(c.ident.to_string(), value);
                    }
                    self.walk_expr_item(&c.expr);
                }
                syn::Item::Static(s) => self.walk_expr_item(&s.expr),
                _ => {}
            }
        }
    }

    fn implementation(&mut self, i: &syn::ItemImpl, module: &[String]) {
        let self_name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let trait_path = i.trait_.as_ref().map(|(_, p, _)| p);
        if let (Some(tp), Some(sdk)) = (trait_path, self.cx.sdk) {
            // `impl From<X> for ErrorData`: `?` on X inside a tool becomes a protocol error.
            let last = tp.segments.last();
            if last.is_some_and(|s| s.ident == "From")
                && sdk.is_protocol_error_type(&self.imports.ty(&i.self_ty))
                && let Some(syn::PathArguments::AngleBracketed(args)) = last.map(|s| &s.arguments)
                && let Some(syn::GenericArgument::Type(from)) = args.args.first()
            {
                let span = span_of(self.cx.file, i.span());
                self.model
                    .into_protocol_error
                    .push((self.imports.ty(from), span));
            }
        }
        let implementation = ImplContext {
            attrs: &i.attrs,
            trait_path,
            self_name: self_name.clone(),
        };
        for item in &i.items {
            if let syn::ImplItem::Fn(f) = item {
                if is_test_only(&f.attrs) {
                    continue;
                }
                let start = f
                    .attrs
                    .first()
                    .map_or(f.sig.fn_token.span, |a| a.pound_token.span);
                self.model.items.push((
                    start.byte_range().start,
                    f.block.brace_token.span.close().byte_range().end,
                ));
                self.function(Some(&implementation), &f.attrs, &f.sig, &f.block, module);
            }
        }
    }

    fn function(
        &mut self,
        implementation: Option<&ImplContext<'_>>,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        block: &syn::Block,
        module: &[String],
    ) {
        let name = sig.ident.to_string();
        let ret = match &sig.output {
            syn::ReturnType::Default => Ty::unit(),
            syn::ReturnType::Type(_, ty) => self.imports.ty(ty),
        };
        let role = self.cx.sdk.map_or(Role::None, |sdk| {
            sdk.role(self.imports, implementation, attrs, &name, &ret)
        });
        let typed_params = sig.inputs.iter().any(|arg| match arg {
            syn::FnArg::Typed(t) => {
                let ty = self.imports.ty(&t.ty);
                ty.last_segment() == Some("Parameters")
                    || t.attrs.iter().any(|a| a.path().is_ident("tool"))
            }
            syn::FnArg::Receiver(_) => false,
        });
        let idx = self.model.fns.len();
        self.model.fns.push(FnModel {
            name,
            owner: implementation.and_then(|i| i.self_name.clone()),
            module: module.to_vec(),
            name_span: span_of(self.cx.file, sig.ident.span()),
            role,
            ret,
            calls: Vec::new(),
            catches_panics: false,
            typed_params,
            returns_failure_text: false,
            branches: Vec::new(),
            params: sig
                .inputs
                .iter()
                .filter_map(|arg| match arg {
                    syn::FnArg::Typed(t) => match &*t.pat {
                        syn::Pat::Ident(i) => Some(i.ident.to_string()),
                        _ => Some(String::new()),
                    },
                    syn::FnArg::Receiver(_) => None,
                })
                .collect(),
        });
        for lint in self.cx.lints {
            let fcx = walk::FnCx {
                file: self.cx.file,
                imports: self.imports,
                sdk: self.cx.sdk,
                fn_idx: idx,
                model: &self.model.fns[idx],
                sig,
                block,
            };
            lint.check_fn(&fcx, &mut self.model.candidates);
        }
        walk::walk_fn(self.cx, self.imports, self.model, idx, block);
    }

    fn walk_expr_item(&mut self, expr: &syn::Expr) {
        walk::walk_item_expr(self.cx, self.imports, self.model, expr);
    }
}

/// The byte range of an item with a body, attributes included, from its first and last
/// tokens (`Spanned::span` would turn the whole item into tokens).
fn item_range(item: &syn::Item) -> Option<(usize, usize)> {
    let (attrs, first, last) = match item {
        syn::Item::Fn(f) => (
            &f.attrs,
            f.sig.fn_token.span,
            f.block.brace_token.span.close(),
        ),
        syn::Item::Impl(i) => (&i.attrs, i.impl_token.span, i.brace_token.span.close()),
        syn::Item::Mod(m) => (
            &m.attrs,
            m.mod_token.span,
            m.content.as_ref()?.0.span.close(),
        ),
        syn::Item::Trait(t) => (&t.attrs, t.trait_token.span, t.brace_token.span.close()),
        _ => return None,
    };
    let start = attrs.first().map_or(first, |a| a.pound_token.span);
    Some((start.byte_range().start, last.byte_range().end))
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        _ => &[],
    }
}

/// The value of an integer literal, negated or not, through parentheses and casts.
pub fn int_literal(expr: &syn::Expr) -> Option<i64> {
    if crate::budget::helper_too_deep() {
        return None;
    }
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<i64>().ok(),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => int_literal(expr).map(|v| -v),
        syn::Expr::Paren(p) => int_literal(&p.expr),
        syn::Expr::Group(g) => int_literal(&g.expr),
        syn::Expr::Cast(c) => int_literal(&c.expr),
        _ => None,
    }
}

/// The module path of a file from its path relative to the package root.
pub fn module_of(relative: &std::path::Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "src") {
        parts.remove(0);
    }
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        let crate_root = parts.is_empty() && matches!(stem, "lib" | "main");
        if stem != "mod" && !crate_root {
            parts.push(stem.to_string());
        }
    }
    parts
}
