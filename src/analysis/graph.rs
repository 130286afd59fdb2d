//! The call graph over bodies (fns, closures, async blocks): deduplicated edges with whether
//! they run under a panic guard, the fns' strongly connected components in bottom-up order
//! (callees first) for summaries, and breadth-first reach from a set of roots with the
//! nearest root and the previous hop, so chains can be printed.

use std::collections::VecDeque;

use foldhash::{HashSet, HashSetExt};

use super::calls::{CallKind, Resolved};
use super::program::{FnId, NodeId, Program};

#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub to: NodeId,
    /// The fn holding the call and the call's index in its [`Resolved::calls`].
    pub func: FnId,
    pub site: u32,
    /// The call runs under `catch_unwind`, a crate fn that calls it, or a configured guard.
    pub guarded: bool,
    /// Resolved by method name alone.
    pub may: bool,
}

pub struct Graph {
    pub out: Vec<Vec<Edge>>,
    /// Fns in strongly connected components, callees before callers.
    pub sccs: Vec<Vec<FnId>>,
}

/// How a node is reached: the nearest root and the previous hop.
#[derive(Clone, Copy, Debug)]
pub struct Reached {
    pub root: NodeId,
    pub parent: Option<NodeId>,
}

impl Graph {
    pub fn build(program: &Program<'_>, resolved: &[Resolved]) -> Graph {
        let mut out: Vec<Vec<Edge>> = vec![Vec::new(); program.nodes.len()];
        let catches: Vec<bool> = resolved.iter().map(|r| r.catches_panics).collect();
        for f in program.fn_ids() {
            let res = &resolved[f as usize];
            let mut seen: HashSet<(NodeId, NodeId, bool)> = HashSet::new();
            for (i, call) in res.calls.iter().enumerate() {
                let from = match call.owner {
                    Some(c) => program.closure_node(f, c),
                    None => program.fn_node(f),
                };
                let guarded =
                    call.guarded || guard_around(res, &|t| catches[t as usize], call.within);
                let targets: Vec<NodeId> = match (call.kind, call.closure) {
                    (CallKind::Closure, Some(c)) => vec![program.closure_node(f, c)],
                    _ => call.targets.iter().map(|&t| program.fn_node(t)).collect(),
                };
                for to in targets {
                    if seen.insert((from, to, guarded)) {
                        out[from as usize].push(Edge {
                            to,
                            func: f,
                            site: i as u32,
                            guarded,
                            may: call.may,
                        });
                    }
                }
            }
        }
        let sccs = fn_sccs(program, &out);
        Graph { out, sccs }
    }

    /// Breadth-first reach from `roots`, following edges `follow` accepts. Linear in
    /// nodes + edges.
    pub fn reach(
        &self,
        roots: impl IntoIterator<Item = NodeId>,
        follow: impl Fn(NodeId, &Edge) -> bool,
    ) -> Vec<Option<Reached>> {
        self.reach_with(roots, &[], follow)
    }

    /// [`Graph::reach`] with edges of its own besides the graph's (`extra`, sorted by source
    /// node).
    pub fn reach_with(
        &self,
        roots: impl IntoIterator<Item = NodeId>,
        extra: &[(NodeId, Edge)],
        follow: impl Fn(NodeId, &Edge) -> bool,
    ) -> Vec<Option<Reached>> {
        let mut reach: Vec<Option<Reached>> = vec![None; self.out.len()];
        let mut queue = VecDeque::new();
        for r in roots {
            if reach[r as usize].is_none() {
                reach[r as usize] = Some(Reached {
                    root: r,
                    parent: None,
                });
                queue.push_back(r);
            }
        }
        while let Some(n) = queue.pop_front() {
            let Some(here) = reach[n as usize] else {
                continue;
            };
            let first = extra.partition_point(|(from, _)| *from < n);
            let own = extra[first..].iter().take_while(|(from, _)| *from == n);
            for e in self.out[n as usize].iter().chain(own.map(|(_, e)| e)) {
                if reach[e.to as usize].is_some() || !follow(n, e) {
                    continue;
                }
                reach[e.to as usize] = Some(Reached {
                    root: here.root,
                    parent: Some(n),
                });
                queue.push_back(e.to);
            }
        }
        reach
    }

    /// The nodes from the root down to `node`.
    pub fn chain(reach: &[Option<Reached>], node: NodeId) -> Vec<NodeId> {
        let mut chain = vec![node];
        let mut cur = node;
        while let Some(Reached {
            parent: Some(p), ..
        }) = reach[cur as usize]
        {
            if chain.contains(&p) || chain.len() > reach.len() {
                break;
            }
            chain.push(p);
            cur = p;
        }
        chain.reverse();
        chain
    }
}

/// Whether code of fn `f` inside the arguments of call `within` runs under a panic guard.
pub fn inside_guard(resolved: &[Resolved], f: FnId, within: Option<u32>) -> bool {
    let res = &resolved[f as usize];
    guard_around(res, &|t| resolved[t as usize].catches_panics, within)
}

/// Whether code in the arguments of call `within` (or of the calls around it) runs under a
/// panic guard: `catch_unwind` itself (lexically) or a crate fn that calls it.
fn guard_around(res: &Resolved, catches: &dyn Fn(FnId) -> bool, mut within: Option<u32>) -> bool {
    let mut steps = 0;
    while let Some(i) = within {
        let Some(call) = res.calls.get(i as usize) else {
            return false;
        };
        if call.guarded || call.targets.iter().any(|&t| catches(t)) {
            return true;
        }
        within = call.within;
        steps += 1;
        if steps > res.calls.len() {
            return false;
        }
    }
    false
}

/// Tarjan's algorithm over fns (a closure's calls count as its fn's), iteratively; components
/// come out callees first.
fn fn_sccs(program: &Program<'_>, out: &[Vec<Edge>]) -> Vec<Vec<FnId>> {
    let n = program.fn_count();
    let mut succ: Vec<Vec<FnId>> = vec![Vec::new(); n];
    for (node, edges) in out.iter().enumerate() {
        let from = program.node(node as NodeId).func;
        for e in edges {
            let to = program.node(e.to).func;
            if to != from {
                succ[from as usize].push(to);
            }
        }
    }
    for s in &mut succ {
        s.sort_unstable();
        s.dedup();
    }
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<FnId> = Vec::new();
    let mut sccs = Vec::new();
    let mut next = 0u32;
    for start in 0..n as FnId {
        if index[start as usize] != UNSEEN {
            continue;
        }
        // (fn, position in its successor list)
        let mut work: Vec<(FnId, usize)> = vec![(start, 0)];
        index[start as usize] = next;
        low[start as usize] = next;
        next += 1;
        stack.push(start);
        on_stack[start as usize] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if let Some(&w) = succ[v as usize].get(*pos) {
                *pos += 1;
                if index[w as usize] == UNSEEN {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    work.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent as usize] = low[parent as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                sccs.push(component);
            }
        }
    }
    sccs
}
