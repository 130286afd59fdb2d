//! What a path names in the scope of a fn body: the tree's fn it calls, through the body's
//! module, its impl's `Self`, the file's imports from the tree and what the body shadows.

use super::fns::{FnDef, Index, ModPath};
use super::scope::Scope;

impl Index {
    /// The one plain fn `path` names at `scope`.
    pub fn resolve(&self, path: &syn::ExprPath, scope: &Scope) -> Option<&FnDef> {
        match self.candidates(path, scope).as_slice() {
            [f] if f.plain => Some(f),
            _ => None,
        }
    }

    /// Every fn of the tree `path` may name at `scope` (generic ones included).
    pub fn candidates(&self, path: &syn::ExprPath, scope: &Scope) -> Vec<&FnDef> {
        if path.qself.is_some() || path.path.segments.iter().any(|s| !s.arguments.is_none()) {
            return Vec::new();
        }
        let segs: Vec<String> = path
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let Some((name, prefix)) = segs.split_last() else {
            return Vec::new();
        };
        if prefix.is_empty() && scope.shadows(name) {
            return Vec::new();
        }
        if let [ty] = prefix
            && (ty == "Self" || ty.starts_with(|c: char| c.is_uppercase()))
        {
            return self.associated(ty, name, scope);
        }
        let Some(module) = self.resolve_module(prefix, scope, 0) else {
            return Vec::new();
        };
        let found = self.free_fns(name, &module);
        if !found.is_empty() || !prefix.is_empty() {
            return found;
        }
        // A name imported from the tree: `use crate::tools::read;`.
        match self.internal_use(&scope.file, name) {
            Some(full) => match full.split_last() {
                Some((leaf, pre)) => self
                    .resolve_module(pre, scope, 1)
                    .map_or_else(Vec::new, |m| self.free_fns(leaf, &m)),
                None => Vec::new(),
            },
            None => Vec::new(),
        }
    }

    pub(super) fn free_fns(&self, name: &str, module: &ModPath) -> Vec<&FnDef> {
        self.fns
            .iter()
            .filter(|f| f.owner.is_none() && f.sig.ident == name && f.module == *module)
            .collect()
    }

    /// `Self::f` in an impl of the type; `Type::f` for a type the file declares or imports
    /// from the tree.
    fn associated(&self, ty: &str, name: &str, scope: &Scope) -> Vec<&FnDef> {
        let owner = if ty == "Self" {
            match &scope.self_ty {
                Some(t) => t.as_str(),
                None => return Vec::new(),
            }
        } else {
            let facts = self.files.get(&scope.file);
            let known = facts.is_some_and(|f| f.items.contains(ty))
                || self.internal_use(&scope.file, ty).is_some();
            if scope.shadows(ty) || !known {
                return Vec::new();
            }
            ty
        };
        self.fns
            .iter()
            .filter(|f| f.owner.as_deref() == Some(owner) && f.sig.ident == name)
            .collect()
    }

    /// The module a path prefix names (`crate::a`, `self::a`, `super::a`, `a`).
    fn resolve_module(&self, prefix: &[String], scope: &Scope, depth: usize) -> Option<ModPath> {
        let Some((first, rest)) = prefix.split_first() else {
            return Some(scope.module.clone());
        };
        let mut module = match first.as_str() {
            "crate" => ModPath {
                krate: scope.module.krate.clone(),
                path: Vec::new(),
            },
            "self" => scope.module.clone(),
            "super" => {
                let mut m = scope.module.clone();
                m.path.pop()?;
                m
            }
            _ if depth == 0 && self.internal_use(&scope.file, first).is_some() => {
                let mut full = self.internal_use(&scope.file, first)?;
                full.extend(rest.iter().cloned());
                return self.resolve_module(&full, scope, depth + 1);
            }
            _ if self.crate_names.contains(first) || depth > 0 => return None,
            _ => scope.module.child(first),
        };
        for seg in rest {
            if seg == "self" {
                continue;
            } else if seg == "super" {
                module.path.pop()?;
            } else {
                module.path.push(seg.clone());
            }
        }
        Some(module)
    }
}
