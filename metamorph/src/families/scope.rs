//! The scope a fn body is read in, and what a callee or a container expects of a callable
//! argument (the parameter types of an `Fn(..)` bound or a fn pointer type).

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

use super::fns::{FnDef, Index, ModPath, text, type_name};

/// Where a fn body is: its module and impl, and the names it binds or declares.
pub struct Scope {
    pub file: String,
    pub module: ModPath,
    /// The self type of the enclosing impl, when the impl is not generic.
    pub self_ty: Option<String>,
    /// Generic parameters of the fn and of its impl or trait.
    pub generics: BTreeSet<String>,
    /// How often a pattern binds each name in the fn (closure parameters included).
    bindings: BTreeMap<String, usize>,
    /// The types of `name: Type` bindings (parameters, annotated lets).
    annotated: BTreeMap<String, Vec<syn::Type>>,
    /// Names of items and imports declared inside the body.
    local_items: BTreeSet<String>,
    pub is_const: bool,
}

impl Scope {
    /// Whether `name` may mean something else than a module-level item here.
    pub fn shadows(&self, name: &str) -> bool {
        self.bindings.contains_key(name)
            || self.local_items.contains(name)
            || self.generics.contains(name)
    }

    /// The declared type of local `name`, when every binding of it declares the same one.
    fn local_type(&self, name: &str) -> Option<&syn::Type> {
        let types = self.annotated.get(name)?;
        let first = types.first()?;
        let all = self.bindings.get(name).copied().unwrap_or(0);
        (types.len() == all && types.iter().all(|t| text(t) == text(first))).then_some(first)
    }
}

/// Calls `f` with the scope and body of every fn of `items` (inline modules, impls and trait
/// default methods included; a fn nested in a body is read with its outer fn).
pub fn each_fn(
    file: &str,
    module: &ModPath,
    items: &[syn::Item],
    f: &mut dyn FnMut(&Scope, &syn::Block),
) {
    for item in items {
        match item {
            syn::Item::Fn(i) => visit_fn(file, module, None, &BTreeSet::new(), &i.sig, &i.block, f),
            syn::Item::Impl(i) => {
                let self_ty = if i.generics.params.is_empty() {
                    type_name(&i.self_ty)
                } else {
                    None
                };
                let outer = crate::syntax::generic_names(&i.generics);
                for it in &i.items {
                    if let syn::ImplItem::Fn(m) = it {
                        visit_fn(file, module, self_ty.clone(), &outer, &m.sig, &m.block, f);
                    }
                }
            }
            syn::Item::Trait(t) => {
                let outer = crate::syntax::generic_names(&t.generics);
                for it in &t.items {
                    if let syn::TraitItem::Fn(m) = it
                        && let Some(body) = &m.default
                    {
                        visit_fn(file, module, None, &outer, &m.sig, body, f);
                    }
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let mut child = module.clone();
                    child.path.push(m.ident.to_string());
                    each_fn(file, &child, inner, f);
                }
            }
            _ => {}
        }
    }
}

fn visit_fn(
    file: &str,
    module: &ModPath,
    self_ty: Option<String>,
    outer: &BTreeSet<String>,
    sig: &syn::Signature,
    block: &syn::Block,
    f: &mut dyn FnMut(&Scope, &syn::Block),
) {
    let mut names = Names::default();
    for input in &sig.inputs {
        if let syn::FnArg::Typed(t) = input {
            names.visit_pat_type(t);
        }
    }
    names.visit_block(block);
    let mut generics = outer.clone();
    generics.extend(crate::syntax::generic_names(&sig.generics));
    let scope = Scope {
        file: file.to_string(),
        module: module.clone(),
        self_ty,
        generics,
        bindings: names.bindings,
        annotated: names.annotated,
        local_items: names.items,
        is_const: sig.constness.is_some(),
    };
    f(&scope, block);
}

#[derive(Default)]
struct Names {
    bindings: BTreeMap<String, usize>,
    annotated: BTreeMap<String, Vec<syn::Type>>,
    items: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Names {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        *self.bindings.entry(p.ident.to_string()).or_default() += 1;
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_pat_type(&mut self, p: &'ast syn::PatType) {
        if let syn::Pat::Ident(id) = &*p.pat
            && id.subpat.is_none()
        {
            let entry = self.annotated.entry(id.ident.to_string()).or_default();
            entry.push((*p.ty).clone());
        }
        syn::visit::visit_pat_type(self, p);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        let mut found = super::fns::FileFacts::default();
        found.visit_item(item);
        self.items.extend(found.names());
        syn::visit::visit_item(self, item);
    }
}

/// What a callable argument is expected to be: its parameter types and output, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedSig {
    pub params: Vec<String>,
    pub output: Output,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Unit,
    /// A generic parameter of the callee: any output fits.
    Generic,
    Type(String),
}

