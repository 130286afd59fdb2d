//! Does the crate serve MCP over stdio, and which code runs while it does?
//!
//! On the serving path: every fn a handler reaches; the fns that lead from an entry point to
//! the stdio transport, in the branches that lead there; and every fn those branches call.
//! A branch exclusive with the serving one (another `match` arm, the other side of an `if`)
//! or one that leaves before serving (`--version` printing then `return`) is not.

use std::collections::{HashMap, VecDeque};

use crate::diagnostic::Span;
use crate::model::FileModel;
use crate::model::callgraph::{CallGraph, FnRef};
use crate::model::walk::BranchInfo;

#[derive(Default)]
pub struct StdioFacts {
    /// The first place the crate creates a stdio server transport.
    pub transport: Option<Span>,
    /// Fns on the serving path as a whole.
    whole: Vec<bool>,
    /// Fns that lead to the transport, with the branches that lead there.
    /// Per fn: (branches, position) of each place that leads to the transport.
    serving_branches: HashMap<usize, Vec<(Vec<u32>, usize)>>,
    branch_info: HashMap<usize, Vec<BranchInfo>>,
    /// Per fn: parameters every serving-path call passes as `false`.
    always_false: HashMap<usize, Vec<bool>>,
}

impl StdioFacts {
    /// `transport_leads_to_handlers`: a transport site counts only in a fn that reaches a
    /// handler (hand-rolled servers, where reading stdin alone proves nothing: CLIs read it
    /// too).
    pub fn build(
        files: &[&FileModel],
        graph: &CallGraph,
        transport_leads_to_handlers: bool,
    ) -> Self {
        let mut facts = StdioFacts {
            whole: vec![false; graph.fns.len()],
            ..StdioFacts::default()
        };
        let mut sites: Vec<(Span, usize, Vec<u32>)> = Vec::new();
        for (pos, file) in files.iter().enumerate() {
            for (fn_idx, span, branch) in &file.stdio_sites {
                if let Some(id) = graph.id(FnRef {
                    file: pos,
                    idx: *fn_idx,
                }) {
                    sites.push((*span, id, branch.clone()));
                }
            }
        }
        if transport_leads_to_handlers {
            sites.retain(|(_, id, _)| reaches_handler(graph, *id));
        }
        sites.sort_by_key(|s| s.0);
        let Some(first) = sites.first() else {
            return facts;
        };
        facts.transport = Some(first.0);
        for (id, r) in graph.fns.iter().enumerate() {
            facts
                .branch_info
                .insert(id, files[r.file].fns[r.idx].branches.clone());
        }

        // Backwards from the transport to the entry points.
        let mut callers: Vec<Vec<(usize, usize)>> = vec![Vec::new(); graph.fns.len()];
        for (caller, list) in graph.callees.iter().enumerate() {
            for &(callee, site) in list {
                callers[callee].push((caller, site));
            }
        }
        let mut queue = VecDeque::new();
        for (span, id, branch) in &sites {
            facts
                .serving_branches
                .entry(*id)
                .or_default()
                .push((branch.clone(), span.start));
            queue.push_back(*id);
        }
        let mut seen = vec![false; graph.fns.len()];
        while let Some(id) = queue.pop_front() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            for &(caller, site) in &callers[id] {
                let r = graph.fns[caller];
                let call = &files[r.file].fns[r.idx].calls[site];
                facts
                    .serving_branches
                    .entry(caller)
                    .or_default()
                    .push((call.branch.clone(), call.span.start));
                queue.push_back(caller);
            }
        }

