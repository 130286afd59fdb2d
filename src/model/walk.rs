//! One walk over each fn body. It tracks the context lints need (closures, async blocks,
//! error paths, branches), records calls for the call graph, and hands every expression and
//! macro to the enabled lints.

use std::collections::HashSet;

use syn::spanned::Spanned;
use syn::visit::Visit;

use super::resolve::{Imports, Ty, segments};
use super::{CallSite, Callee, Candidate, FileContext, FileModel, FnModel};
use crate::diagnostic::{FileId, Span};
use crate::sdk::{Role, Sdk};
use crate::source::span_of;

/// A whole fn, for lints that look at signatures or scan a body once.
pub struct FnCx<'a> {
    pub file: FileId,
    pub imports: &'a Imports,
    pub sdk: Option<&'a dyn Sdk>,
    pub fn_idx: usize,
    pub model: &'a FnModel,
    pub sig: &'a syn::Signature,
    pub block: &'a syn::Block,
}

impl FnCx<'_> {
    /// A candidate for the fn as a whole (outside any branch or call).
    pub fn candidate(
        &self,
        lint: &'static str,
        span: Span,
        data: impl std::any::Any + Send + Sync,
    ) -> Candidate {
        Candidate::new(lint, Some(self.fn_idx), span, data)
    }
}

/// Methods whose closure argument receives the error of a `Result`.
const ERROR_CLOSURE_METHODS: &[&str] = &["map_err", "unwrap_or_else", "or_else", "map_or_else"];

/// The walker's state at an expression.
#[derive(Default, Debug)]
pub struct WalkState {
    /// Closures entered, each with the method it was passed to (`map_err`, ..).
    pub closures: Vec<Option<String>>,
    pub async_blocks: u32,
    /// Names bound to an error value: `Err(e)` patterns and `map_err(|e| ..)` parameters.
    pub err_bindings: Vec<String>,
    pub error_path: u32,
    /// Enclosing branches, outermost first.
    pub branch: Vec<u32>,
    /// Inside a `_ =>` or catch-all binding arm.
    pub fallback_arm: u32,
    /// Locals whose length is compared (`v.len() > i`) or tested (`v.is_empty()`).
    pub length_checked: HashSet<String>,
    /// Locals tested with `is_some()`/`is_none()`/`is_ok()`/`is_err()`, or peeked.
    pub variant_checked: HashSet<String>,
    /// Locals tested with `starts_with(..)`/`ends_with(..)`.
    pub affix_checked: HashSet<String>,
    /// Under `catch_unwind(..)`.
    pub catch_unwind: u32,
    /// Plain names whose truth the enclosing `if`s require (`if verbose { .. }`).
    pub gates: Vec<String>,
    /// Recorded calls whose arguments are being walked, innermost last.
    pub open_calls: Vec<usize>,
    /// Inside the catch-all arm of a `match` on a tool name (`match request.name.as_ref()`).
    pub unknown_name_arm: u32,
    /// Per branch id (1-based): the if/match it belongs to, and whether it ends by leaving
    /// the fn (`return`, `process::exit`, `panic!`..).
    pub branches: Vec<BranchInfo>,
    next_group: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BranchInfo {
    pub group: u32,
    pub diverges: bool,
}

impl WalkState {
    /// `?` and `Err(..)` here leave the fn itself (not a closure or async block).
    pub fn at_fn_level(&self) -> bool {
        self.closures.is_empty() && self.async_blocks == 0
    }

    pub fn on_error_path(&self) -> bool {
        self.error_path > 0
    }

    pub fn is_err_binding(&self, name: &str) -> bool {
        self.err_bindings.iter().any(|b| b == name)
    }

    pub fn innermost_closure_method(&self) -> Option<&str> {
        self.closures.last().and_then(|c| c.as_deref())
    }
}

/// What a lint sees at each expression.
pub struct ExprCx<'a> {
    pub file: FileId,
    pub imports: &'a Imports,
    pub sdk: Option<&'a dyn Sdk>,
    pub config: &'a crate::config::Config,
    pub fn_idx: Option<usize>,
    pub role: Role,
    pub ret: Option<&'a Ty>,
    pub state: &'a WalkState,
    /// The path of the expression being checked when it is a call `path(..)`: computed once
    /// for every lint.
    pub call: Option<(&'a [String], &'a syn::ExprCall)>,
}