impl ExpectedSig {
    /// Whether `def` fits as it is: the same parameter types, and an output the expectation
    /// leaves open or spells alike.
    pub fn fits(&self, def: &FnDef) -> bool {
        let params: Vec<String> = def.params().into_iter().map(text).collect();
        if params != self.params {
            return false;
        }
        match (&self.output, &def.sig.output) {
            (Output::Generic, _) => true,
            _ if def.sig.asyncness.is_some() => false,
            (Output::Unit, syn::ReturnType::Default) => true,
            (Output::Type(t), syn::ReturnType::Type(_, ty)) => *t == text(&**ty),
            _ => false,
        }
    }
}

/// Aliases of aliases are followed this far (a cycle does not compile anyway).
const ALIAS_DEPTH: usize = 4;

/// The expectation a `impl Fn(..)`, a generic `F: Fn(..)`, a fn pointer type or an alias of
/// one sets; `generics` are the callee's.
pub fn fn_like(
    ty: &syn::Type,
    generics: Option<&syn::Generics>,
    index: &Index,
) -> Option<ExpectedSig> {
    fn_like_at(ty, generics, index, 0)
}

fn fn_like_at(
    ty: &syn::Type,
    generics: Option<&syn::Generics>,
    index: &Index,
    depth: usize,
) -> Option<ExpectedSig> {
    let open = generics
        .map(crate::syntax::generic_names)
        .unwrap_or_default();
    match ty {
        syn::Type::Paren(p) => fn_like_at(&p.elem, generics, index, depth),
        syn::Type::ImplTrait(t) => t.bounds.iter().find_map(|b| from_bound(b, &open)),
        syn::Type::BareFn(f) if f.unsafety.is_none() && f.abi.is_none() && f.variadic.is_none() => {
            Some(ExpectedSig {
                params: f.inputs.iter().map(|a| text(&a.ty)).collect(),
                output: output_of(&f.output, &BTreeSet::new()),
            })
        }
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let name = p.path.segments[0].ident.to_string();
            if let Some(g) = generics.filter(|_| open.contains(&name)) {
                return param_bounds(g, &name).find_map(|b| from_bound(b, &open));
            }
            let target = index.alias(&name).filter(|_| depth < ALIAS_DEPTH)?;
            fn_like_at(target, None, index, depth + 1)
        }
        _ => None,
    }
}

/// The expectation a `Box<dyn Fn(..)>` (or `Arc`, `Rc`, or an alias of one) sets for what
/// is boxed.
pub fn boxed_fn_like(ty: &syn::Type, index: &Index) -> Option<ExpectedSig> {
    let mut ty = ty;
    for _ in 0..ALIAS_DEPTH {
        let syn::Type::Path(p) = ty else {
            return None;
        };
        let last = p.path.segments.last()?;
        if let syn::PathArguments::AngleBracketed(args) = &last.arguments
            && matches!(last.ident.to_string().as_str(), "Box" | "Arc" | "Rc")
            && let Some(syn::GenericArgument::Type(syn::Type::TraitObject(obj))) = args.args.first()
        {
            return obj
                .bounds
                .iter()
                .find_map(|b| from_bound(b, &BTreeSet::new()));
        }
        ty = index.alias(&type_name(ty)?)?;
    }
    None
}

/// The bounds a generic parameter `name` has, inline and in the where clause.
fn param_bounds<'g>(
    generics: &'g syn::Generics,
    name: &'g str,
) -> impl Iterator<Item = &'g syn::TypeParamBound> {
    let inline = generics
        .type_params()
        .filter(move |t| t.ident == name)
        .flat_map(|t| &t.bounds);
    let clause = generics
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .filter_map(move |p| match p {
            syn::WherePredicate::Type(t) if type_name(&t.bounded_ty).as_deref() == Some(name) => {
                Some(&t.bounds)
            }
            _ => None,
        })
        .flatten();
    inline.chain(clause)
}

fn from_bound(bound: &syn::TypeParamBound, open: &BTreeSet<String>) -> Option<ExpectedSig> {
    let syn::TypeParamBound::Trait(t) = bound else {
        return None;
    };
    let seg = t.path.segments.last()?;
    if !matches!(seg.ident.to_string().as_str(), "Fn" | "FnMut" | "FnOnce") {
        return None;
    }
    let syn::PathArguments::Parenthesized(p) = &seg.arguments else {
        return None;
    };
    Some(ExpectedSig {
        params: p.inputs.iter().map(text).collect(),
        output: output_of(&p.output, open),
    })
}

