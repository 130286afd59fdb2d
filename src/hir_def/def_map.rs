//! The crate's module tree with what each module declares, and paths resolved through it:
//! `use` and `pub use` items (renamed or not, chained through any number of modules), glob
//! imports of the crate's own modules, `crate`, `self` and `super`, and paths relative to the
//! module they are written in. A path that leaves the crate ends as the extern path its
//! re-exports name (`crate::errors::McpError` → `rmcp::ErrorData`).

use foldhash::{HashMap, HashSet};

use crate::model::decls::ModuleDecls;
use crate::model::ir::Name;

/// How many re-exports one path may go through. Real chains are a few steps long; a cycle of
/// `pub use` items (which rustc rejects) stops here instead of looping.
const MAX_STEPS: usize = 32;

/// What a path names once the crate's re-exports are followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Canon {
    /// An item of another crate, by the path the re-exports name (`["rmcp", "ErrorData"]`).
    Extern(Vec<Name>),
    /// A module or item of this crate, from its root: `["crate", "tools", "read"]`. An item the
    /// map does not know (an enum's variant, an associated fn) keeps the rest of the path.
    Crate(Vec<Name>),
}

#[derive(Default)]
struct Module {
    uses: HashMap<Name, Vec<Name>>,
    globs: Vec<Vec<Name>>,
    items: HashSet<Name>,
    modules: HashSet<Name>,
}

impl Module {
    fn declares(&self, name: &str) -> bool {
        self.modules.contains(name) || self.items.contains(name) || self.uses.contains_key(name)
    }
}

/// The modules of one crate, keyed by their path from the root (the package name first).
#[derive(Default)]
pub struct DefMap {
    modules: HashMap<Vec<Name>, Module>,
}

impl DefMap {
    /// Joins the declarations of every file of a crate. Two modules at one path (a package's
    /// library and binary roots) are read as one.
    pub fn build<'a>(decls: impl IntoIterator<Item = &'a ModuleDecls>) -> DefMap {
        let mut map = DefMap::default();
        for d in decls {
            let m = map.modules.entry(d.module.clone()).or_default();
            for (name, target) in &d.uses {
                m.uses.entry(name.clone()).or_insert_with(|| target.clone());
            }
            m.globs.extend(d.globs.iter().cloned());
            m.items.extend(d.items.iter().cloned());
            m.modules.extend(d.modules.iter().cloned());
        }
        map
    }

    /// The `use` items and glob imports of the module at `module` (a path from the root).
    pub fn module_imports(&self, module: &[Name]) -> Option<ModuleImports<'_>> {
        self.modules.get(module).map(|m| ModuleImports {
            uses: m.uses.iter().map(|(n, p)| (n, p.as_slice())).collect(),
            globs: m.globs.iter().map(Vec::as_slice).collect(),
        })
    }

    /// Whether the module at `module` defines or imports `name` itself (not through a glob).
    pub fn declares(&self, module: &[Name], name: &str) -> bool {
        self.modules.get(module).is_some_and(|m| m.declares(name))
    }

    /// What `path`, written in the module at `from`, names. `None` for a path that does not
    /// start in this crate (an extern crate, a local, `Self`, a generic parameter).
    pub fn canonical(&self, path: &[Name], from: &[Name]) -> Option<Canon> {
        let root = from.first()?;
        let mut work = self.absolute(path, from, root)?;
        for _ in 0..MAX_STEPS {
            match self.step(&work, root) {
                Step::Done(canon) => return Some(canon),
                Step::Through(next) => work = next,
            }
        }
        None
    }

    /// Walks `work` (absolute) down the module tree until the first segment that is not a
    /// module: an item ends the walk; a `use` or a glob gives the next path to walk.
    fn step(&self, work: &[Name], root: &Name) -> Step {
        let in_crate = || Step::Done(Canon::Crate(crate_form(work)));
        for depth in 1..work.len() {
            let (module, seg, rest) = (&work[..depth], &work[depth], &work[depth + 1..]);
            let Some(m) = self.modules.get(module) else {
                return in_crate();
            };
            if m.modules.contains(seg) {
                continue;
            }
            if m.items.contains(seg) {
                return in_crate();
            }
            if let Some(target) = m.uses.get(seg) {
                return self.follow(target, module, rest, root);
            }
            return match self.through_globs(m, module, seg, root) {
                Some((target, module)) => self.follow(&target, &module, rest, root),
                None => in_crate(),
            };
        }
        in_crate()
    }

    /// The next path of a walk that met `target` (written in `module`) with `rest` after it.
    fn follow(&self, target: &[Name], module: &[Name], rest: &[Name], root: &Name) -> Step {
        match self.absolute(target, module, root) {
            Some(mut next) => {
                next.extend(rest.iter().cloned());
                Step::Through(next)
            }
            None => {
                let start = usize::from(target.first().is_some_and(|f| f.is_empty()));
                let mut path = target[start..].to_vec();
                path.extend(rest.iter().cloned());
                Step::Done(Canon::Extern(path))
            }
        }
    }

    /// The one glob of `m` that brings `seg` in: a glob of the crate's own module that
    /// declares it, else the only glob of an extern module. Several candidates: none (rustc
    /// would call the name ambiguous, so the code never means it).
    fn through_globs(
        &self,
        m: &Module,
        module: &[Name],
        seg: &Name,
        root: &Name,
    ) -> Option<(Vec<Name>, Vec<Name>)> {
        let mut own = Vec::new();
        let mut external = Vec::new();
        for glob in &m.globs {
            match self.absolute(glob, module, root) {
                Some(abs) if self.declares(&abs, seg) => own.push(abs),
                Some(_) => {}
                None => external.push(glob),
            }
        }
        let mut target = match (own.as_slice(), external.as_slice()) {
            ([one], _) => one.clone(),
            ([], [one]) => one.to_vec(),
            _ => return None,
        };
        target.push(seg.clone());
        Some((target, module.to_vec()))
    }

    /// `path` from the crate root (the package name first), or `None` when it leaves the
    /// crate. `crate`, `self`, `super` and the crate's own name are read as rustc does; a
    /// first segment the module declares makes the path relative to it.
    fn absolute(&self, path: &[Name], from: &[Name], root: &Name) -> Option<Vec<Name>> {
        let first = path.first()?;
        let mut base: Vec<Name> = match first.as_str() {
            "crate" => vec![root.clone()],
            "self" | "super" => from.to_vec(),
            _ if first == root => return Some(path.to_vec()),
            _ if self.declares(from, first) => {
                let mut abs = from.to_vec();
                abs.extend(path.iter().cloned());
                return Some(abs);
            }
            _ => return None,
        };
        let mut rest = &path[usize::from(first != "self" && first != "super")..];
        while let Some((seg, tail)) = rest.split_first() {
            match seg.as_str() {
                "self" => {}
                "super" if base.len() > 1 => {
                    base.pop();
                }
                "super" => return None,
                _ => break,
            }
            rest = tail;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }
}