        // Forwards: what handlers reach, and what the serving branches call. Twice: the second
        // pass skips calls gated by a flag every serving-path caller passes as `false`
        // (`commands::stop(&conn, id, false)` where `stop` prints only `if show_output`).
        facts.propagate(files, graph);
        facts.always_false = facts.false_flags(files, graph);
        facts.propagate(files, graph);
        facts.always_false = facts.false_flags(files, graph);
        facts
    }

    fn propagate(&mut self, files: &[&FileModel], graph: &CallGraph) {
        self.whole = vec![false; graph.fns.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for (id, role) in graph.roles.iter().enumerate() {
            if role.is_handler() {
                queue.push_back(id);
            }
        }
        for &id in self.serving_branches.keys() {
            let r = graph.fns[id];
            for &(callee, site) in &graph.callees[id] {
                let call = &files[r.file].fns[r.idx].calls[site];
                if !self.serving_branches.contains_key(&callee)
                    && self.on_branch(id, &call.branch, call.span.start)
                    && !self.gated_off(files, graph, id, &call.gates)
                {
                    queue.push_back(callee);
                }
            }
        }
        while let Some(id) = queue.pop_front() {
            if std::mem::replace(&mut self.whole[id], true) {
                continue;
            }
            let r = graph.fns[id];
            for &(callee, site) in &graph.callees[id] {
                let call = &files[r.file].fns[r.idx].calls[site];
                if !self.whole[callee] && !self.gated_off(files, graph, id, &call.gates) {
                    queue.push_back(callee);
                }
            }
        }
    }

    /// Per fn: which parameters every call on the serving path passes as literal `false`.
    fn false_flags(&self, files: &[&FileModel], graph: &CallGraph) -> HashMap<usize, Vec<bool>> {
        // (seen a call, all calls passed `false`) per parameter.
        let mut seen: HashMap<usize, Vec<(bool, bool)>> = HashMap::new();
        for (id, r) in graph.fns.iter().enumerate() {
            let caller_whole = self.whole[id];
            if !caller_whole && !self.serving_branches.contains_key(&id) {
                continue;
            }
            for &(callee, site) in &graph.callees[id] {
                let call = &files[r.file].fns[r.idx].calls[site];
                if !caller_whole && !self.on_branch(id, &call.branch, call.span.start) {
                    continue;
                }
                let t = graph.fns[callee];
                let params = files[t.file].fns[t.idx].params.len();
                let entry = seen
                    .entry(callee)
                    .or_insert_with(|| vec![(false, true); params]);
                for (i, slot) in entry.iter_mut().enumerate() {
                    slot.0 = true;
                    slot.1 &= call.bool_args.get(i).copied().flatten() == Some(false);
                }
            }
        }
        seen.into_iter()
            .map(|(id, flags)| (id, flags.into_iter().map(|(s, f)| s && f).collect()))
            .collect()
    }

    /// Whether code under these `if` gates of fn `id` never runs on the serving path.
    fn gated_off(
        &self,
        files: &[&FileModel],
        graph: &CallGraph,
        id: usize,
        gates: &[String],
    ) -> bool {
        let Some(flags) = self.always_false.get(&id) else {
            return false;
        };
        let r = graph.fns[id];
        let params = &files[r.file].fns[r.idx].params;
        gates.iter().any(|g| {
            params
                .iter()
                .position(|p| p == g)
                .is_some_and(|i| flags.get(i).copied().unwrap_or(false))
        })
    }

    pub fn serves_stdio(&self) -> bool {
        self.transport.is_some()
    }

    /// Whether a site at byte `at` of fn `id`, inside `branch` and under `if` `gates`, runs
    /// while the stdio server runs.
    pub fn on_serving_path(
        &self,
        files: &[&FileModel],
        graph: &CallGraph,
        id: usize,
        site: (&[u32], usize),
        gates: &[String],
    ) -> bool {
        let (branch, at) = site;
        if !self.serves_stdio() || self.gated_off(files, graph, id, gates) {
            return false;
        }
        if self.whole.get(id).copied().unwrap_or(false) {
            return true;
        }
        self.on_branch(id, branch, at)
    }

    /// Whether a site at byte `at` of fn `id`, inside `branch`, runs on the way to the
    /// transport: not in a branch exclusive with the serving one, not in a branch that leaves
    /// first, and not after a serving branch that leaves the fn when serving ends.
    fn on_branch(&self, id: usize, branch: &[u32], at: usize) -> bool {
        let Some(serving) = self.serving_branches.get(&id) else {
            return false;
        };
        let info = self.branch_info.get(&id).map(Vec::as_slice).unwrap_or(&[]);
        let get = |b: u32| info.get(b as usize - 1).copied().unwrap_or_default();
        serving.iter().any(|(s, serve_at)| {
            let i = branch
                .iter()
                .zip(s.iter())
                .take_while(|(a, b)| a == b)
                .count();
            // After a serving branch that returns, nothing runs while serving.
            if at > *serve_at && s[i..].iter().any(|&b| get(b).diverges) {
                return false;
            }
            if i == branch.len() {
                return true;
            }
            if i < s.len() && get(branch[i]).group == get(s[i]).group {
                return false;
            }
            !branch[i..].iter().any(|&b| get(b).diverges)
        })
    }
}

/// Whether fn `id` is a handler or calls one, directly or through other fns.
fn reaches_handler(graph: &CallGraph, id: usize) -> bool {
    let mut seen = vec![false; graph.fns.len()];
    let mut stack = vec![id];
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f], true) {
            continue;
        }
        if graph.roles[f].is_handler() {
            return true;
        }
        stack.extend(graph.callees[f].iter().map(|&(t, _)| t));
    }
    false
}
