//! Analyses shared by the lints, computed once per crate.

pub mod stdio;

use std::collections::HashMap;

use crate::diagnostic::FileId;
use crate::model::callgraph::{CallGraph, FnRef, Reached};
use crate::model::{Candidate, FileModel, FnModel};
use crate::sdk::{Role, Sdk};
use crate::source::SourceMap;
use crate::workspace::Package;

/// `panic = "abort"` in a profile of the manifest that applies to the package.
#[derive(Clone, Debug)]
pub struct AbortSetting {
    pub profile: String,
    pub span: crate::diagnostic::Span,
}

pub struct Facts<'a> {
    pub sources: &'a SourceMap,
    pub abort_settings: &'a [AbortSetting],
    pub package: &'a Package,
    pub sdk: Option<&'a dyn Sdk>,
    /// The package's files and those of the workspace members it depends on.
    pub files: &'a [&'a FileModel],
    pub graph: CallGraph,
    pub stdio: stdio::StdioFacts,
    file_pos: HashMap<FileId, usize>,
}

/// How a site is reached from a handler, for messages.
pub struct Reach {
    pub handler: usize,
    /// Fn ids from the handler to the fn holding the site (at most
    /// [`crate::model::callgraph::CHAIN_SHOWN`] hops from the handler, then that fn).
    pub chain: Vec<usize>,
    /// Hops left out of `chain` between its last two entries.
    pub hidden: usize,
}

impl<'a> Facts<'a> {
    pub fn build(
        sources: &'a SourceMap,
        abort_settings: &'a [AbortSetting],
        package: &'a Package,
        sdk: Option<&'a dyn Sdk>,
        files: &'a [&'a FileModel],
        own_files: usize,
    ) -> Self {
        let mut graph = CallGraph::build(files, own_files, sdk, true);
        let own_responses = sdk.is_some_and(|s| s.writes_own_responses());
        let mut stdio = stdio::StdioFacts::build(files, &graph, own_responses);
        let reads_stdin = files[..own_files.min(files.len())]
            .iter()
            .any(|f| !f.stdio_sites.is_empty());
        if own_responses && !reads_stdin {
            // Hand-rolled dispatch in a crate that never reads stdin: a client or a library,
            // not a stdio server; its "handlers" are not handlers.
            graph = CallGraph::build(files, own_files, sdk, false);
            stdio = stdio::StdioFacts::build(files, &graph, own_responses);
        }
        let file_pos = files.iter().enumerate().map(|(i, f)| (f.file, i)).collect();
        Facts {
            sources,
            abort_settings,
            package,
            sdk,
            files,
            graph,
            stdio,
            file_pos,
        }
    }

    /// The crate-wide id of the fn holding a candidate.
    pub fn fn_id(&self, cand: &Candidate) -> Option<usize> {
        let file = *self.file_pos.get(&cand.span.file)?;
        self.graph.id(FnRef {
            file,
            idx: cand.fn_idx?,
        })
    }

    pub fn fn_model(&self, id: usize) -> &FnModel {
        let r = self.graph.fns[id];
        &self.files[r.file].fns[r.idx]
    }

    /// The fns a call in fn `id` (identified by the span of its callee) resolves to.
    pub fn call_targets(&self, id: usize, callee: crate::diagnostic::Span) -> Vec<usize> {
        let f = self.fn_model(id);
        let Some(site) = f.calls.iter().position(|c| c.span == callee) else {
            return Vec::new();
        };
        self.graph.callees[id]
            .iter()
            .filter(|(_, s)| *s == site)
            .map(|(t, _)| *t)
            .collect()
    }

    /// Whether fn `id` holds a candidate of `lint` whose data is a `T` (a marker).
    pub fn has_marker<T: 'static>(&self, lint: &str, id: usize) -> bool {
        let r = self.graph.fns[id];
        self.files[r.file]
            .candidates
            .iter()
            .any(|c| c.lint == lint && c.fn_idx == Some(r.idx) && c.data.is::<T>())
    }

    pub fn role(&self, id: usize) -> Role {
        self.graph.roles[id]
    }

    fn reach_in(&self, reach: &[Option<Reached>], id: usize) -> Option<Reach> {
        let r = reach[id]?;
        let (chain, hidden) = CallGraph::chain(reach, id);
        Some(Reach {
            handler: r.handler,
            chain,
            hidden,
        })
    }

    /// How a site is reached from a handler: through the fn holding it, or directly when it
    /// sits in a handler closure.
    pub fn reach(&self, cand: &Candidate) -> Option<Reach> {
        let id = self.fn_id(cand)?;
        self.reach_in(&self.graph.reach, id)
            .or_else(|| self.closure_reach(cand, id))
    }

    /// As [`Facts::reach`], skipping code run under a panic guard.
    pub fn panic_reach(&self, cand: &Candidate) -> Option<Reach> {
        let id = self.fn_id(cand)?;
        self.reach_in(&self.graph.panic_reach, id)
            .or_else(|| self.closure_reach(cand, id))
    }

    fn closure_reach(&self, cand: &Candidate, id: usize) -> Option<Reach> {
        cand.in_handler_closure.then(|| Reach {
            handler: id,
            chain: vec![id],
            hidden: 0,
        })
    }

    /// Whether the site's handler runs tools: a tool or dispatcher, or a handler closure.
    pub fn reaches_tool(&self, reach: &Reach) -> bool {
        let role = self.role(reach.handler);
        role.handles_tools() || !role.is_handler()
    }

    /// "tool `add`" or "request handler `get_prompt`".
    pub fn handler_phrase(&self, id: usize) -> String {
        let f = self.fn_model(id);
        let name = match (self.role(id), &f.owner) {
            // `impl AsyncTool<S> for SearchTool { fn invoke }`: the tool is the type.
            (Role::TraitTool, Some(owner)) => owner.clone(),
            _ => f.display_name(),
        };
        if !self.role(id).is_handler() {
            // A fn holding handler closures (tower-mcp's `ToolBuilder::..handler(..)`).
            return format!("the tool handler closure in `{name}`");
        }
        format!("{} `{}`", self.role(id).noun(), name)
    }

    /// " (called from tool `add` → `parse` → `helper`)" when the site is in a helper; empty
    /// when it is in the handler itself.
    pub fn via(&self, reach: &Reach) -> String {
        if reach.chain.len() <= 1 {
            return String::new();
        }
        let mut names: Vec<String> = reach.chain[1..]
            .iter()
            .map(|&id| format!("`{}`", self.fn_model(id).display_name()))
            .collect();
        if reach.hidden > 0 {
            // A bounded message however long the chain: the first hops, then the site's fn.
            let at = names.len() - 1;
            names.insert(at, format!("… {} more", reach.hidden));
        }
        format!(" → {}", names.join(" → "))
    }
}
