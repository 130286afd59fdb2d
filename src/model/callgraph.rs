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
    /// Per fn, per call site: whether code inside that call's arguments runs under a panic
    /// guard (computed once, in site order, instead of walking up per question).
    guarded_inside: Vec<Vec<bool>>,
}

/// For each call site of one fn: whether its arguments run under a panic guard, that is the
/// call or one around it is `catch_unwind(..)` or a crate fn that calls `catch_unwind`. A
/// call's `within` is recorded before it, so one pass in site order suffices.
fn guarded_inside(
    files: &[&FileModel],
    fns: &[FnRef],
    callees: &[(usize, usize)],
    calls: &[super::CallSite],
) -> Vec<bool> {
    let mut inside: Vec<bool> = Vec::with_capacity(calls.len());
    for (s, call) in calls.iter().enumerate() {
        let start = callees.partition_point(|&(_, at)| at < s);
        let wraps = call.guarded
            || callees[start..]
                .iter()
                .take_while(|&&(_, at)| at == s)
                .any(|&(target, _)| {
                    let t = fns[target];
                    files[t.file].fns[t.idx].catches_panics
                });
        let around = call
            .within
            .is_some_and(|w| w < s && inside.get(w).copied().unwrap_or(false));
        inside.push(wraps || around);
    }
    inside
}

const EXTERNAL_ROOTS: &[&str] = &["std", "core", "alloc", "tokio", "serde_json", "rmcp"];

/// A call that resolves to more fns than this (same-named fns under `cfg`s resolve to a few)
/// is ambiguous: dropped rather than followed to all of them.
const MAX_TARGETS: usize = 8;

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
        // Free fns by name and module: exact lookups without scanning same-named fns.
        let mut in_module: HashMap<(&str, &[String]), Vec<usize>> = HashMap::new();
        for (id, r) in fns.iter().enumerate() {
            let f = get(*r);
            if f.owner.is_none() {
                in_module
                    .entry((f.name.as_str(), f.module.as_slice()))
                    .or_default()
                    .push(id);
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
                Callee::Path(path) => resolve_path(
                    caller,
                    path,
                    &methods,
                    &Free {
                        by_name: &free,
                        by_module: &in_module,
                    },
                    &|id| get(fns[id]).module.as_slice(),
                ),
            }
        };

        // Edges in site order (so a site's targets can be found by binary search), each
        // (target, site) once; a call with more candidates than MAX_TARGETS is ambiguous and
        // dropped, so same-named fns cannot make the graph quadratic.
        let mut callees = vec![Vec::new(); fns.len()];
        for (id, r) in fns.iter().enumerate() {
            let f = get(*r);
            for (site, call) in f.calls.iter().enumerate() {
                let mut targets = resolve(f, &call.callee);
                if targets.len() > MAX_TARGETS {
                    continue;
                }
                targets.sort_unstable();
                targets.dedup();
                callees[id].extend(targets.into_iter().map(|t| (t, site)));
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
                let expanded = aliases.expand_bounded(&f.ret).unwrap_or_else(|| {
                    crate::budget::exceeded(
                        f.name_span,
                        format!(
                            "its return type grows past {MAX_EXPANDED_NODES} nodes through type \
                             aliases, so it was classified unexpanded"
                        ),
                    );
                    f.ret.clone()
                });
                s.err_channel(role, &expanded)
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
        let guarded_inside = fns
            .iter()
            .enumerate()
            .map(|(id, r)| guarded_inside(files, &fns, &callees[id], &get(*r).calls))
            .collect();
        let mut graph = CallGraph {
            fns,
            ids,
            callees,
            roles,
            channels,
            reach,
            panic_reach: Vec::new(),
            guarded_inside,
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
    pub fn inside_guard(&self, _files: &[&FileModel], id: usize, within: Option<usize>) -> bool {
        within.is_some_and(|s| {
            self.guarded_inside
                .get(id)
                .and_then(|sites| sites.get(s))
                .copied()
                .unwrap_or(false)
        })
    }

    pub fn id(&self, r: FnRef) -> Option<usize> {
        self.ids.get(&r).copied()
    }

    /// The chain of fn ids from the handler down to `id`, and how many hops of it were left
    /// out: at most [`CHAIN_SHOWN`] hops from the handler are kept, then `id` itself. Parent
    /// links form a tree (each fn's parent was reached first), and the walk is bounded by
    /// the number of fns all the same.
    pub fn chain(reach: &[Option<Reached>], id: usize) -> (Vec<usize>, usize) {
        let mut last: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        let mut hops = 0usize;
        let mut cur = id;
        while let Some(Reached {
            parent: Some(p), ..
        }) = reach[cur]
        {
            if hops >= reach.len() || p == cur {
                break;
            }
            hops += 1;
            last.push_front(p);
            if last.len() > CHAIN_SHOWN {
                last.pop_back();
            }
            cur = p;
        }
        // `last` holds the hops nearest the handler, handler first.
        let mut chain: Vec<usize> = last.into_iter().collect();
        let hidden = hops.saturating_sub(chain.len());
        chain.push(id);
        (chain, hidden)
    }
}

/// The crate's free fns, by name and by (name, module).
struct Free<'a, 'f> {
    by_name: &'a HashMap<&'f str, Vec<usize>>,
    by_module: &'a HashMap<(&'f str, &'f [String]), Vec<usize>>,
}

impl Free<'_, '_> {
    fn exact(&self, name: &str, module: &[String]) -> Vec<usize> {
        self.by_module
            .get(&(name, module))
            .cloned()
            .unwrap_or_default()
    }
}

fn resolve_path<'m>(
    caller: &FnModel,
    path: &[String],
    methods: &HashMap<(&str, &str), Vec<usize>>,
    free: &Free<'_, '_>,
    module_of: &dyn Fn(usize) -> &'m [String],
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
    let Some(candidates) = free.by_name.get(name.as_str()) else {
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
            let absolute = free.exact(name, prefix);
            if !absolute.is_empty() {
                return absolute;
            }
            let mut m = caller.module.clone();
            m.extend(prefix.iter().cloned());
            m
        }
    };
    let exact = free.exact(name, &wanted);
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

/// How many hops of a call chain a finding names before "… N more".
pub const CHAIN_SHOWN: usize = 8;

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
                && closure_calls
                    .get(id)
                    .is_some_and(|c| c.binary_search(&site).is_ok())
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
    /// Aliases of aliases can grow exponentially (`type B<T> = A<A<T>>` ...): past
    /// [`MAX_EXPANDED_NODES`] the type is kept unexpanded.
    pub fn expand(&self, ty: &Ty) -> Ty {
        self.expand_bounded(ty).unwrap_or_else(|| ty.clone())
    }

    /// As [`AliasTable::expand`]; `None` when the expansion exceeds the size budget.
    pub fn expand_bounded(&self, ty: &Ty) -> Option<Ty> {
        let mut fuel = MAX_EXPANDED_NODES;
        let expanded = self.expand_depth(ty, 8, &mut fuel);
        (fuel > 0).then_some(expanded)
    }

    fn expand_depth(&self, ty: &Ty, depth: u32, fuel: &mut usize) -> Ty {
        if *fuel == 0 {
            return Ty::Other;
        }
        *fuel -= 1;
        if depth == 0 {
            return charged_clone(ty, fuel);
        }
        match ty {
            Ty::Path { path, args } => {
                let args: Vec<Ty> = args
                    .iter()
                    .map(|a| self.expand_depth(a, depth - 1, fuel))
                    .collect();
                let local = path.len() == 1
                    || path
                        .first()
                        .is_some_and(|p| matches!(p.as_str(), "crate" | "self" | "super"));
                if local
                    && let Some(alias) = path.last().and_then(|n| self.by_name.get(n.as_str()))
                    && alias.params.len() == args.len()
                {
                    let substituted = substitute(&alias.target, &alias.params, &args, fuel);
                    return self.expand_depth(&substituted, depth - 1, fuel);
                }
                Ty::Path {
                    path: path.clone(),
                    args,
                }
            }
            Ty::Tuple(items) => Ty::Tuple(
                items
                    .iter()
                    .map(|i| self.expand_depth(i, depth - 1, fuel))
                    .collect(),
            ),
            Ty::Other => Ty::Other,
        }
    }
}

