//! Syntax → IR, item by item. Expressions, patterns and macros are lowered by `lower_expr`
//! and `lower_macro`; this file walks items, collects types, impls, traits, constants and
//! `macro_rules!`, and lowers each fn's signature and body.

use smol_str::ToSmolStr;
use std::collections::HashMap;

use quote::ToTokens;

use super::ir::*;
use super::lower_expr::BodyCx;
use super::resolve::{Imports, Ty, segments, trait_names};
use crate::diagnostic::FileId;

/// Lowers one parsed file.
pub fn lower_file(
    file: FileId,
    module: Vec<Name>,
    ast: &syn::File,
    crate_renames: &HashMap<String, String>,
) -> FileIr {
    let mut imports = Imports::new(crate_renames.clone());
    imports.collect(&ast.items);
    let decls = super::decls::collect(&module, &ast.items, crate_renames);
    let mut lowerer = Lowerer {
        file,
        imports,
        out: Vec::new(),
        impls: Vec::new(),
        traits: Vec::new(),
        structs: Vec::new(),
        enums: Vec::new(),
        aliases: Vec::new(),
        consts: Vec::new(),
        macros: Vec::new(),
        items: Vec::new(),
        incomplete: Vec::new(),
        rules: std::rc::Rc::new(super::expand::MacroRules::collect(&ast.items)),
        expanding_items: 0,
    };
    lowerer.items(&ast.items, &mut module.clone());
    FileIr {
        file,
        module,
        imports: lowerer.imports,
        fns: lowerer.out,
        impls: lowerer.impls,
        traits: lowerer.traits,
        structs: lowerer.structs,
        enums: lowerer.enums,
        aliases: lowerer.aliases,
        consts: lowerer.consts,
        macros: lowerer.macros,
        decls,
        items: lowerer.items,
        incomplete: lowerer.incomplete,
    }
}

struct Lowerer {
    file: FileId,
    imports: Imports,
    out: Vec<FnDef>,
    impls: Vec<ImplDef>,
    traits: Vec<TraitDef>,
    structs: Vec<StructDef>,
    enums: Vec<(Name, crate::model::ir::Variants)>,
    aliases: Vec<TypeAlias>,
    consts: Vec<ConstDef>,
    macros: Vec<MacroRulesDef>,
    items: Vec<(usize, usize)>,
    incomplete: Vec<Incomplete>,
    rules: std::rc::Rc<super::expand::MacroRules>,
    /// Item-position expansions being lowered inside each other.
    expanding_items: u32,
}

/// A fn to lower: where it sits and its syntax.
struct FnSource<'s> {
    kind: FnKind,
    owner: Option<Name>,
    attrs: &'s [syn::Attribute],
    sig: &'s syn::Signature,
    block: &'s syn::Block,
    /// Generics of the enclosing impl or trait.
    outer_generics: Vec<Generic>,
}

use super::cfg::is_test_only;
use super::span::sp;

/// The attributes as neutral data.
pub fn attrs_of(attrs: &[syn::Attribute]) -> Vec<Attr> {
    attrs
        .iter()
        .map(|a| Attr {
            path: segments(a.path()),
            args: match &a.meta {
                syn::Meta::Path(_) => String::new(),
                syn::Meta::List(l) => l.tokens.to_string(),
                syn::Meta::NameValue(nv) => nv.value.to_token_stream().to_string(),
            },
        })
        .collect()
}

fn generics_of(imports: &Imports, generics: &syn::Generics) -> Vec<Generic> {
    let mut out: Vec<Generic> = generics
        .type_params()
        .map(|p| Generic {
            name: p.ident.to_smolstr(),
            bounds: trait_names(&p.bounds),
        })
        .collect();
    if let Some(clause) = &generics.where_clause {
        for pred in &clause.predicates {
            if let syn::WherePredicate::Type(t) = pred
                && let Ty::Path { path, .. } = imports.ty(&t.bounded_ty)
                && let [name] = &path[..]
            {
                let bounds = trait_names(&t.bounds);
                match out.iter_mut().find(|g| &g.name == name) {
                    Some(g) => g.bounds.extend(bounds),
                    None => out.push(Generic {
                        name: name.clone(),
                        bounds,
                    }),
                }
            }
        }
    }
    out
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
        syn::Item::Macro(i) => &i.attrs,
        _ => &[],
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
    Some((sp(start).start as usize, sp(last).end as usize))
}

impl Lowerer {
    fn items(&mut self, items: &[syn::Item], module: &mut Vec<Name>) {
        for item in items {
            self.item(item, module, None);
        }
    }

