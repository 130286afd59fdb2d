//! The crate-wide type table: structs and their fields, fns and methods by name, impls and
//! traits (with their provided methods), constants, aliases (expanded within a budget) and
//! `macro_rules!`. Queries answer "what does `x.m()` call when `x: T`" and "what type does
//! this path or field have".

// A seeded fast hasher: keys are names from the crate (possibly hostile), so not an unseeded one.
use crate::model::ir::Name;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::program::{FnId, Program};
use crate::model::ir::{FnKind, MacroRulesDef, PatKind, StructDef, TypeAlias};
use crate::model::resolve::Ty;

mod aliases;

/// Items one path can name at once (alternatives under `cfg`); more is not Rust.
const MAX_SAME_PATH: usize = 8;
/// Same-named fns a path is matched against by suffix or scope, at most.
const MAX_NAMESAKES: usize = 1024;

/// Path roots that never name a crate item.
const EXTERNAL_ROOTS: &[&str] = &["std", "core", "alloc", "tokio", "serde_json", "rmcp"];

pub struct TypeTable<'a> {
    structs: HashMap<&'a str, Vec<&'a StructDef>>,
    /// (struct name, field) → the field's type, from the first struct of that name that has
    /// it: found in constant time however many fields a struct has.
    fields: HashMap<(&'a str, &'a str), &'a Ty>,
    /// `(enum, variant)` → the types of the variant's tuple fields.
    variants: HashMap<(&'a str, &'a str), &'a [Ty]>,
    /// The crate's enums, by name.
    enums: HashSet<&'a str>,
    /// (type name, method) → fns, inherent and trait impls alike.
    methods: HashMap<(&'a str, &'a str), Vec<FnId>>,
    /// (trait name, method) → the trait's provided method.
    defaults: HashMap<(&'a str, &'a str), FnId>,
    /// trait name → the type names implementing it in the crate.
    implementors: HashMap<&'a str, Vec<&'a str>>,
    /// type name → traits it implements.
    traits_of: HashMap<&'a str, Vec<&'a str>>,
    /// Every trait the crate declares.
    traits: HashMap<&'a str, ()>,
    /// Free fns by name.
    free: HashMap<&'a str, Vec<FnId>>,
    /// Free fns by name and module: a path names one of these (a few under `cfg`).
    free_at: HashMap<(&'a str, &'a [Name]), Vec<FnId>>,
    /// Types with methods.
    method_owners: HashMap<&'a str, ()>,
    /// `impl Deref for T { type Target = U; }`: `T` → `U`, for fields and methods reached by
    /// auto-deref (a newtype around `Arc<Inner>`).
    deref_targets: HashMap<&'a str, &'a Ty>,
    /// Methods by name alone, for calls whose receiver type is unknown.
    by_method_name: HashMap<&'a str, Vec<FnId>>,
    consts: HashMap<&'a str, Vec<i64>>,
    /// String constants by name.
    str_consts: HashMap<&'a str, Vec<&'a str>>,
    aliases: HashMap<&'a str, &'a TypeAlias>,
    macros: HashMap<&'a str, Vec<&'a MacroRulesDef>>,
    /// Each fn's return type with its aliases expanded: asked at every call of the fn.
    rets: Vec<Ty>,
    /// Paths the crate's code destructures as tuple structs or tuple variants (`Parameters(a)`
    /// in a pattern), as each file resolves them: calling one builds a value of its fields
    /// (only a tuple struct or variant can appear in such a pattern; a fn cannot).
    tuple_ctors: HashSet<Vec<Name>>,
    /// Per enum variant name: the strings the crate's code maps it to or from (see
    /// `variant_strings`).
    variant_strs: super::variant_strings::VariantStrings<'a>,
}

