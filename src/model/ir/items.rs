//! The items of a file's IR: fns with their bodies, impls, traits, structs, aliases,
//! constants and `macro_rules!` definitions.

use super::*;

/// An attribute: its path and its arguments as text.
#[derive(Clone, Debug)]
pub struct Attr {
    pub path: ItemPath,
    pub args: String,
}

impl Attr {
    pub fn name(&self) -> &str {
        self.path.last().map_or("", Name::as_str)
    }
}

pub fn has_attr(attrs: &[Attr], name: &str) -> bool {
    attrs.iter().any(|a| a.name() == name)
}

#[derive(Clone, Debug)]
pub struct Param {
    /// The binding's name for a plain `name: T` parameter.
    pub name: Option<Name>,
    pub pat: PatId,
    pub ty: Ty,
    pub attrs: Vec<Attr>,
}

/// A generic parameter and the traits it is bound by (`T: Tool + Send`, where clauses).
#[derive(Clone, Debug)]
pub struct Generic {
    pub name: Name,
    pub bounds: Vec<Name>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnKind {
    /// A free fn in a module.
    Free,
    /// A method or associated fn of an `impl` block.
    Method { impl_idx: u32 },
    /// A trait's provided (default) method.
    TraitDefault { trait_idx: u32 },
    /// A fn declared inside another fn's body.
    Nested { parent: u32 },
}

#[derive(Clone, Debug)]
pub struct FnDef {
    pub name: Name,
    pub name_span: Sp,
    pub kind: FnKind,
    /// The `Self` type's name for methods, the trait's name for default methods.
    pub owner: Option<Name>,
    pub module: ItemPath,
    pub attrs: Vec<Attr>,
    pub has_receiver: bool,
    pub params: Vec<Param>,
    pub generics: Vec<Generic>,
    pub ret: Ty,
    pub is_async: bool,
    pub body: Body,
}

#[derive(Clone, Debug)]
pub struct ImplDef {
    pub self_ty: Ty,
    /// The last segment of the `Self` type's path.
    pub self_name: Option<Name>,
    /// The trait's path as written (`rmcp::ServerHandler`), for trait impls.
    pub trait_path: Option<ItemPath>,
    pub attrs: Vec<Attr>,
    pub generics: Vec<Generic>,
    pub module: Vec<Name>,
    /// Associated types (`type Args = FooArgs;`).
    pub assoc_types: Vec<(Name, Ty)>,
}

#[derive(Clone, Debug)]
pub struct TraitDef {
    pub name: Name,
    pub module: Vec<Name>,
    /// Method names the trait declares (provided or not).
    pub methods: Vec<Name>,
}

#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: Name,
    pub module: Vec<Name>,
    /// Named fields (`a: T`) and tuple fields (`0: T`).
    pub fields: Vec<(Name, Ty)>,
    pub generics: Vec<Name>,
}

#[derive(Clone, Debug)]
pub struct TypeAlias {
    pub name: Name,
    pub params: Vec<Name>,
    pub target: Ty,
}

#[derive(Clone, Debug)]
pub struct ConstDef {
    pub name: Name,
    pub module: Vec<Name>,
    pub span: Sp,
    pub ty: Ty,
    /// The value, when it is an integer literal.
    pub int: Option<i64>,
    /// The value, when it is a string literal.
    pub text: Option<Name>,
    /// The span of the value expression.
    pub value_span: Sp,
}

/// A `macro_rules!` of the crate: what its expansions may call.
#[derive(Clone, Debug)]
pub struct MacroRulesDef {
    pub name: Name,
    pub module: Vec<Name>,
    /// Names called in its transcribers (`helper(..)`, `.method(..)`, `Type::f(..)`).
    pub calls: Vec<Vec<Name>>,
    pub method_calls: Vec<Name>,
}

/// A part of the file that was not modelled, with the reason.
#[derive(Clone, Debug)]
pub struct Incomplete {
    pub span: Sp,
    pub reason: String,
}

/// An enum's variants, each with the types of its tuple fields (none for other variants).
pub type Variants = Vec<(Name, Vec<Ty>)>;

/// Everything the analysis needs from one file.
#[derive(Clone, Debug)]
pub struct FileIr {
    pub file: FileId,
    pub module: Vec<Name>,
    pub imports: Imports,
    pub fns: Vec<FnDef>,
    pub impls: Vec<ImplDef>,
    pub traits: Vec<TraitDef>,
    pub structs: Vec<StructDef>,
    /// Each enum with its variants and their tuple fields' types (`Serve(ServeArgs)`).
    pub enums: Vec<(Name, Variants)>,
    pub aliases: Vec<TypeAlias>,
    pub consts: Vec<ConstDef>,
    pub macros: Vec<MacroRulesDef>,
    /// What each module of the file declares, for crate-wide name resolution.
    pub decls: Vec<crate::model::decls::ModuleDecls>,
    /// Byte ranges of items (attributes included), for suppression comments above an item.
    pub items: Vec<(usize, usize)>,
    pub incomplete: Vec<Incomplete>,
}