    /// `parent`: the fn whose body holds the item.
    fn item(&mut self, item: &syn::Item, module: &mut Vec<Name>, parent: Option<u32>) {
        if is_test_only(item_attrs(item)) {
            return;
        }
        // An expanded item's tokens come from the macro and its call: no range of its own.
        if let Some(range) = item_range(item).filter(|_| self.expanding_items == 0) {
            self.items.push(range);
        }
        match item {
            syn::Item::Fn(f) => {
                let kind = match parent {
                    Some(parent) => FnKind::Nested { parent },
                    None => FnKind::Free,
                };
                self.function(
                    FnSource {
                        kind,
                        owner: None,
                        attrs: &f.attrs,
                        sig: &f.sig,
                        block: &f.block,
                        outer_generics: Vec::new(),
                    },
                    module,
                );
            }
            syn::Item::Impl(i) => self.implementation(i, module),
            syn::Item::Trait(t) => self.trait_def(t, module),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    // One path, pushed and popped: a copy per level would be quadratic in
                    // the nesting.
                    module.push(m.ident.to_smolstr());
                    self.items(inner, module);
                    module.pop();
                }
            }
            syn::Item::Struct(s) => {
                let fields = s
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let name = f
                            .ident
                            .as_ref()
                            .map_or_else(|| i.to_smolstr(), |n| n.to_smolstr());
                        (name, self.imports.ty(&f.ty))
                    })
                    .collect();
                self.structs.push(StructDef {
                    name: s.ident.to_smolstr(),
                    module: module.to_vec(),
                    fields,
                    generics: s
                        .generics
                        .type_params()
                        .map(|p| p.ident.to_smolstr())
                        .collect(),
                });
            }
            syn::Item::Enum(e) => {
                let variants = e
                    .variants
                    .iter()
                    .map(|v| {
                        let fields = match &v.fields {
                            syn::Fields::Unnamed(f) => {
                                f.unnamed.iter().map(|f| self.imports.ty(&f.ty)).collect()
                            }
                            _ => Vec::new(),
                        };
                        (v.ident.to_smolstr(), fields)
                    })
                    .collect();
                self.enums.push((e.ident.to_smolstr(), variants));
            }
            syn::Item::Type(t) => self.aliases.push(TypeAlias {
                name: t.ident.to_smolstr(),
                params: t
                    .generics
                    .type_params()
                    .map(|p| p.ident.to_smolstr())
                    .collect(),
                target: self.imports.ty(&t.ty),
            }),
            syn::Item::Const(c) => {
                let span = sp(c.ident.span());
                self.constant(&c.ident, &c.ty, &c.expr, span, module);
            }
            syn::Item::Static(s) => {
                let span = sp(s.ident.span());
                self.constant(&s.ident, &s.ty, &s.expr, span, module);
            }
            syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                if let Some(name) = &m.ident {
                    self.macros.push(super::lower_macro::macro_rules(
                        name.to_smolstr(),
                        module,
                        m.mac.tokens.clone(),
                    ));
                }
            }
            // A call of the file's own `macro_rules!` where an item goes is the items it
            // expands to (`handler!(add, +);` defining `fn add_handler`).
            syn::Item::Macro(m) => self.item_expansion(&m.mac, module, parent),
            _ => {}
        }
    }

    /// Lowers the items a call of the file's own `macro_rules!` expands to, within the
    /// expansion budget and nesting bound.
    fn item_expansion(&mut self, mac: &syn::Macro, module: &mut Vec<Name>, parent: Option<u32>) {
        if self.expanding_items >= super::expand::MAX_NESTED {
            return;
        }
        let Some(name) = mac.path.get_ident() else {
            return;
        };
        let Some(tokens) = self.rules.expand(&name.to_string(), mac.tokens.clone()) else {
            return;
        };
        let Ok(file) = syn::parse2::<syn::File>(tokens) else {
            return;
        };
        self.expanding_items += 1;
        for item in &file.items {
            self.item(item, module, parent);
        }
        self.expanding_items -= 1;
    }

    fn constant(
        &mut self,
        ident: &syn::Ident,
        ty: &syn::Type,
        expr: &syn::Expr,
        span: Sp,
        module: &[Name],
    ) {
        let ty = self.imports.ty(ty);
        let int = super::lower_expr::int_literal(expr);
        let mut cx = BodyCx::new(self.file, &self.imports, self.rules.clone());
        let root = cx.expr(expr);
        let value_span = cx.body.expr(root).span;
        let text = cx.body.str_lit(root).map(Name::from);
        self.consts.push(ConstDef {
            name: ident.to_smolstr(),
            module: module.to_vec(),
            span,
            ty: ty.clone(),
            int,
            text,
            value_span,
        });
        // An initializer with code in it (`Lazy::new(|| ..)`) is analysed like a fn.
        if int.is_none() && !matches!(cx.body.expr(root).kind, ExprKind::Lit(_)) {
            cx.body.root = Some(root);
            let (body, incomplete, _) = cx.finish();
            self.incomplete.extend(incomplete);
            self.out.push(FnDef {
                name: ident.to_smolstr(),
                name_span: span,
                kind: FnKind::Free,
                owner: None,
                module: crate::model::intern::path(module.to_vec()),
                attrs: vec![Attr {
                    path: crate::model::intern::path(vec!["const_init".into()]),
                    args: String::new(),
                }],
                has_receiver: false,
                params: Vec::new(),
                generics: Vec::new(),
                ret: ty,
                is_async: false,
                body,
            });
        }
    }

    fn implementation(&mut self, i: &syn::ItemImpl, module: &mut Vec<Name>) {
        let self_ty = self.imports.ty(&i.self_ty);
        // A type a macro substituted (`impl $ty { .. }`) arrives in an invisible group.
        let mut self_syn = &*i.self_ty;
        while let syn::Type::Group(g) = self_syn {
            self_syn = &g.elem;
        }
        let self_name = match self_syn {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_smolstr()),
            _ => None,
        };
        let generics = generics_of(&self.imports, &i.generics);
        let impl_idx = self.impls.len() as u32;
        self.impls.push(ImplDef {
            self_ty,
            self_name: self_name.clone(),
            trait_path: i.trait_.as_ref().map(|(_, p, _)| segments(p)),
            attrs: attrs_of(&i.attrs),
            generics: generics.clone(),
            module: module.to_vec(),
            assoc_types: i
                .items
                .iter()
                .filter_map(|item| match item {
                    syn::ImplItem::Type(t) => Some((t.ident.to_smolstr(), self.imports.ty(&t.ty))),
                    _ => None,
                })
                .collect(),
        });
        for item in &i.items {
            match item {
                syn::ImplItem::Fn(f) => {
                    if is_test_only(&f.attrs) {
                        continue;
                    }
                    let start = f
                        .attrs
                        .first()
                        .map_or(f.sig.fn_token.span, |a| a.pound_token.span);
                    self.items.push((
                        sp(start).start as usize,
                        sp(f.block.brace_token.span.close()).end as usize,
                    ));
                    self.function(
                        FnSource {
                            kind: FnKind::Method { impl_idx },
                            owner: self_name.clone(),
                            attrs: &f.attrs,
                            sig: &f.sig,
                            block: &f.block,
                            outer_generics: generics.clone(),
                        },
                        module,
                    );
                }
                syn::ImplItem::Const(c) => {
                    let span = sp(c.ident.span());
                    self.constant(&c.ident, &c.ty, &c.expr, span, module);
                }
                _ => {}
            }
        }
    }

    fn trait_def(&mut self, t: &syn::ItemTrait, module: &mut Vec<Name>) {
        let trait_idx = self.traits.len() as u32;
        let name = t.ident.to_smolstr();
        let generics = generics_of(&self.imports, &t.generics);
        let mut methods = Vec::new();
        for item in &t.items {
            let syn::TraitItem::Fn(f) = item else {
                continue;
            };
            methods.push(f.sig.ident.to_smolstr());
            if let Some(block) = &f.default
                && !is_test_only(&f.attrs)
            {
                self.function(
                    FnSource {
                        kind: FnKind::TraitDefault { trait_idx },
                        owner: Some(name.clone()),
                        attrs: &f.attrs,
                        sig: &f.sig,
                        block,
                        outer_generics: generics.clone(),
                    },
                    module,
                );
            }
        }
        self.traits.push(TraitDef {
            name,
            module: module.to_vec(),
            methods,
        });
    }

    fn function(&mut self, src: FnSource<'_>, module: &mut Vec<Name>) {
        let sig = src.sig;
        let ret = match &sig.output {
            syn::ReturnType::Default => Ty::unit(),
            syn::ReturnType::Type(_, ty) => self.imports.ty(ty),
        };
        let mut generics = src.outer_generics;
        generics.extend(generics_of(&self.imports, &sig.generics));
        // The body borrows the imports while its nested items are collected for later.
        let imports = std::mem::take(&mut self.imports);
        let mut cx = BodyCx::new(self.file, &imports, self.rules.clone());
        let mut has_receiver = false;
        let mut params = Vec::new();
        for arg in &sig.inputs {
            match arg {
                syn::FnArg::Receiver(_) => has_receiver = true,
                syn::FnArg::Typed(t) => {
                    let pat = cx.pat(&t.pat);
                    let name = match &*t.pat {
                        syn::Pat::Ident(i) => Some(i.ident.to_smolstr()),
                        _ => None,
                    };
                    let ty = imports.ty(&t.ty);
                    // `impl Trait` arguments are generics in effect.
                    if let Ty::Traits(bounds) = &ty
                        && let Some(name) = &name
                    {
                        generics.push(Generic {
                            name: smol_str::format_smolstr!("impl {name}"),
                            bounds: bounds.clone(),
                        });
                    }
                    params.push(Param {
                        name,
                        pat,
                        ty,
                        attrs: attrs_of(&t.attrs),
                    });
                }
            }
        }
        let root = cx.block_expr(src.block, BlockKind::Plain, None);
        cx.body.root = Some(root);
        let (body, incomplete, nested) = cx.finish();
        self.imports = imports;
        self.incomplete.extend(incomplete);
        let idx = self.out.len() as u32;
        self.out.push(FnDef {
            name: sig.ident.to_smolstr(),
            name_span: sp(sig.ident.span()),
            kind: src.kind,
            owner: src.owner,
            module: crate::model::intern::path(module.to_vec()),
            attrs: attrs_of(src.attrs),
            has_receiver,
            params,
            generics,
            ret,
            is_async: sig.asyncness.is_some(),
            body,
        });
        for item in nested {
            self.item(item, module, Some(idx));
        }
    }
}
