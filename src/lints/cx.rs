//! What a lint sees: the crate's analysis, its handlers and serving path, the SDK, and the
//! phrases every lint uses to name tools, helpers and call chains.

use crate::analysis::Analysis;
use crate::analysis::graph::Reached;
use crate::analysis::handlers::Handlers;
use crate::analysis::program::{FnId, NodeId, Site};
use crate::analysis::stdio::Stdio;
use crate::config::Config;
use crate::diagnostic::Span;
use crate::model::ir::{ClosureId, FnKind, Sp};
use crate::sdk::{Role, Sdk};
use crate::source::SourceMap;
use crate::workspace::Package;

/// `panic = "abort"` in a profile of the manifest that applies to the package.
#[derive(Clone, Debug)]
pub struct AbortSetting {
    pub profile: String,
    pub span: Span,
}

/// A call chain shows at most this many hops; the rest are counted.
const CHAIN_HOPS: usize = 6;

pub struct Cx<'a> {
    pub sources: &'a SourceMap,
    pub package: &'a Package,
    pub config: &'a Config,
    pub sdk: Option<&'a dyn Sdk>,
    pub a: &'a Analysis<'a>,
    pub handlers: &'a Handlers,
    pub stdio: &'a Stdio,
    pub abort_settings: &'a [AbortSetting],
    /// Per body, the bodies that call it (the call graph reversed), built when a finding
    /// first names the tools that reach a helper.
    pub callers: std::cell::OnceCell<Vec<Vec<(NodeId, bool)>>>,
    /// Bodies the walks up the call graph may still visit: naming the tools of every finding
    /// stays linear in the crate however many findings share a large graph.
    pub caller_budget: std::cell::Cell<usize>,
    /// The names more than one handler fn of the package has, built on first use.
    pub shared_handler_names: std::cell::OnceCell<Vec<crate::model::ir::Name>>,
}

/// The budget of [`Cx::caller_budget`].
pub const CALLER_BUDGET: usize = 2_000_000;

/// A headline names at most this many of the tools that reach a helper; the rest are counted
/// there and listed in a note.
const TOOLS_NAMED: usize = 3;
/// A note lists at most this many; `mcp-lint contract` lists them all.
const TOOLS_LISTED: usize = 12;

/// How a site is reached from a handler.
pub struct Reach {
    pub handler: NodeId,
    /// Nodes from the handler down to the one holding the site.
    pub chain: Vec<NodeId>,
    /// The site is in the handler's own fn (or a closure in it).
    pub own: bool,
}

impl Reach {
    pub fn in_handler(&self) -> bool {
        self.own
    }
}

impl<'a> Cx<'a> {
    pub fn span(&self, f: FnId, sp: Sp) -> Span {
        self.a.program.span(f, sp)
    }

    pub fn site_span(&self, site: Site) -> Span {
        self.a.program.site_span(site)
    }

    /// The head of a call at `site` (`error_json` in `error_json(&format!(..))`, the method
    /// name of a method call): a one-line place for findings about a call's result.
    pub fn call_head_span(&self, site: Site) -> Span {
        let body = &self.a.program.def(site.func).body;
        match &body.expr(site.expr).kind {
            crate::model::ir::ExprKind::Call { func, .. } => {
                self.span(site.func, body.expr(*func).span)
            }
            kind @ crate::model::ir::ExprKind::MethodCall { .. } => match kind.method_span() {
                Some(name) => self.span(site.func, name),
                None => self.site_span(site),
            },
            _ => self.site_span(site),
        }
    }