/// Whether the walk is inside a closure the SDK runs as a tool handler.
fn in_handler_closure(state: &WalkState, sdk: Option<&dyn Sdk>) -> bool {
    let Some(sdk) = sdk else { return false };
    let methods = sdk.handler_closure_methods();
    state
        .closures
        .iter()
        .any(|c| c.as_deref().is_some_and(|m| methods.contains(&m)))
}

impl ExprCx<'_> {
    /// Inside a closure the SDK runs as a tool handler.
    pub fn in_handler_closure(&self) -> bool {
        in_handler_closure(self.state, self.sdk)
    }

    /// The span of a syntax node; expressions' spans are found without turning them into
    /// tokens, which is quadratic over chains.
    pub fn span<T: Spanned + 'static>(&self, node: &T) -> Span {
        let any: &dyn std::any::Any = node;
        if let Some(expr) = any.downcast_ref::<syn::Expr>() {
            return crate::source::expr_span(self.file, expr);
        }
        span_of(self.file, node.span())
    }

    pub fn candidate(
        &self,
        lint: &'static str,
        span: Span,
        data: impl std::any::Any + Send + Sync,
    ) -> Candidate {
        Candidate {
            branch: self.state.branch.clone(),
            within: self.state.open_calls.last().copied(),
            in_handler_closure: self.in_handler_closure(),
            ..Candidate::new(lint, self.fn_idx, span, data)
        }
    }
}

pub fn walk_fn(
    cx: &FileContext<'_>,
    imports: &Imports,
    model: &mut FileModel,
    fn_idx: usize,
    block: &syn::Block,
) {
    let f = &model.fns[fn_idx];
    let mut walker = Walker {
        cx,
        imports,
        fn_idx: Some(fn_idx),
        role: f.role,
        ret: Some(f.ret.clone()),
        state: WalkState::default(),
        calls: Vec::new(),
        stdio_sites: Vec::new(),
        out: std::cell::RefCell::new(Vec::new()),
        catches_panics: false,
        pending_closure_method: None,
        place: f.name_span,
    };
    walker.visit_block(block);
    let Walker {
        calls,
        out,
        stdio_sites,
        catches_panics,
        state,
        ..
    } = walker;
    let f = &mut model.fns[fn_idx];
    f.calls = calls;
    f.branches = state.branches;
    f.catches_panics = catches_panics;
    model.candidates.extend(out.into_inner());
    model
        .stdio_sites
        .extend(stdio_sites.into_iter().map(|(s, b)| (fn_idx, s, b)));
}

/// Walks the initializer of a `const` or `static`.
pub fn walk_item_expr(
    cx: &FileContext<'_>,
    imports: &Imports,
    model: &mut FileModel,
    expr: &syn::Expr,
) {
    let mut walker = Walker {
        cx,
        imports,
        fn_idx: None,
        role: Role::None,
        ret: None,
        state: WalkState::default(),
        calls: Vec::new(),
        stdio_sites: Vec::new(),
        out: std::cell::RefCell::new(Vec::new()),
        catches_panics: false,
        pending_closure_method: None,
        place: Span {
            file: cx.file,
            start: 0,
            end: 0,
        },
    };
    walker.visit_expr(expr);
    model.candidates.extend(walker.out.into_inner());
}

struct Walker<'a> {
    cx: &'a FileContext<'a>,
    imports: &'a Imports,
    fn_idx: Option<usize>,
    role: Role,
    ret: Option<Ty>,
    state: WalkState,
    calls: Vec<CallSite>,
    stdio_sites: Vec<(Span, Vec<u32>)>,
    out: std::cell::RefCell<Vec<Candidate>>,
    catches_panics: bool,
    pending_closure_method: Option<String>,
    /// The last place passed whose span was cheap to take (a fn name, a method, a call's
    /// path): where a walk that runs out of stack says it stopped.
    place: Span,
}

