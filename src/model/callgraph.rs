//! The crate's call graph and what handlers reach, in one linear pass.
//!
//! Calls are resolved by name and module path only (`f()`, `module::f()`, `Type::f()`,
//! `self.f()`): no types are inferred, so method calls on other receivers are not followed.
//! An unresolved or ambiguous call is dropped rather than guessed.

use std::collections::{HashMap, VecDeque};

use super::resolve::Ty;
use super::{Callee, FileModel, FnModel, TypeAlias};
use crate::sdk::{Channel, Role, Sdk};

/// A fn of the crate: index of its file in the crate's list, index in that file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnRef {
    pub file: usize,
    pub idx: usize,
}

/// How a fn is reached from a handler: the nearest handler and the previous hop.
#[derive(Clone, Copy, Debug)]
pub struct Reached {
    pub handler: usize,
    pub parent: Option<usize>,
}

pub struct CallGraph {
    pub fns: Vec<FnRef>,
    ids: HashMap<FnRef, usize>,
    /// Per fn: (callee, index of the call site in `FnModel::calls`).
    pub callees: Vec<Vec<(usize, usize)>>,
    /// Roles after dispatch analysis (fns a dispatcher calls become tools).
    pub roles: Vec<Role>,
    pub channels: Vec<Channel>,
    /// Reach from every handler, following every call.
    pub reach: Vec<Option<Reached>>,
    /// Reach for panics: skips handlers that catch panics and calls made under `catch_unwind`.
    pub panic_reach: Vec<Option<Reached>>,
}

const EXTERNAL_ROOTS: &[&str] = &["std", "core", "alloc", "tokio", "serde_json", "rmcp"];

