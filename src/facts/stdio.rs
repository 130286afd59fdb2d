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
    serving_branches: HashMap<usize, Vec<Vec<u32>>>,
    branch_info: HashMap<usize, Vec<BranchInfo>>,
}

impl StdioFacts {
    pub fn build(files: &[FileModel], graph: &CallGraph) -> Self {
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
        for (_, id, branch) in &sites {
            facts
                .serving_branches
                .entry(*id)
                .or_default()
                .push(branch.clone());
            queue.push_back(*id);
        }
        let mut seen = vec![false; graph.fns.len()];
        while let Some(id) = queue.pop_front() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            for &(caller, site) in &callers[id] {
                let r = graph.fns[caller];
                let branch = files[r.file].fns[r.idx].calls[site].branch.clone();
                facts
                    .serving_branches
                    .entry(caller)
                    .or_default()
                    .push(branch);
                queue.push_back(caller);
            }
        }

        // Forwards: what handlers reach, and what the serving branches call.
        let mut queue: VecDeque<usize> = VecDeque::new();
        for (id, reached) in graph.reach.iter().enumerate() {
            if reached.is_some() {
                queue.push_back(id);
            }
        }
        for (&id, _) in facts.serving_branches.iter() {
            let r = graph.fns[id];
            for &(callee, site) in &graph.callees[id] {
                let branch = &files[r.file].fns[r.idx].calls[site].branch;
                if !facts.serving_branches.contains_key(&callee) && facts.on_branch(id, branch) {
                    queue.push_back(callee);
                }
            }
        }
        while let Some(id) = queue.pop_front() {
            if std::mem::replace(&mut facts.whole[id], true) {
                continue;
            }
            for &(callee, _) in &graph.callees[id] {
                if !facts.whole[callee] {
                    queue.push_back(callee);
                }
            }
        }
        facts
    }

    pub fn serves_stdio(&self) -> bool {
        self.transport.is_some()
    }

    /// Whether a site in fn `id`, inside `branch`, runs while the stdio server runs.
    pub fn on_serving_path(&self, id: usize, branch: &[u32]) -> bool {
        if !self.serves_stdio() {
            return false;
        }
        if self.whole.get(id).copied().unwrap_or(false) {
            return true;
        }
        self.on_branch(id, branch)
    }

    fn on_branch(&self, id: usize, branch: &[u32]) -> bool {
        let Some(serving) = self.serving_branches.get(&id) else {
            return false;
        };
        let info = self.branch_info.get(&id).map(Vec::as_slice).unwrap_or(&[]);
        let get = |b: u32| info.get(b as usize - 1).copied().unwrap_or_default();
        serving.iter().any(|s| {
            let i = branch
                .iter()
                .zip(s.iter())
                .take_while(|(a, b)| a == b)
                .count();
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