/// Macros whose arguments are comma-separated expressions.
const EXPR_MACROS: &[&str] = &[
    "format",
    "print",
    "println",
    "eprint",
    "eprintln",
    "write",
    "writeln",
    "vec",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "format_args",
    "anyhow",
    "bail",
    "ensure",
    "todo",
    "unimplemented",
    "unreachable",
    "dbg",
    "Some",
];

/// A local or a field of one, as text (`v`, `args.items`), to match checks with uses.
pub fn place_key(expr: &syn::Expr) -> Option<String> {
    if crate::budget::helper_too_deep() {
        return None;
    }
    match expr {
        syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        syn::Expr::Field(f) => {
            let base = place_key(&f.base)?;
            match &f.member {
                syn::Member::Named(n) => Some(format!("{base}.{n}")),
                syn::Member::Unnamed(i) => Some(format!("{base}.{}", i.index)),
            }
        }
        syn::Expr::Paren(p) => place_key(&p.expr),
        syn::Expr::Reference(r) => place_key(&r.expr),
        _ => None,
    }
}

/// Names an `if` condition requires to be true: `flag`, `flag && ..`.
fn flag_gates(cond: &syn::Expr) -> Vec<String> {
    if crate::budget::helper_too_deep() {
        return Vec::new();
    }
    match cond {
        syn::Expr::Path(p) => p
            .path
            .get_ident()
            .map(|i| vec![i.to_string()])
            .unwrap_or_default(),
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            let mut gates = flag_gates(&b.left);
            gates.extend(flag_gates(&b.right));
            gates
        }
        syn::Expr::Paren(p) => flag_gates(&p.expr),
        _ => Vec::new(),
    }
}

fn bool_literal(expr: &syn::Expr) -> Option<bool> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Some(b.value),
        _ => None,
    }
}

/// Whether `ident` occurs in the expression's tokens (`request.name.as_ref()` mentions `name`).
pub fn mentions_ident(expr: &syn::Expr, ident: &str) -> bool {
    fn walk(tokens: proc_macro2::TokenStream, ident: &str) -> bool {
        if crate::budget::helper_too_deep() {
            return false;
        }
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == ident,
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(quote::ToTokens::to_token_stream(expr), ident)
}

/// Whether a block ends by leaving the fn or the process.
pub fn block_diverges(block: &syn::Block) -> bool {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(e, _)) => expr_diverges(e),
        Some(syn::Stmt::Macro(m)) => macro_diverges(&m.mac),
        _ => false,
    }
}

pub fn expr_diverges(expr: &syn::Expr) -> bool {
    if crate::budget::helper_too_deep() {
        return false;
    }
    match expr {
        syn::Expr::Return(_) | syn::Expr::Break(_) | syn::Expr::Continue(_) => true,
        syn::Expr::Block(b) => block_diverges(&b.block),
        syn::Expr::Macro(m) => macro_diverges(&m.mac),
        syn::Expr::Call(c) => matches!(&*c.func, syn::Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "exit" || s.ident == "abort")),
        _ => false,
    }
}

fn macro_diverges(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "panic" | "bail" | "unreachable" | "todo" | "unimplemented"
        )
    })
}

/// Idents bound by a pattern.
pub fn pattern_bindings(pat: &syn::Pat, out: &mut Vec<String>) {
    if crate::budget::helper_too_deep() {
        return;
    }
    match pat {
        syn::Pat::Ident(i) => {
            out.push(i.ident.to_string());
            if let Some((_, sub)) = &i.subpat {
                pattern_bindings(sub, out);
            }
        }
        syn::Pat::TupleStruct(t) => t.elems.iter().for_each(|p| pattern_bindings(p, out)),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| pattern_bindings(p, out)),
        syn::Pat::Struct(s) => s.fields.iter().for_each(|f| pattern_bindings(&f.pat, out)),
        syn::Pat::Reference(r) => pattern_bindings(&r.pat, out),
        syn::Pat::Type(t) => pattern_bindings(&t.pat, out),
        syn::Pat::Paren(p) => pattern_bindings(&p.pat, out),
        syn::Pat::Or(o) => o.cases.iter().for_each(|p| pattern_bindings(p, out)),
        syn::Pat::Slice(s) => s.elems.iter().for_each(|p| pattern_bindings(p, out)),
        _ => {}
    }
}