impl CallGraph {
    /// `own_files`: how many of `files` (from the front) belong to the package; the rest are
    /// workspace members it depends on, whose handlers and error channels were judged by their
    /// own SDK. With `handlers` false no fn is a handler (a hand-rolled "server" that never
    /// serves).
    pub fn build(
        files: &[&FileModel],
        own_files: usize,
        sdk: Option<&dyn Sdk>,
        handlers: bool,
    ) -> CallGraph {
        let mut fns = Vec::new();
        for (file, model) in files.iter().enumerate() {
            for idx in 0..model.fns.len() {
                fns.push(FnRef { file, idx });
            }
        }
        let ids: HashMap<FnRef, usize> = fns.iter().enumerate().map(|(i, f)| (*f, i)).collect();
        let get = |r: FnRef| &files[r.file].fns[r.idx];

        let mut methods: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        let mut free: HashMap<&str, Vec<usize>> = HashMap::new();
        for (id, r) in fns.iter().enumerate() {
            let f = get(*r);
            match &f.owner {
                Some(owner) => methods.entry((owner, &f.name)).or_default().push(id),
                None => free.entry(&f.name).or_default().push(id),
            }
        }

        let resolve = |caller: &FnModel, callee: &Callee| -> Vec<usize> {
            match callee {
                Callee::SelfMethod(name) => caller
                    .owner
                    .as_deref()
                    .and_then(|o| methods.get(&(o, name.as_str())))
                    .cloned()
                    .unwrap_or_default(),
                Callee::Path(path) => resolve_path(caller, path, &methods, &free, &|id| {
                    get(fns[id]).module.clone()
                }),
            }
        };

        let mut callees = vec![Vec::new(); fns.len()];
        for (id, r) in fns.iter().enumerate() {
            let f = get(*r);
            for (site, call) in f.calls.iter().enumerate() {
                for target in resolve(f, &call.callee) {
                    callees[id].push((target, site));
                }
            }
        }

        let aliases = AliasTable::new(files);
        let mut roles: Vec<Role> = fns
            .iter()
            .map(|r| match get(*r).role {
                role if role.is_handler() && !handlers => Role::None,
                role => role,
            })
            .collect();
        let channel_of = |role: Role, f: &FnModel| {
            sdk.map_or(Channel::Unknown, |s| {
                s.err_channel(role, &aliases.expand(&f.ret))
            })
        };
        // A fn a dispatcher calls and whose errors are protocol errors is a tool in effect.
        for id in 0..fns.len() {
            if roles[id] != Role::Dispatcher || fns[id].file >= own_files {
                continue;
            }
            for &(target, _) in &callees[id] {
                if roles[target] == Role::None
                    && channel_of(Role::Tool, get(fns[target])) == Channel::Protocol
                {
                    roles[target] = Role::Tool;
                }
            }
        }
        let channels = fns
            .iter()
            .enumerate()
            .map(|(id, r)| {
                if r.file < own_files {
                    channel_of(roles[id], get(*r))
                } else {
                    Channel::Unknown
                }
            })
            .collect();

        // Per fn: the call sites made inside handler closures.
        let closure_calls: Vec<Vec<usize>> = fns
            .iter()
            .map(|r| {
                get(*r)
                    .calls
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.in_handler_closure)
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        let reach = bfs(&fns, &callees, &roles, &closure_calls, |_, _| true);
        let mut graph = CallGraph {
            fns,
            ids,
            callees,
            roles,
            channels,
            reach,
            panic_reach: Vec::new(),
        };
        let panic_reach = bfs(
            &graph.fns,
            &graph.callees,
            &graph.roles,
            &closure_calls,
            |id, site| !graph.call_is_guarded(files, id, site),
        );
        graph.panic_reach = panic_reach;
        graph
    }

    /// Whether a call site of fn `id` runs under a panic guard.
    pub fn call_is_guarded(&self, files: &[&FileModel], id: usize, site: usize) -> bool {
        let r = self.fns[id];
        let calls = &files[r.file].fns[r.idx].calls;
        calls
            .get(site)
            .is_some_and(|c| c.guarded || self.inside_guard(files, id, c.within))
    }

    /// Whether code inside the arguments of call `within` (and of the calls around it) runs
    /// under a panic guard: `catch_unwind(..)` itself, or a crate fn that calls
    /// `catch_unwind` (a project wrapper such as `catch_unwind_result(|| ..)`).
    pub fn inside_guard(&self, files: &[&FileModel], id: usize, mut within: Option<usize>) -> bool {
        let r = self.fns[id];
        let calls = &files[r.file].fns[r.idx].calls;
        while let Some(s) = within {
            let Some(call) = calls.get(s) else {
                return false;
            };
            let wraps = call.guarded
                || self.callees[id].iter().any(|&(target, at)| {
                    let t = self.fns[target];
                    at == s && files[t.file].fns[t.idx].catches_panics
                });
            if wraps {
                return true;
            }
            within = call.within;
        }
        false
    }

    pub fn id(&self, r: FnRef) -> Option<usize> {
        self.ids.get(&r).copied()
    }

    /// The chain of fn ids from the handler down to `id`.
    pub fn chain(reach: &[Option<Reached>], id: usize) -> Vec<usize> {
        let mut chain = vec![id];
        let mut cur = id;
        while let Some(Reached {
            parent: Some(p), ..
        }) = reach[cur]
        {
            if chain.contains(&p) {
                break;
            }
            chain.push(p);
            cur = p;
        }
        chain.reverse();
        chain
    }
}

fn resolve_path(
    caller: &FnModel,
    path: &[String],
    methods: &HashMap<(&str, &str), Vec<usize>>,
    free: &HashMap<&str, Vec<usize>>,
    module_of: &dyn Fn(usize) -> Vec<String>,
) -> Vec<usize> {
    let Some((name, prefix)) = path.split_last() else {
        return Vec::new();
    };
    if let Some(ty) = prefix.last()
        && (ty == "Self" || ty.chars().next().is_some_and(char::is_uppercase))
    {
        let owner = if ty == "Self" {
            caller.owner.as_deref().unwrap_or("")
        } else {
            ty.as_str()
        };
        return methods
            .get(&(owner, name.as_str()))
            .cloned()
            .unwrap_or_default();
    }
    let Some(candidates) = free.get(name.as_str()) else {
        return Vec::new();
    };
    // Module paths start with the crate's name: `crate::a::f` is `[this_crate, a]`, and
    // `other_member::a::f` names another workspace member's module directly.
    let this_crate = caller.module.first().cloned().unwrap_or_default();
    let wanted: Vec<String> = match prefix.first().map(String::as_str) {
        None => caller.module.clone(),
        Some(root) if EXTERNAL_ROOTS.contains(&root) => return Vec::new(),
        Some("crate") => {
            let mut m = vec![this_crate];
            m.extend(prefix[1..].iter().cloned());
            m
        }
        Some("self") => {
            let mut m = caller.module.clone();
            m.extend(prefix[1..].iter().cloned());
            m
        }
        Some("super") => {
            let mut m = caller.module.clone();
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
            let absolute: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&id| module_of(id) == prefix)
                .collect();
            if !absolute.is_empty() {
                return absolute;
            }
            let mut m = caller.module.clone();
            m.extend(prefix.iter().cloned());
            m
        }
    };
    let exact: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&id| module_of(id) == wanted)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    // A path relative to a re-export or the crate root: accept a unique suffix match.
    let suffix: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&id| {
            let m = module_of(id);
            prefix.is_empty() || m.ends_with(&prefix[prefix.len().min(m.len())..])
        })
        .collect();
    if suffix.len() == 1 {
        suffix
    } else {
        Vec::new()
    }
}