impl<'a> TypeTable<'a> {
    pub fn new(program: &Program<'a>) -> Self {
        let mut t = TypeTable {
            structs: HashMap::new(),
            fields: HashMap::new(),
            variants: HashMap::new(),
            enums: HashSet::new(),
            methods: HashMap::new(),
            defaults: HashMap::new(),
            implementors: HashMap::new(),
            traits_of: HashMap::new(),
            traits: HashMap::new(),
            free: HashMap::new(),
            free_at: HashMap::new(),
            method_owners: HashMap::new(),
            deref_targets: HashMap::new(),
            by_method_name: HashMap::new(),
            consts: HashMap::new(),
            str_consts: HashMap::new(),
            aliases: HashMap::new(),
            macros: HashMap::new(),
            rets: Vec::new(),
            tuple_ctors: HashSet::new(),
            variant_strs: Default::default(),
        };
        for file in &program.files {
            for s in &file.structs {
                t.structs.entry(&s.name).or_default().push(s);
                for (field, ty) in &s.fields {
                    t.fields.entry((&s.name, field)).or_insert(ty);
                }
            }
            for (name, variants) in &file.enums {
                t.enums.insert(name);
                for (variant, fields) in variants {
                    t.variants.entry((name, variant)).or_insert(fields);
                }
            }
            for a in &file.aliases {
                t.aliases.entry(&a.name).or_insert(a);
            }
            for c in &file.consts {
                if let Some(v) = c.int {
                    t.consts.entry(&c.name).or_default().push(v);
                }
                if let Some(v) = &c.text {
                    t.str_consts.entry(&c.name).or_default().push(v);
                }
            }
            for m in &file.macros {
                t.macros.entry(&m.name).or_default().push(m);
            }
            for tr in &file.traits {
                t.traits.insert(&tr.name, ());
            }
            for i in &file.impls {
                if let (Some(self_name), Some(trait_path)) = (&i.self_name, &i.trait_path)
                    && let Some(trait_name) = trait_path.last()
                {
                    t.implementors
                        .entry(trait_name)
                        .or_default()
                        .push(self_name);
                    t.traits_of.entry(self_name).or_default().push(trait_name);
                    if trait_name == "Deref"
                        && let Some((_, target)) = i.assoc_types.iter().find(|(n, _)| n == "Target")
                    {
                        t.deref_targets.entry(self_name).or_insert(target);
                    }
                }
            }
        }
        for id in program.fn_ids() {
            let imports = &program.file_ir(id).imports;
            for pat in &program.def(id).body.pats {
                if let PatKind::TupleStruct { path, .. } = &pat.kind {
                    t.tuple_ctors
                        .insert(imports.resolve_segments(path).into_owned());
                }
            }
        }
        for id in program.fn_ids() {
            let def = program.def(id);
            match (&def.kind, &def.owner) {
                (FnKind::Method { .. }, Some(owner)) => {
                    t.methods.entry((owner, &def.name)).or_default().push(id);
                    t.method_owners.insert(owner, ());
                    t.by_method_name.entry(&def.name).or_default().push(id);
                }
                (FnKind::TraitDefault { .. }, Some(owner)) => {
                    t.defaults.insert((owner, &def.name), id);
                    t.by_method_name.entry(&def.name).or_default().push(id);
                }
                (FnKind::Free | FnKind::Nested { .. }, _) => {
                    t.free.entry(&def.name).or_default().push(id);
                    t.free_at
                        .entry((&def.name, &def.module[..]))
                        .or_default()
                        .push(id);
                }
                _ => {}
            }
        }
        t.rets = program
            .fn_ids()
            .map(|f| t.expand(&program.def(f).ret))
            .collect();
        super::variant_strings::variant_strings(program, &mut t);
        t
    }

