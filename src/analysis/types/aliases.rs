//! Type aliases expanded, with their generic parameters substituted, under a bound on
//! steps and type nodes: an alias chain or a type that doubles at each step stops early.

use super::*;
use crate::model::ir::Name;

/// Alias expansion stops after this many steps or this many type nodes.
const ALIAS_DEPTH: u32 = 8;
const ALIAS_NODES: usize = 256;

impl<'a> TypeTable<'a> {
    /// Expands crate-local aliases (`type Result<T> = std::result::Result<T, McpError>`),
    /// within a depth and size budget.
    pub fn expand(&self, ty: &Ty) -> Ty {
        self.expand_within(ty).0
    }

    /// Why expanding `ty` stopped short, when it did: its aliases nest or grow past the
    /// budget, and what is left of it is unknown.
    pub fn expansion_cut(&self, ty: &Ty) -> Option<String> {
        self.expand_within(ty).1.then(|| {
            format!(
                "its return type grows past {ALIAS_NODES} nodes or {ALIAS_DEPTH} levels when \
                 its type aliases are expanded, so what lies past that was taken as unknown"
            )
        })
    }

    /// The expansion of `ty`, and whether a budget cut it short.
    fn expand_within(&self, ty: &Ty) -> (Ty, bool) {
        let mut budget = Budget {
            nodes: ALIAS_NODES,
            cut: false,
        };
        let ty = self.expand_depth(ty, ALIAS_DEPTH, &mut budget);
        (ty, budget.cut)
    }

    fn expand_depth(&self, ty: &Ty, depth: u32, budget: &mut Budget) -> Ty {
        if !self.has_alias(ty) {
            return ty.clone();
        }
        if depth == 0 || !budget.charge(1) {
            budget.cut = true;
            return Ty::Other;
        }
        match ty {
            Ty::Path { path, args } => {
                let args: Vec<Ty> = args
                    .iter()
                    .map(|a| self.expand_depth(a, depth - 1, budget))
                    .collect();
                if let Some(alias) = self.local_alias(path)
                    && alias.params.len() == args.len()
                {
                    let substituted = substitute(&alias.target, &alias.params, &args, budget);
                    return self.expand_depth(&substituted, depth - 1, budget);
                }
                Ty::Path {
                    path: path.clone(),
                    args,
                }
            }
            Ty::Tuple(items) => Ty::Tuple(
                items
                    .iter()
                    .map(|i| self.expand_depth(i, depth - 1, budget))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The crate-local alias a path names (a bare name or one from `crate`/`self`/`super`).
    fn local_alias(&self, path: &[Name]) -> Option<&'a TypeAlias> {
        let local = path.len() == 1
            || path
                .first()
                .is_some_and(|p| matches!(p.as_str(), "crate" | "self" | "super"));
        if !local {
            return None;
        }
        path.last()
            .and_then(|n| self.aliases.get(n.as_str()).copied())
    }

    /// Whether `ty` names a crate-local alias anywhere (what is left to expand).
    fn has_alias(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Path { path, args } => {
                self.local_alias(path).is_some() || args.iter().any(|a| self.has_alias(a))
            }
            Ty::Tuple(items) => items.iter().any(|i| self.has_alias(i)),
            _ => false,
        }
    }
}

/// Nodes an alias expansion may still build; `cut` once it ran out.
struct Budget {
    nodes: usize,
    cut: bool,
}

impl Budget {
    fn charge(&mut self, n: usize) -> bool {
        if n > self.nodes {
            self.nodes = 0;
            self.cut = true;
            return false;
        }
        self.nodes -= n;
        true
    }
}

/// Nodes in `ty`, counted up to `limit` (a bomb is not walked to its end).
fn size_up_to(ty: &Ty, limit: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![ty];
    while let Some(t) = stack.pop() {
        count += 1;
        if count > limit {
            break;
        }
        match t {
            Ty::Path { args, .. } => stack.extend(args),
            Ty::Tuple(items) => stack.extend(items),
            _ => {}
        }
    }
    count
}

fn substitute(ty: &Ty, params: &[Name], args: &[Ty], budget: &mut Budget) -> Ty {
    if !budget.charge(1) {
        return Ty::Other;
    }
    match ty {
        Ty::Path { path, args: inner } => {
            if path.len() == 1
                && inner.is_empty()
                && let Some(pos) = params.iter().position(|p| p == &path[0])
            {
                // Every copy of an argument is paid for: doubling aliases cannot hide a bomb.
                let arg = &args[pos];
                return if budget.charge(size_up_to(arg, budget.nodes)) {
                    arg.clone()
                } else {
                    Ty::Other
                };
            }
            Ty::Path {
                path: path.clone(),
                args: inner
                    .iter()
                    .map(|a| substitute(a, params, args, budget))
                    .collect(),
            }
        }
        Ty::Tuple(items) => Ty::Tuple(
            items
                .iter()
                .map(|i| substitute(i, params, args, budget))
                .collect(),
        ),
        other => other.clone(),
    }
}