/// How many nodes expanding one type through aliases may build.
pub const MAX_EXPANDED_NODES: usize = 4096;

/// A copy of `ty`, each node paid from `fuel` (the rest becomes `Ty::Other` once it is out).
fn charged_clone(ty: &Ty, fuel: &mut usize) -> Ty {
    if *fuel == 0 {
        return Ty::Other;
    }
    *fuel -= 1;
    match ty {
        Ty::Path { path, args } => Ty::Path {
            path: path.clone(),
            args: args.iter().map(|a| charged_clone(a, fuel)).collect(),
        },
        Ty::Tuple(items) => Ty::Tuple(items.iter().map(|i| charged_clone(i, fuel)).collect()),
        Ty::Other => Ty::Other,
    }
}

fn substitute(ty: &Ty, params: &[String], args: &[Ty], fuel: &mut usize) -> Ty {
    if *fuel == 0 {
        return Ty::Other;
    }
    *fuel -= 1;
    match ty {
        Ty::Path { path, args: inner } => {
            if path.len() == 1
                && inner.is_empty()
                && let Some(pos) = params.iter().position(|p| p == &path[0])
            {
                return charged_clone(&args[pos], fuel);
            }
            Ty::Path {
                path: path.clone(),
                args: inner
                    .iter()
                    .map(|a| substitute(a, params, args, fuel))
                    .collect(),
            }
        }
        Ty::Tuple(items) => Ty::Tuple(
            items
                .iter()
                .map(|i| substitute(i, params, args, fuel))
                .collect(),
        ),
        Ty::Other => Ty::Other,
    }
}