fn output_of(output: &syn::ReturnType, open: &BTreeSet<String>) -> Output {
    match output {
        syn::ReturnType::Default => Output::Unit,
        syn::ReturnType::Type(_, ty) => match ty.as_ref() {
            syn::Type::Path(p)
                if p.path
                    .get_ident()
                    .is_some_and(|i| open.contains(&i.to_string())) =>
            {
                Output::Generic
            }
            ty => Output::Type(text(ty)),
        },
    }
}

/// What is known of the place a callable argument goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgPlace {
    /// An `Fn(..)` bound or fn pointer type says its signature.
    Expected(ExpectedSig),
    /// No such expectation is known (a callee outside the tree, a bound of another trait).
    Open,
    /// A map or vector whose element type is not known: every value put in it must have one
    /// type, which a closure (unique type) may break.
    Container,
}

/// A call or a method call.
#[derive(Clone, Copy)]
pub enum Callee<'a> {
    Call(&'a syn::ExprCall),
    Method(&'a syn::ExprMethodCall),
}

/// The place of argument `idx` of `callee`. `boxed`: the callable is inside a `Box::new(..)`
/// (or `Arc`/`Rc`) given as that argument.
pub fn arg_place(
    index: &Index,
    scope: &Scope,
    callee: Callee<'_>,
    idx: usize,
    boxed: bool,
) -> ArgPlace {
    let expect = |ty: &syn::Type, generics: Option<&syn::Generics>| {
        if boxed {
            boxed_fn_like(ty, index)
        } else {
            fn_like(ty, generics, index)
        }
    };
    let found = match callee {
        Callee::Call(call) => {
            let syn::Expr::Path(p) = &*call.func else {
                return ArgPlace::Open;
            };
            match index.candidates(p, scope).as_slice() {
                [def] => param(def, idx).and_then(|ty| expect(ty, Some(&def.sig.generics))),
                _ => None,
            }
        }
        Callee::Method(m) => {
            if let Some(elem) = container_elem(index, scope, m, idx) {
                return match elem {
                    Some(ty) => expect(ty, None).map_or(ArgPlace::Container, ArgPlace::Expected),
                    None => ArgPlace::Container,
                };
            }
            let defs: Vec<&FnDef> = index
                .fns
                .iter()
                .filter(|f| {
                    f.sig.ident == m.method
                        && matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(_)))
                })
                .collect();
            let sigs: Vec<Option<ExpectedSig>> = defs
                .iter()
                .map(|d| param(d, idx + 1).and_then(|ty| expect(ty, Some(&d.sig.generics))))
                .collect();
            match sigs.split_first() {
                Some((first, rest)) if rest.iter().all(|s| s == first) => first.clone(),
                _ => None,
            }
        }
    };
    found.map_or(ArgPlace::Open, ArgPlace::Expected)
}

fn param(def: &FnDef, idx: usize) -> Option<&syn::Type> {
    match def.sig.inputs.iter().nth(idx)? {
        syn::FnArg::Typed(t) => Some(&t.ty),
        syn::FnArg::Receiver(_) => None,
    }
}

/// For a value put in a map or vector (`insert`, `push`): `Some(element type if known)`;
/// `None` when the call is not that (another method, or a receiver of a known other type).
fn container_elem<'a>(
    index: &'a Index,
    scope: &'a Scope,
    m: &syn::ExprMethodCall,
    idx: usize,
) -> Option<Option<&'a syn::Type>> {
    let method = m.method.to_string();
    let value_at = match method.as_str() {
        "insert" => 1,
        "push" | "push_back" | "push_front" => 0,
        _ => return None,
    };
    if idx != value_at {
        return None;
    }
    let declared = match &*m.receiver {
        syn::Expr::Path(p) => p
            .path
            .get_ident()
            .and_then(|i| scope.local_type(&i.to_string())),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(name) => index.field_type(&scope.file, &name.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        _ => None,
    };
    let Some(declared) = declared else {
        return Some(None);
    };
    let declared = match type_name(declared) {
        Some(name) if index.is_alias(&name) => index.alias(&name)?,
        _ => declared,
    };
    let (kind, args) = generic_args(declared)?;
    let elem = match (kind.as_str(), method.as_str(), args.as_slice()) {
        ("HashMap" | "BTreeMap" | "IndexMap", "insert", [_, v, ..]) => *v,
        ("Vec" | "VecDeque", _, [v]) => *v,
        ("HashMap" | "BTreeMap" | "IndexMap" | "Vec" | "VecDeque", _, _) => return Some(None),
        _ => return None,
    };
    Some(Some(elem))
}

/// A type path's last name and its type arguments (references stripped).
fn generic_args(ty: &syn::Type) -> Option<(String, Vec<&syn::Type>)> {
    match ty {
        syn::Type::Reference(r) => generic_args(&r.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let args = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        syn::GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Some((last.ident.to_string(), args))
        }
        _ => None,
    }
}