/// The `use` items and globs of one module, as written.
pub struct ModuleImports<'a> {
    pub uses: Vec<(&'a Name, &'a [Name])>,
    pub globs: Vec<&'a [Name]>,
}

enum Step {
    Done(Canon),
    Through(Vec<Name>),
}

/// An absolute path with `crate` in place of the package name.
fn crate_form(abs: &[Name]) -> Vec<Name> {
    std::iter::once(Name::new("crate"))
        .chain(abs[1..].iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(files: &[(&[&str], &str)]) -> DefMap {
        let decls: Vec<ModuleDecls> = files
            .iter()
            .flat_map(|(module, src)| {
                let file = syn::parse_file(src).expect("test source parses");
                let module: Vec<Name> = module.iter().map(Name::new).collect();
                crate::model::decls::collect(&module, &file.items, &Default::default())
            })
            .collect();
        DefMap::build(&decls)
    }

    fn path(p: &str) -> Vec<Name> {
        p.split("::").map(Name::new).collect()
    }

    fn canon(map: &DefMap, p: &str, from: &str) -> Option<Canon> {
        map.canonical(&path(p), &path(from))
    }

    fn ext(p: &str) -> Option<Canon> {
        Some(Canon::Extern(path(p)))
    }

    fn krate(p: &str) -> Option<Canon> {
        Some(Canon::Crate(path(p)))
    }

    #[test]
    fn re_exports_are_followed_across_modules_and_files() {
        let m = map(&[
            (
                &["app"],
                "mod errors; mod api; pub mod prelude { pub use crate::errors::*; }",
            ),
            (&["app", "errors"], "pub use rmcp::ErrorData as McpError;"),
            (
                &["app", "api"],
                "pub use super::errors::McpError as ApiError; pub fn run() {}",
            ),
        ]);
        assert_eq!(
            canon(&m, "crate::errors::McpError", "app"),
            ext("rmcp::ErrorData")
        );
        assert_eq!(
            canon(&m, "errors::McpError::new", "app"),
            ext("rmcp::ErrorData::new")
        );
        assert_eq!(
            canon(&m, "super::api::ApiError", "app::errors"),
            ext("rmcp::ErrorData")
        );
        assert_eq!(
            canon(&m, "crate::prelude::McpError", "app::api"),
            ext("rmcp::ErrorData")
        );
        assert_eq!(
            canon(&m, "crate::api::run", "app::errors"),
            krate("crate::api::run")
        );
        // Not a path into this crate: left to the file's imports and the extern crates.
        assert_eq!(canon(&m, "rmcp::ErrorData", "app"), None);
        assert_eq!(canon(&m, "Self::new", "app::api"), None);
    }

    #[test]
    fn an_item_shadows_nothing_it_does_not_define() {
        let m = map(&[(
            &["app"],
            "use rmcp::model::*; pub struct ErrorData; mod inner { pub use super::ErrorData; }",
        )]);
        assert_eq!(
            canon(&m, "inner::ErrorData", "app"),
            krate("crate::ErrorData")
        );
        // Through the extern glob, the only one that can bring the name in.
        assert_eq!(
            canon(&m, "crate::Content", "app::inner"),
            ext("rmcp::model::Content")
        );
    }

    #[test]
    fn a_cycle_of_re_exports_ends() {
        let m = map(&[(
            &["app"],
            "mod a { pub use super::b::X; } mod b { pub use super::a::X; }",
        )]);
        assert_eq!(canon(&m, "a::X", "app"), None);
    }

    #[test]
    fn super_above_the_root_leaves_the_crate() {
        let m = map(&[(&["app"], "mod a {}")]);
        assert_eq!(canon(&m, "super::super::x", "app::a"), None);
        assert_eq!(canon(&m, "self::a", "app"), krate("crate::a"));
    }
}
