//! One file's paths rewritten through the crate's [`DefMap`]: its imports (names and globs),
//! every type it writes and every item path in its bodies.

use foldhash::HashMap;

use crate::model::intern;
use crate::model::ir::{Body, ExprKind, FileIr, Name, PatKind, Stmt};
use crate::model::resolve::{Imports, Ty};

use super::def_map::{Canon, DefMap};

/// How deep globs of the crate's own modules are followed (`use crate::prelude::*` where the
/// prelude globs another module). A cycle of globs ends here.
const MAX_GLOB_DEPTH: usize = 8;

pub(super) fn file(ir: &mut FileIr, map: &DefMap) {
    let from = ir.module.clone();
    resolve_imports(ir, map, &from);
    let path = |p: &[Name]| rewritten(map, p, &from);
    // A type was resolved while its file was lowered, before the names that globs of the
    // crate's modules bring in were known: a single name is looked up again now.
    let imports = &ir.imports;
    let type_path = |p: &[Name]| match p {
        [_] => match imports.resolve_segments(p) {
            std::borrow::Cow::Owned(resolved) => Some(resolved),
            std::borrow::Cow::Borrowed(_) => None,
        },
        _ => path(p),
    };
    let path = &path;
    let type_path = &type_path;
    for f in &mut ir.fns {
        for p in &mut f.params {
            ty(&mut p.ty, type_path);
        }
        ty(&mut f.ret, type_path);
        body(&mut f.body, path, type_path);
    }
    for i in &mut ir.impls {
        ty(&mut i.self_ty, type_path);
        for (_, t) in &mut i.assoc_types {
            ty(t, type_path);
        }
        if let Some(written) = i.trait_path.as_mut()
            && let Some(resolved) = path(written)
        {
            *written = intern::path(resolved);
        }
    }
    for s in &mut ir.structs {
        for (_, t) in &mut s.fields {
            ty(t, type_path);
        }
    }
    for (_, variants) in &mut ir.enums {
        for t in variants.iter_mut().flat_map(|(_, tys)| tys) {
            ty(t, type_path);
        }
    }
    for a in &mut ir.aliases {
        ty(&mut a.target, type_path);
    }
    for c in &mut ir.consts {
        ty(&mut c.ty, type_path);
    }
}

/// The path to put in place of `path`: the extern path the crate's re-exports name, or the
/// crate-rooted path of one written from `crate`, `self` or `super`. `None` keeps `path`: a
/// single name (the file's imports and locals resolve it), a path the crate does not declare,
/// or one that names the crate's own item relative to where it is written.
fn rewritten(map: &DefMap, path: &[Name], from: &[Name]) -> Option<Vec<Name>> {
    if path.len() < 2 {
        return None;
    }
    match map.canonical(path, from)? {
        Canon::Extern(p) => Some(p),
        Canon::Crate(p) if matches!(path[0].as_str(), "crate" | "self" | "super") => {
            (p != path).then_some(p)
        }
        Canon::Crate(_) => None,
    }
}

/// The file's imports resolved through the crate: each name's target, then the names and
/// globs that globs of the crate's own modules bring in.
fn resolve_imports(ir: &mut FileIr, map: &DefMap, from: &[Name]) {
    // A name imported in an inline module is resolved from that module.
    let mut declared_in: HashMap<&[Name], &[Name]> = HashMap::default();
    for d in ir.decls.iter().rev() {
        for (_, target) in &d.uses {
            declared_in.insert(target, &d.module);
        }
    }
    ir.imports.map_targets(|target| {
        let module = declared_in.get(target).copied().unwrap_or(from);
        rewritten(map, target, module)
    });
    let globs: Vec<Vec<Name>> = ir.imports.globs().to_vec();
    for glob in globs {
        if let Some(Canon::Crate(module)) = map.canonical(&glob, from) {
            let root = from.first().cloned().unwrap_or_default();
            let module: Vec<Name> = std::iter::once(root)
                .chain(module[1..].iter().cloned())
                .collect();
            import_module(&mut ir.imports, map, &module, from, 0);
        }
    }
}

/// Brings in what a glob of the crate's module `module` imports into the file at `from`: its
/// `use` names (a name the file declares itself wins) and, through its own globs, more.
fn import_module(
    imports: &mut Imports,
    map: &DefMap,
    module: &[Name],
    from: &[Name],
    depth: usize,
) {
    let Some(m) = map.module_imports(module) else {
        return;
    };
    if depth > MAX_GLOB_DEPTH {
        return;
    }
    for (name, target) in m.uses {
        if map.declares(from, name) || imports.imports_name(name) {
            continue;
        }
        let full = match map.canonical(target, module) {
            Some(Canon::Extern(p) | Canon::Crate(p)) => p,
            None => target.to_vec(),
        };
        imports.import_through_glob(name.clone(), full);
    }
    for glob in m.globs {
        match map.canonical(glob, module) {
            Some(Canon::Crate(inner)) => {
                let root = module[0].clone();
                let inner: Vec<Name> = std::iter::once(root)
                    .chain(inner[1..].iter().cloned())
                    .collect();
                import_module(imports, map, &inner, from, depth + 1);
            }
            Some(Canon::Extern(p)) => imports.add_glob(p),
            None => imports.add_glob(glob.iter().skip_while(|s| s.is_empty()).cloned().collect()),
        }
    }
}

fn ty(t: &mut Ty, path: &impl Fn(&[Name]) -> Option<Vec<Name>>) {
    match t {
        Ty::Path { path: p, args } => {
            if let Some(resolved) = path(p) {
                *p = intern::path(resolved);
            }
            for a in args {
                ty(a, path);
            }
        }
        Ty::Tuple(items) => {
            for item in items {
                ty(item, path);
            }
        }
        Ty::Traits(_) | Ty::Other => {}
    }
}

/// Item paths, types of `let`s, casts, typed patterns and closure parameters of one body.
fn body(
    b: &mut Body,
    path: &impl Fn(&[Name]) -> Option<Vec<Name>>,
    type_path: &impl Fn(&[Name]) -> Option<Vec<Name>>,
) {
    let item = |p: &mut crate::model::ir::ItemPath| {
        if let Some(resolved) = path(p) {
            *p = intern::path(resolved);
        }
    };
    for e in &mut b.exprs {
        match &mut e.kind {
            ExprKind::Path(p) | ExprKind::Struct { path: p, .. } => item(p),
            ExprKind::Cast { ty: t, .. } => ty(t, type_path),
            ExprKind::Block { stmts, .. } => {
                for s in stmts {
                    if let Stmt::Let { ty: Some(t), .. } = s {
                        ty(t, type_path);
                    }
                }
            }
            _ => {}
        }
    }
    for p in &mut b.pats {
        match &mut p.kind {
            PatKind::Path(p)
            | PatKind::TupleStruct { path: p, .. }
            | PatKind::Struct { path: p, .. } => item(p),
            PatKind::Typed { ty: t, .. } => ty(t, type_path),
            _ => {}
        }
    }
    for c in &mut b.closures {
        for t in c.param_tys.iter_mut().flatten() {
            ty(t, type_path);
        }
    }
}