/// `Err(p)` (or `Result::Err(p)`): the inner pattern.
pub fn err_pattern(pat: &syn::Pat) -> Option<&syn::Pat> {
    match pat {
        syn::Pat::TupleStruct(t) if t.path.segments.last().is_some_and(|s| s.ident == "Err") => {
            t.elems.first()
        }
        _ => None,
    }
}

/// A catch-all arm: `_`, or a plain binding that is not a constant or unit variant.
fn is_fallback_pattern(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Wild(_) => true,
        syn::Pat::Ident(i) => {
            i.subpat.is_none()
                && i.ident
                    .to_string()
                    .chars()
                    .next()
                    .is_some_and(char::is_lowercase)
        }
        _ => false,
    }
}

impl Walker<'_> {
    fn in_handler_closure(&self) -> bool {
        in_handler_closure(&self.state, self.cx.sdk)
    }

    fn expr_cx(&self) -> ExprCx<'_> {
        ExprCx {
            file: self.cx.file,
            imports: self.imports,
            sdk: self.cx.sdk,
            config: self.cx.config,
            fn_idx: self.fn_idx,
            role: self.role,
            ret: self.ret.as_ref(),
            state: &self.state,
            call: None,
        }
    }

    fn new_group(&mut self) -> u32 {
        self.state.next_group += 1;
        self.state.next_group
    }

    fn dispatch_expr(&mut self, expr: &syn::Expr) {
        let call = match expr {
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) => Some((segments(&p.path), c)),
                _ => None,
            },
            _ => None,
        };
        let mut cx = self.expr_cx();
        cx.call = call.as_ref().map(|(p, c)| (p.as_slice(), *c));
        for lint in self.cx.lints {
            lint.check_expr(&cx, expr, &mut self.out.borrow_mut());
        }
    }

    fn dispatch_macro(&mut self, mac: &syn::Macro) {
        let cx = self.expr_cx();
        for lint in self.cx.lints {
            lint.check_macro(&cx, mac, &mut self.out.borrow_mut());
        }
    }

    /// Records a call; returns its index.
    fn record_call(&mut self, callee: Callee, span: Span, args: &[&syn::Expr]) -> usize {
        self.calls.push(CallSite {
            callee,
            span,
            branch: self.state.branch.clone(),
            guarded: self.state.catch_unwind > 0,
            within: self.state.open_calls.last().copied(),
            gates: self.state.gates.clone(),
            bool_args: args.iter().map(|a| bool_literal(a)).collect(),
            in_handler_closure: self.in_handler_closure(),
        });
        self.calls.len() - 1
    }

    fn in_branch(&mut self, group: u32, diverges: bool, f: impl FnOnce(&mut Self)) {
        self.state.branches.push(BranchInfo { group, diverges });
        let id = self.state.branches.len() as u32;
        self.state.branch.push(id);
        f(self);
        self.state.branch.pop();
    }

    fn with_error_path(&mut self, bindings: Vec<String>, f: impl FnOnce(&mut Self)) {
        let before = self.state.err_bindings.len();
        self.state.err_bindings.extend(bindings);
        self.state.error_path += 1;
        f(self);
        self.state.error_path -= 1;
        self.state.err_bindings.truncate(before);
    }

    fn visit_if(&mut self, e: &syn::ExprIf) {
        self.visit_expr(&e.cond);
        let (error_bindings, on_error) = match &*e.cond {
            syn::Expr::Let(l) => match err_pattern(&l.pat) {
                Some(inner) => {
                    let mut b = Vec::new();
                    pattern_bindings(inner, &mut b);
                    (b, true)
                }
                None => (Vec::new(), false),
            },
            syn::Expr::MethodCall(m) if m.method == "is_err" => (Vec::new(), true),
            _ => (Vec::new(), false),
        };
        let group = self.new_group();
        let gates = flag_gates(&e.cond);
        let gated = gates.len();
        self.state.gates.extend(gates);
        self.in_branch(group, block_diverges(&e.then_branch), |w| {
            if on_error {
                w.with_error_path(error_bindings, |w| w.visit_block(&e.then_branch));
            } else {
                w.visit_block(&e.then_branch);
            }
        });
        let keep = self.state.gates.len() - gated;
        self.state.gates.truncate(keep);
        if let Some((_, else_branch)) = &e.else_branch {
            self.in_branch(group, expr_diverges(else_branch), |w| {
                w.visit_expr(else_branch)
            });
        }
    }

    fn visit_match(&mut self, e: &syn::ExprMatch) {
        self.visit_expr(&e.expr);
        let group = self.new_group();
        let on_name = mentions_ident(&e.expr, "name");
        for arm in &e.arms {
            self.in_branch(group, expr_diverges(&arm.body), |w| {
                let fallback = is_fallback_pattern(&arm.pat);
                if fallback {
                    w.state.fallback_arm += 1;
                    if on_name {
                        w.state.unknown_name_arm += 1;
                    }
                }
                let visit_arm = |w: &mut Self| {
                    if let Some((_, guard)) = &arm.guard {
                        w.visit_expr(guard);
                    }
                    w.visit_expr(&arm.body);
                };
                match err_pattern(&arm.pat) {
                    Some(inner) => {
                        let mut b = Vec::new();
                        pattern_bindings(inner, &mut b);
                        w.with_error_path(b, visit_arm);
                    }
                    None => visit_arm(w),
                }
                if fallback {
                    w.state.fallback_arm -= 1;
                    if on_name {
                        w.state.unknown_name_arm -= 1;
                    }
                }
            });
        }
    }

    fn visit_method_call(&mut self, e: &syn::ExprMethodCall) {
        self.place = span_of(self.cx.file, e.method.span());
        let method = e.method.to_string();
        if let Some(sdk) = self.cx.sdk
            && sdk.is_stdio_method(&method)
        {
            self.stdio_sites
                .push((span_of(self.cx.file, e.span()), self.state.branch.clone()));
        }
        // `AssertUnwindSafe(fut).catch_unwind()`: the receiver runs guarded.
        let guard = method == "catch_unwind";
        if guard {
            self.catches_panics = true;
            self.state.catch_unwind += 1;
        }
        self.visit_expr(&e.receiver);
        let self_call = matches!(&*e.receiver, syn::Expr::Path(p) if p.path.is_ident("self"));
        if self_call {
            let args: Vec<&syn::Expr> = e.args.iter().collect();
            let site = self.record_call(
                Callee::SelfMethod(method.clone()),
                span_of(self.cx.file, e.method.span()),
                &args,
            );
            self.state.open_calls.push(site);
        }
        if let Some(place) = place_key(&e.receiver) {
            let checked = match method.as_str() {
                "is_empty" => Some(&mut self.state.length_checked),
                "is_some" | "is_none" | "is_ok" | "is_err" | "peek" => {
                    Some(&mut self.state.variant_checked)
                }
                "starts_with" | "ends_with" => Some(&mut self.state.affix_checked),
                _ => None,
            };
            if let Some(set) = checked {
                set.insert(place);
            }
        }
        // A configured project guard (`self.guarded(|| ..)`) runs its arguments guarded.
        let project_guard = self.cx.config.panic_guards.contains(&method);
        if project_guard {
            self.state.catch_unwind += 1;
        }
        for arg in &e.args {
            if matches!(arg, syn::Expr::Closure(_)) {
                self.pending_closure_method = Some(method.clone());
            }
            self.visit_expr(arg);
        }
        if project_guard {
            self.state.catch_unwind -= 1;
        }
        if self_call {
            self.state.open_calls.pop();
        }
        if guard {
            self.state.catch_unwind -= 1;
        }
    }

    fn visit_call(&mut self, e: &syn::ExprCall) {
        let mut guard = false;
        if let syn::Expr::Path(p) = &*e.func {
            let segs = segments(&p.path);
            guard = segs
                .last()
                .is_some_and(|s| s == "catch_unwind" || self.cx.config.panic_guards.contains(s));
            if let Some(sdk) = self.cx.sdk
                && sdk.is_stdio_transport(self.imports, &segs)
            {
                self.stdio_sites
                    .push((span_of(self.cx.file, e.span()), self.state.branch.clone()));
            }
            let args: Vec<&syn::Expr> = e.args.iter().collect();
            let site = self.record_call(
                Callee::Path(self.imports.resolve_segments(&segs)),
                span_of(self.cx.file, p.span()),
                &args,
            );
            self.state.open_calls.push(site);
        } else {
            self.visit_expr(&e.func);
        }
        if guard {
            self.catches_panics = true;
            self.state.catch_unwind += 1;
        }
        for arg in &e.args {
            self.visit_expr(arg);
        }
        if guard {
            self.state.catch_unwind -= 1;
        }
        if matches!(&*e.func, syn::Expr::Path(_)) {
            self.state.open_calls.pop();
        }
    }

    fn visit_closure(&mut self, e: &syn::ExprClosure) {
        let method = self.pending_closure_method.take();
        let mut bindings = Vec::new();
        let error_closure = method
            .as_deref()
            .is_some_and(|m| ERROR_CLOSURE_METHODS.contains(&m));
        if error_closure && let Some(first) = e.inputs.first() {
            pattern_bindings(first, &mut bindings);
        }
        self.state.closures.push(method);
        if error_closure {
            self.with_error_path(bindings, |w| w.visit_expr(&e.body));
        } else {
            self.visit_expr(&e.body);
        }
        self.state.closures.pop();
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        if crate::budget::too_deep(self.place) {
            return;
        }
        self.dispatch_expr(expr);
        match expr {
            syn::Expr::If(e) => self.visit_if(e),
            syn::Expr::Match(e) => self.visit_match(e),
            syn::Expr::MethodCall(e) => self.visit_method_call(e),
            syn::Expr::Call(e) => self.visit_call(e),
            syn::Expr::Closure(e) => self.visit_closure(e),
            syn::Expr::Tuple(t) if t.elems.len() == 2 => {
                // `serve((stdin(), stdout()))`: the 0.1-era stdio transport.
                if let (Some(sdk), syn::Expr::Call(a), syn::Expr::Call(b)) =
                    (self.cx.sdk, &t.elems[0], &t.elems[1])
                    && let (syn::Expr::Path(pa), syn::Expr::Path(pb)) = (&*a.func, &*b.func)
                    && sdk.is_stdio_pair(self.imports, &segments(&pa.path), &segments(&pb.path))
                {
                    self.stdio_sites
                        .push((span_of(self.cx.file, t.span()), self.state.branch.clone()));
                }
                syn::visit::visit_expr(self, expr);
            }
            syn::Expr::Binary(b) => {
                use syn::BinOp::{Eq, Ge, Gt, Le, Lt, Ne};
                if matches!(b.op, Lt(_) | Le(_) | Gt(_) | Ge(_) | Eq(_) | Ne(_)) {
                    for side in [&*b.left, &*b.right] {
                        if let syn::Expr::MethodCall(m) = side
                            && m.method == "len"
                            && let Some(place) = place_key(&m.receiver)
                        {
                            self.state.length_checked.insert(place);
                        }
                    }
                }
                syn::visit::visit_expr(self, expr);
            }
            syn::Expr::Async(e) => {
                self.state.async_blocks += 1;
                self.visit_block(&e.block);
                self.state.async_blocks -= 1;
            }
            _ => {
                self.pending_closure_method = None;
                syn::visit::visit_expr(self, expr);
            }
        }
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        for attr in &local.attrs {
            self.visit_attribute(attr);
        }
        self.visit_pat(&local.pat);
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                // `let Ok(v) = r else { .. }`: the else block runs on the error path.
                let group = self.new_group();
                self.in_branch(group, true, |w| {
                    w.with_error_path(Vec::new(), |w| w.visit_expr(diverge))
                });
            }
        }
    }

    fn visit_type(&mut self, ty: &'ast syn::Type) {
        if !crate::budget::too_deep(self.place) {
            syn::visit::visit_type(self, ty);
        }
    }

    fn visit_pat(&mut self, pat: &'ast syn::Pat) {
        if !crate::budget::too_deep(self.place) {
            syn::visit::visit_pat(self, pat);
        }
    }

    fn visit_item(&mut self, _item: &'ast syn::Item) {
        // Nested items are fns of their own, with their own error types.
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            self.place = span_of(self.cx.file, last.ident.span());
        }
        self.dispatch_macro(mac);
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if !EXPR_MACROS.contains(&name.as_str()) {
            return;
        }
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = mac.parse_body_with(parser) {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }
}