    pub(super) fn variant_strs(&self) -> &super::variant_strings::VariantStrings<'a> {
        &self.variant_strs
    }

    pub(super) fn set_variant_strs(&mut self, strs: super::variant_strings::VariantStrings<'a>) {
        self.variant_strs = strs;
    }

    /// Fn `f`'s return type, its aliases expanded.
    pub fn ret(&self, f: FnId) -> &Ty {
        &self.rets[f as usize]
    }

    pub fn is_struct(&self, name: &str) -> bool {
        self.structs.contains_key(name)
    }

    pub fn is_enum(&self, name: &str) -> bool {
        self.enums.contains(name)
    }

    pub fn is_trait(&self, name: &str) -> bool {
        self.traits.contains_key(name)
    }

    /// Whether `name` is a type the crate defines methods or fields for.
    pub fn is_crate_type(&self, name: &str) -> bool {
        self.structs.contains_key(name)
            || self.traits_of.contains_key(name)
            || self.method_owners.contains_key(name)
    }

    /// The type of field `field` of crate type `ty`.
    pub fn field_ty(&self, ty: &str, field: &str) -> Option<&'a Ty> {
        let mut ty = ty;
        // A few steps of auto-deref through the crate's own `Deref` impls.
        for _ in 0..4 {
            if let Some(&found) = self.fields.get(&(ty, field)) {
                return Some(found);
            }
            ty = self.deref_target(ty)?;
        }
        None
    }

    /// Whether crate struct `ty` is an MCP tool result as it serialises: a `content` field
    /// beside an `is_error` flag (`isError` on the wire), whatever the struct is called.
    pub fn is_tool_result_struct(&self, ty: &str) -> bool {
        self.field_ty(ty, "content").is_some()
            && (self.field_ty(ty, "is_error").is_some() || self.field_ty(ty, "isError").is_some())
    }

    /// Whether crate struct `ty` carries the flag an MCP tool result sends as `isError` (a
    /// `bool` field `is_error`), whatever else it holds: what a server that writes its own
    /// responses builds its results from.
    pub fn flags_errors(&self, ty: &str) -> bool {
        ["is_error", "isError"].iter().any(|f| {
            self.field_ty(ty, f).is_some_and(|t| {
                let t = payload(t).unwrap_or(t);
                t.last_segment() == Some("bool")
            })
        })
    }

    /// The types of the tuple fields of variant `variant` of the crate's enum `ty`.
    /// Whether `path` (as written in fn `f`) names a tuple struct or tuple variant: one the
    /// crate destructures somewhere, a tuple struct of the crate, or a crate enum's variant
    /// with fields.
    pub fn is_tuple_ctor(&self, program: &Program<'_>, f: FnId, path: &[Name]) -> bool {
        let resolved = program.file_ir(f).imports.resolve_segments(path);
        if self.tuple_ctors.contains(resolved.as_ref()) {
            return true;
        }
        match &resolved[..] {
            [.., ty, variant]
                if self
                    .variant_fields(ty, variant)
                    .is_some_and(|f| !f.is_empty()) =>
            {
                true
            }
            [.., name] => self
                .structs
                .get(name.as_str())
                .is_some_and(|defs| defs.iter().any(|d| d.fields.iter().any(|(f, _)| f == "0"))),
            [] => false,
        }
    }

    pub fn variant_fields(&self, ty: &str, variant: &str) -> Option<&'a [Ty]> {
        self.variants.get(&(ty, variant)).copied()
    }

    /// The crate type `ty` derefs to (`impl Deref for Service { type Target = Inner; }`,
    /// through `Arc`/`Box`), if any.
    pub fn deref_target(&self, ty: &str) -> Option<&'a str> {
        self.deref_targets
            .get(ty)
            .and_then(|t| peel(t).last_segment())
            .filter(|t| *t != ty)
    }

    /// `x.method()` with `x: ty` (a crate type name): inherent and trait-impl methods, then
    /// provided methods of the traits `ty` implements.
    pub fn method_of(&self, ty: &str, method: &str) -> Vec<FnId> {
        if let Some(found) = self.methods.get(&(ty, method)) {
            return if found.len() <= MAX_SAME_PATH {
                found.clone()
            } else {
                Vec::new()
            };
        }
        if !self.traits_of.contains_key(ty)
            && let Some(target) = self.deref_target(ty)
            && let Some(found) = self.methods.get(&(target, method))
            && found.len() <= MAX_SAME_PATH
        {
            return found.clone();
        }
        let mut out = Vec::new();
        for tr in self.traits_of.get(ty).into_iter().flatten() {
            if let Some(&d) = self.defaults.get(&(*tr, method)) {
                out.push(d);
            }
        }
        // A trait's provided method calling `self.other()` on the trait itself.
        if out.is_empty()
            && let Some(&d) = self.defaults.get(&(ty, method))
        {
            out.push(d);
        }
        out
    }

    /// `x.method()` with `x: impl Trait` / `dyn Trait` / `T: Trait`: every implementation in
    /// the crate, and the provided method.
    pub fn trait_method(&self, tr: &str, method: &str) -> Vec<FnId> {
        let mut out = Vec::new();
        for ty in self.implementors.get(tr).into_iter().flatten() {
            if let Some(found) = self.methods.get(&(*ty, method)) {
                out.extend(found.iter().copied());
            }
        }
        if let Some(&d) = self.defaults.get(&(tr, method)) {
            out.push(d);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every crate method named `method`, for receivers of unknown type.
    pub fn methods_named(&self, method: &str) -> &[FnId] {
        self.by_method_name.get(method).map_or(&[], Vec::as_slice)
    }

    pub fn free_fns(&self, name: &str) -> &[FnId] {
        self.free.get(name).map_or(&[], Vec::as_slice)
    }

    /// The value of a crate constant, when every constant of that name agrees.
    pub fn const_value(&self, name: &str) -> Option<i64> {
        let values = self.consts.get(name)?;
        let first = *values.first()?;
        values.iter().all(|v| *v == first).then_some(first)
    }

    /// The value of a crate string constant, when every constant of that name agrees.
    pub fn const_str(&self, name: &str) -> Option<&'a str> {
        let values = self.str_consts.get(name)?;
        let first = *values.first()?;
        values.iter().all(|v| *v == first).then_some(first)
    }

    /// The one string the crate's code maps variant `variant` of enum `ty` to or from; for
    /// `Self::variant`, of any enum that has the variant.
    pub fn variant_str(&self, ty: &str, variant: &str) -> Option<&'a str> {
        let mut strings = self
            .variant_strs
            .get(variant)?
            .iter()
            .filter(|(e, _)| ty == "Self" || *e == ty)
            .map(|(_, s)| *s);
        let first = strings.next()?;
        strings.all(|s| s == first).then_some(first)
    }

    pub fn macros_named(&self, name: &str) -> &[&'a MacroRulesDef] {
        self.macros.get(name).map_or(&[], Vec::as_slice)
    }

    /// The free fns `name` in `module`; none when more than `cfg` alternatives could explain
    /// (not Rust: nothing to resolve to).
    fn free_in(&self, name: &str, module: &[Name]) -> Vec<FnId> {
        match self.free_at.get(&(name, module)) {
            Some(found) if found.len() <= MAX_SAME_PATH => found.clone(),
            _ => Vec::new(),
        }
    }

    /// Resolves a path call (`f`, `module::f`, `Type::f`, `Self::f`) from fn `caller`.
    pub fn resolve_path(&self, program: &Program<'_>, caller: FnId, path: &[Name]) -> Vec<FnId> {
        let Some((name, prefix)) = path.split_last() else {
            return Vec::new();
        };
        let def = program.def(caller);
        if let Some(ty) = prefix.last()
            && (ty == "Self" || ty.chars().next().is_some_and(char::is_uppercase))
        {
            let owner = if ty == "Self" {
                def.owner.as_deref().unwrap_or("")
            } else {
                ty.as_str()
            };
            // `T::m()` on a generic parameter: its bounds' implementations.
            if let Some(g) = def.generics.iter().find(|g| g.name == owner) {
                return g
                    .bounds
                    .iter()
                    .flat_map(|b| self.trait_method(b, name))
                    .collect();
            }
            if self.is_trait(owner) && !self.methods.contains_key(&(owner, name.as_str())) {
                return self.trait_method(owner, name);
            }
            return self.method_of(owner, name);
        }
        let candidates = self.free_fns(name);
        if candidates.is_empty() {
            return Vec::new();
        }
        // A nested fn is visible in the fn that declares it (and in the fns nested there).
        let nested: Vec<FnId> = candidates
            .iter()
            .take(MAX_NAMESAKES)
            .copied()
            .filter(|&c| {
                matches!(program.def(c).kind, FnKind::Nested { .. })
                    && program.file_ir(c).file == program.file_ir(caller).file
            })
            .collect();
        if prefix.is_empty() && !nested.is_empty() {
            return nested;
        }
        let module_of = |id: FnId| &program.def(id).module;
        let this_crate = def.module.first().cloned().unwrap_or_default();
        let wanted: Vec<Name> = match prefix.first().map(Name::as_str) {
            None => def.module.to_vec(),
            Some(root) if EXTERNAL_ROOTS.contains(&root) => return Vec::new(),
            Some("crate") => std::iter::once(this_crate)
                .chain(prefix[1..].iter().cloned())
                .collect(),
            Some("self") => def
                .module
                .iter()
                .cloned()
                .chain(prefix[1..].iter().cloned())
                .collect(),
            Some("super") => {
                let mut m = def.module.to_vec();
                for seg in prefix {
                    if seg == "super" {
                        m.pop();
                    } else {
                        m.push(seg.clone());
                    }
                }
                m
            }
            Some(_) => {
                let absolute = self.free_in(name, prefix);
                if !absolute.is_empty() {
                    return absolute;
                }
                def.module
                    .iter()
                    .cloned()
                    .chain(prefix.iter().cloned())
                    .collect()
            }
        };
        let exact = self.free_in(name, &wanted);
        if !exact.is_empty() {
            return exact;
        }
        // A path relative to a re-export or the crate root: the one namesake whose module ends
        // with the path's prefix (as much of it as the module is long), else the one outside
        // the caller's module (`router::call_tool` in `tools::call_tool` names another fn).
        let named: Vec<FnId> = candidates.iter().take(MAX_NAMESAKES).copied().collect();
        let ends_with_prefix = |id: &FnId| {
            let m = module_of(*id);
            let k = prefix.len().min(m.len());
            m.ends_with(&prefix[prefix.len() - k..])
        };
        let elsewhere = |id: &FnId| prefix.is_empty() || module_of(*id)[..] != def.module[..];
        for pick in [
            named
                .iter()
                .copied()
                .filter(ends_with_prefix)
                .collect::<Vec<_>>(),
            named.iter().copied().filter(elsewhere).collect(),
        ] {
            if let [one] = pick[..] {
                return vec![one];
            }
        }
        Vec::new()
    }
}