    pub fn snippet(&self, span: Span) -> &'a str {
        self.sources.get(span.file).snippet(span)
    }

    pub fn node(&self, f: FnId, owner: Option<ClosureId>) -> NodeId {
        match owner {
            Some(c) => self.a.program.closure_node(f, c),
            None => self.a.program.fn_node(f),
        }
    }

    fn reach_in(&self, reach: &[Option<Reached>], n: NodeId) -> Option<Reach> {
        let r = reach.get(n as usize).copied().flatten()?;
        let chain = Handlers::chain(reach, n);
        Some(self.reach_of(r.root, chain))
    }

    /// A reach from `handler` along `chain`.
    pub fn reach_of(&self, handler: NodeId, chain: Vec<NodeId>) -> Reach {
        let program = &self.a.program;
        let handler_fn = program.node(handler).func;
        let own = chain.iter().all(|&n| program.node(n).func == handler_fn);
        Reach {
            handler,
            chain,
            own,
        }
    }

    /// How body `n` is reached from a handler.
    pub fn reach(&self, n: NodeId) -> Option<Reach> {
        self.reach_in(&self.handlers.reach, n)
    }

    /// How body `n` is reached for a site of `handler`'s: from the nearest handler, unless
    /// that one runs no tools while `handler` does (a helper a resource handler and the tool
    /// dispatcher both call answers the dispatcher's tools, whichever is nearer).
    pub fn reach_for(&self, handler: NodeId, n: NodeId) -> Option<Reach> {
        let nearest = self.reach(n);
        let keep = nearest
            .as_ref()
            .is_some_and(|r| r.handler == handler || self.runs_tools(r.handler));
        if keep || !self.runs_tools(handler) {
            return nearest;
        }
        let program = &self.a.program;
        let from = self
            .a
            .graph
            .reach([handler], |_, e| self.handlers.follows(program, e));
        match from.get(n as usize) {
            Some(Some(_)) => Some(self.reach_of(handler, Handlers::chain(&from, n))),
            _ => nearest,
        }
    }

    /// As [`Cx::reach`], not through a panic guard.
    pub fn panic_reach(&self, n: NodeId) -> Option<Reach> {
        self.reach_in(&self.handlers.panic_reach, n)
    }

    pub fn node_role(&self, n: NodeId) -> Role {
        self.handlers.node_role(&self.a.program, n)
    }

    /// Whether a handler runs tools: a tool, a dispatcher, or a handler closure.
    pub fn runs_tools(&self, handler: NodeId) -> bool {
        // A request handler whose `tools/call` arm runs the tool itself runs tools too.
        let node = self.a.program.node(handler);
        self.node_role(handler).handles_tools()
            || (node.closure.is_none() && self.handlers.arms.iter().any(|(g, _)| *g == node.func))
    }

    /// The name of body `n` for messages: the fn's name (the type for trait tools), or the
    /// closure's enclosing fn.
    pub fn body_name(&self, n: NodeId) -> String {
        let node = self.a.program.node(n);
        let def = self.a.program.def(node.func);
        let role = self.handlers.role(node.func);
        match (role, &def.owner, &def.kind) {
            (Role::TraitTool, Some(owner), FnKind::Method { .. }) if node.closure.is_none() => {
                owner.to_string()
            }
            // Implementations of one trait method share its name: the type tells them apart.
            (_, Some(owner), FnKind::Method { .. }) if self.shares_handler_name(node.func) => {
                format!("{owner}::{}", def.name)
            }
            _ => def.name.to_string(),
        }
    }

    /// Whether another handler fn of the package has the same name as handler fn `f`.
    fn shares_handler_name(&self, f: FnId) -> bool {
        let program = &self.a.program;
        let shared = self.shared_handler_names.get_or_init(|| {
            let mut names: Vec<_> = program
                .fn_ids()
                .filter(|&g| self.is_own(g) && self.handlers.role(g).is_handler())
                .map(|g| program.def(g).name.clone())
                .collect();
            names.sort_unstable();
            let mut shared: Vec<_> = names
                .windows(2)
                .filter(|w| w[0] == w[1])
                .map(|w| w[0].clone())
                .collect();
            shared.dedup();
            shared
        });
        self.handlers.role(f).is_handler() && shared.binary_search(&program.def(f).name).is_ok()
    }

    /// "tool `add`", "request handler `get_prompt`", "the tool handler closure in `main`".
    pub fn handler_phrase(&self, n: NodeId) -> String {
        let name = self.body_name(n);
        if let Some((_, tool)) = self.handlers.closure_names.iter().find(|(c, _)| *c == n) {
            return format!("tool `{tool}` (a closure in `{name}`)");
        }
        if self.handlers.closures.contains(&n) {
            return format!("the tool handler closure in `{name}`");
        }
        let role = self.node_role(n);
        if !role.is_handler() {
            return format!("`{name}`");
        }
        format!("{} `{}`", role.noun(), name)
    }

    /// The handlers a site's body is reached from, for a headline: "tool `add`", "tools
    /// `add` and `sub`", or "5 tools (`a`, `b`, `c` and 2 more)" for a helper they share.
    /// With `unguarded`, only through calls no panic guard wraps.
    pub fn reached_phrase(&self, reach: &Reach, unguarded: bool) -> String {
        let tools = reach
            .chain
            .last()
            .and_then(|&last| self.tools_reaching(last, unguarded))
            .unwrap_or_default();
        if tools.len() < 2 {
            return self.handler_phrase(reach.handler);
        }
        let all_tools = tools.iter().all(|&t| self.node_role(t) == Role::Tool);
        let named: Vec<String> = tools
            .iter()
            .take(TOOLS_NAMED)
            .map(|&t| match all_tools {
                true => format!("`{}`", self.body_name(t)),
                false => self.handler_phrase(t),
            })
            .collect();
        let noun = if all_tools { "tools " } else { "" };
        match tools.len() - named.len() {
            0 => match named.split_last() {
                Some((last, first)) => format!("{noun}{} and {last}", first.join(", ")),
                None => String::new(),
            },
            more => format!(
                "{} {}({} and {more} more)",
                tools.len(),
                if all_tools { "tools " } else { "handlers " },
                named.join(", ")
            ),
        }
    }

    /// "in tool `add`", or "in `helper`, reached from tool `add`" (from every tool a panic
    /// there escapes from).
    pub fn place_phrase(&self, reach: &Reach, n: NodeId) -> String {
        let handler = self.reached_phrase(reach, true);
        if reach.in_handler() {
            format!("in {handler}")
        } else {
            format!("in `{}`, reached from {handler}", self.body_name(n))
        }
    }

    /// "call chain: tool `add` → `parse` → `helper`", at most [`CHAIN_HOPS`] hops shown.
    pub fn chain_note(&self, reach: &Reach) -> Option<String> {
        if reach.in_handler() {
            return None;
        }
        let program = &self.a.program;
        let mut names: Vec<String> = Vec::new();
        let mut last = program.node(reach.handler).func;
        for &n in &reach.chain[1..] {
            // A closure inside the previous fn adds no hop.
            let f = program.node(n).func;
            if f != last {
                names.push(format!("`{}`", self.body_name(n)));
            }
            last = f;
        }
        if names.is_empty() {
            return None;
        }
        let shown = names.len().min(CHAIN_HOPS);
        let mut text = format!(
            "call chain: {} → {}",
            self.handler_phrase(reach.handler),
            names[..shown].join(" → ")
        );
        if names.len() > shown {
            text.push_str(&format!(" → … {} more", names.len() - shown));
        }
        Some(text)
    }

    /// The tool-running handlers whose calls reach body `n`, `n` itself included, in node
    /// order: a helper shared by several tools is one site that all of them reach.
    /// With `unguarded`, only through calls no panic guard wraps (what a panic escapes).
    /// `None` when the walks' budget is spent (the note is then left out).
    pub fn tools_reaching(&self, n: NodeId, unguarded: bool) -> Option<Vec<NodeId>> {
        let callers = self.callers.get_or_init(|| {
            let out = &self.a.graph.out;
            let mut callers = vec![Vec::new(); out.len()];
            for (from, edges) in out.iter().enumerate() {
                for e in edges {
                    callers[e.to as usize].push((from as NodeId, e.guarded));
                }
            }
            callers
        });
        let mut seen: std::collections::HashSet<NodeId> = std::collections::HashSet::new();
        let mut stack = vec![n];
        let mut tools = Vec::new();
        while let Some(m) = stack.pop() {
            if !seen.insert(m) {
                continue;
            }
            let left = self.caller_budget.get().checked_sub(1)?;
            self.caller_budget.set(left);
            let is_root = self.handlers.reach[m as usize]
                .as_ref()
                .is_some_and(|r| r.root == m && r.parent.is_none());
            if is_root && self.runs_tools(m) {
                tools.push(m);
            }
            let up = callers[m as usize]
                .iter()
                .filter(|(_, guarded)| !(unguarded && *guarded));
            stack.extend(up.map(|&(c, _)| c));
        }
        // A dispatcher that runs the tools found is not another tool reaching the site.
        if tools.iter().any(|&t| self.node_role(t) != Role::Dispatcher) {
            tools.retain(|&t| self.node_role(t) != Role::Dispatcher);
        }
        tools.sort_unstable();
        Some(tools)
    }

    /// The notes on how a site is reached: its call chain, and the other tools that reach it.
    pub fn chain_notes(&self, reach: &Reach) -> Vec<String> {
        self.chain_note(reach)
            .into_iter()
            .chain(self.tools_note(reach, false))
            .collect()
    }

    /// [`Cx::chain_notes`] for a panic: the tools a panic there escapes from.
    pub fn panic_chain_notes(&self, reach: &Reach) -> Vec<String> {
        self.chain_note(reach)
            .into_iter()
            .chain(self.tools_note(reach, true))
            .collect()
    }

    /// "reached from 5 tools: tool `a`, tool `b`, tool `c` and 2 more", when more reach the
    /// site's body than a headline names.
    pub fn tools_note(&self, reach: &Reach, unguarded: bool) -> Option<String> {
        let &last = reach.chain.last()?;
        let tools = self.tools_reaching(last, unguarded)?;
        // A headline names up to TOOLS_NAMED of them ([`Cx::reached_phrase`]).
        if tools.len() <= TOOLS_NAMED {
            return None;
        }
        let named: Vec<String> = tools
            .iter()
            .take(TOOLS_LISTED)
            .map(|&t| self.handler_phrase(t))
            .collect();
        let more = tools.len().saturating_sub(TOOLS_LISTED);
        let mut text = format!("reached from {} tools: {}", tools.len(), named.join(", "));
        if more > 0 {
            text.push_str(&format!(
                " and {more} more (`mcp-lint contract` lists them)"
            ));
        }
        Some(text)
    }

    pub fn is_own(&self, f: FnId) -> bool {
        self.a.program.is_own(f)
    }
}