/// Multi-source breadth-first search from every handler, so each fn gets its nearest
/// handler. Linear in fns + calls.
fn bfs(
    fns: &[FnRef],
    callees: &[Vec<(usize, usize)>],
    roles: &[Role],
    closure_calls: &[Vec<usize>],
    follow: impl Fn(usize, usize) -> bool,
) -> Vec<Option<Reached>> {
    let mut reach: Vec<Option<Reached>> = vec![None; fns.len()];
    let mut queue = VecDeque::new();
    for (id, role) in roles.iter().enumerate() {
        if role.is_handler() {
            reach[id] = Some(Reached {
                handler: id,
                parent: None,
            });
            queue.push_back(id);
        }
    }
    // Calls made inside handler closures (tower-mcp) start at the fn holding the closure.
    for (id, calls) in callees.iter().enumerate() {
        for &(target, site) in calls {
            if reach[target].is_none()
                && closure_calls.get(id).is_some_and(|c| c.contains(&site))
                && follow(id, site)
            {
                reach[target] = Some(Reached {
                    handler: id,
                    parent: Some(id),
                });
                queue.push_back(target);
            }
        }
    }
    while let Some(id) = queue.pop_front() {
        let Some(here) = reach[id] else { continue };
        for &(target, site) in &callees[id] {
            if reach[target].is_some() || roles[target] == Role::Startup {
                continue;
            }
            if !follow(id, site) {
                continue;
            }
            reach[target] = Some(Reached {
                handler: here.handler,
                parent: Some(id),
            });
            queue.push_back(target);
        }
    }
    reach
}

/// Type aliases of the crate, by name.
pub struct AliasTable<'a> {
    by_name: HashMap<&'a str, &'a TypeAlias>,
}

impl<'a> AliasTable<'a> {
    pub fn new(files: &'a [&'a FileModel]) -> Self {
        let mut by_name = HashMap::new();
        for f in files {
            for a in &f.aliases {
                by_name.entry(a.name.as_str()).or_insert(a);
            }
        }
        AliasTable { by_name }
    }

    /// Expands crate-local aliases (`type Result<T> = std::result::Result<T, McpError>`).
    pub fn expand(&self, ty: &Ty) -> Ty {
        self.expand_depth(ty, 8)
    }

    fn expand_depth(&self, ty: &Ty, depth: u32) -> Ty {
        if depth == 0 {
            return ty.clone();
        }
        match ty {
            Ty::Path { path, args } => {
                let args: Vec<Ty> = args
                    .iter()
                    .map(|a| self.expand_depth(a, depth - 1))
                    .collect();
                let local = path.len() == 1
                    || path
                        .first()
                        .is_some_and(|p| matches!(p.as_str(), "crate" | "self" | "super"));
                if local
                    && let Some(alias) = path.last().and_then(|n| self.by_name.get(n.as_str()))
                    && alias.params.len() == args.len()
                {
                    let substituted = substitute(&alias.target, &alias.params, &args);
                    return self.expand_depth(&substituted, depth - 1);
                }
                Ty::Path {
                    path: path.clone(),
                    args,
                }
            }
            Ty::Tuple(items) => Ty::Tuple(
                items
                    .iter()
                    .map(|i| self.expand_depth(i, depth - 1))
                    .collect(),
            ),
            Ty::Other => Ty::Other,
        }
    }
}

fn substitute(ty: &Ty, params: &[String], args: &[Ty]) -> Ty {
    match ty {
        Ty::Path { path, args: inner } => {
            if path.len() == 1
                && inner.is_empty()
                && let Some(pos) = params.iter().position(|p| p == &path[0])
            {
                return args[pos].clone();
            }
            Ty::Path {
                path: path.clone(),
                args: inner.iter().map(|a| substitute(a, params, args)).collect(),
            }
        }
        Ty::Tuple(items) => Ty::Tuple(items.iter().map(|i| substitute(i, params, args)).collect()),
        Ty::Other => Ty::Other,
    }
}