/// Wrappers a method call sees through (auto-deref and the guards of locks).
const TRANSPARENT: &[&str] = &[
    "Arc",
    "Rc",
    "Box",
    "Pin",
    "Mutex",
    "RwLock",
    "RefCell",
    "Cell",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
    "Ref",
    "RefMut",
    "OnceCell",
    "OnceLock",
    "Lazy",
    "LazyLock",
    "ArcSwap",
    "Weak",
];

/// Peels smart pointers, locks and guards: `Arc<Mutex<Store>>` → `Store`.
pub fn peel(ty: &Ty) -> &Ty {
    let mut cur = ty;
    for _ in 0..16 {
        match cur {
            Ty::Path { path, args }
                if path
                    .last()
                    .is_some_and(|l| TRANSPARENT.contains(&l.as_str()))
                    && args.len() == 1 =>
            {
                cur = &args[0];
            }
            _ => break,
        }
    }
    cur
}

/// The value a set-once cell holds (`OnceLock<T>`, `OnceCell<T>`, tokio's `SetOnce<T>`),
/// behind pointers: its `get()` is `Option<&T>`, not an element of `T`.
pub fn once_cell_value(ty: &Ty) -> Option<&Ty> {
    let mut cur = ty;
    for _ in 0..16 {
        match cur {
            Ty::Path { path, args } if args.len() == 1 => match path.last().map(Name::as_str) {
                Some("Arc" | "Rc" | "Box") => cur = &args[0],
                Some("OnceCell" | "OnceLock" | "SetOnce") => return args.first(),
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

/// The payload of `Option<T>` / `Result<T, _>`.
pub fn payload(ty: &Ty) -> Option<&Ty> {
    match peel(ty) {
        Ty::Path { path, args }
            if path
                .last()
                .is_some_and(|l| l == "Option" || l == "Result" || l.ends_with("Result"))
                && !args.is_empty() =>
        {
            args.first()
        }
        _ => None,
    }
}

/// The element of a collection (`Vec<T>`, `[T]`, `HashSet<T>`, `VecDeque<T>`), or the value
/// of a map.
pub fn element(ty: &Ty) -> Option<&Ty> {
    match peel(ty) {
        Ty::Path { path, args } => match path.last().map(Name::as_str) {
            Some("Vec" | "[]" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet") => args.first(),
            Some("HashMap" | "BTreeMap" | "IndexMap" | "DashMap") => args.get(1),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `ty` is one of the std and common map types, whose items are key-value entries.
pub fn is_map(ty: &Ty) -> bool {
    map_key(ty).is_some()
}

/// The key type of a map type.
pub fn map_key(ty: &Ty) -> Option<Ty> {
    match peel(ty) {
        Ty::Path { path, args }
            if args.len() == 2
                && path
                    .last()
                    .is_some_and(|l| super::std_types::MAP_TYPES.contains(&l.as_str())) =>
        {
            args.first().cloned()
        }
        _ => None,
    }
}

/// The error type of a fn's declared result, as a comparable name: `Result<T, E>` → `E`'s
/// path, `anyhow::Result<T>` / `eyre::Result<T>` → their error, `io::Result<T>` → `io::Error`.
pub fn error_type(ret: &Ty) -> Option<String> {
    if let Some((_, err)) = ret.as_result() {
        return match err {
            Ty::Path { path, .. } => Some(path.join("::")),
            _ => None,
        };
    }
    match ret {
        Ty::Path { path, args }
            if args.len() == 1 && path.last().is_some_and(|l| l == "Result") =>
        {
            let krate = path.first().map(Name::as_str)?;
            match krate {
                "anyhow" | "eyre" | "color_eyre" => Some(format!("{krate}::Error")),
                "io" | "std" => Some("io::Error".into()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A type's name for method lookup: the last segment after peeling.
pub fn type_name(ty: &Ty) -> Option<&str> {
    peel(ty).last_segment()
}

/// `Self` in `ty` replaced by `owner`.
pub fn with_self(ty: &Ty, owner: Option<&str>) -> Ty {
    match (ty, owner) {
        (Ty::Path { path, args }, Some(owner)) => {
            let path = if path.len() == 1 && path[0] == "Self" {
                [Name::new(owner)].into()
            } else {
                path.clone()
            };
            Ty::Path {
                path,
                args: args.iter().map(|a| with_self(a, Some(owner))).collect(),
            }
        }
        (Ty::Tuple(items), Some(_)) => {
            Ty::Tuple(items.iter().map(|i| with_self(i, owner)).collect())
        }
        _ => ty.clone(),
    }
}
