//! What the code means, crate-wide: the type table, call resolution by receiver type, value
//! flow inside each fn, per-fn summaries computed bottom-up over the call graph, handlers
//! and what they reach, and the stdio serving path. Knows the SDK only through the `Sdk`
//! trait; knows no lint.

mod answers;
pub mod calls;
pub mod continuations;
pub mod dispatch;
pub mod dump;
pub mod facts;
pub mod flow;
mod flow_control;
mod flow_index;
mod flow_ops;
pub mod forwarding;
mod found;
mod gates;
pub mod graph;
pub mod handlers;
mod map_keys;
pub mod program;
mod reachable;
mod std_types;
pub mod stdio;
pub mod strings;
pub mod text;
mod tool_names;
pub mod types;
pub mod value;
mod variant_strings;
mod wording;

use crate::config::Config;
use crate::diagnostic::Span;
use crate::model::ir::FileIr;
use crate::sdk::Sdk;
use calls::Resolved;
use facts::{FnFacts, Summary};
use graph::Graph;
use program::{FnId, Program};
use types::TypeTable;

/// Rounds of the fixpoint over a recursive group of fns.
const SCC_ROUNDS: usize = 3;

pub struct Analysis<'a> {
    pub program: Program<'a>,
    pub types: TypeTable<'a>,
    pub resolved: Vec<Resolved>,
    pub graph: Graph,
    pub facts: Vec<FnFacts>,
    pub summaries: Vec<Summary>,
    /// Places in the crate's own files where a budget cut the analysis short, and why.
    pub incomplete: Vec<(Span, String)>,
    /// Per fn, the locals of its parameters that callers pass a tool's name.
    pub tool_names: Vec<Vec<crate::model::ir::LocalId>>,
}

/// Analyses a crate: `files` are its own (the first `own`) and those of the workspace
/// members it depends on.
pub fn analyse<'a>(
    files: Vec<&'a FileIr>,
    own: usize,
    sdk: Option<&dyn Sdk>,
    config: &Config,
) -> Analysis<'a> {
    let program = Program::new(files, own);
    let types = TypeTable::new(&program);
    let mut incomplete: Vec<(Span, String)> = program
        .fn_ids()
        .filter(|&f| program.is_own(f))
        .filter_map(|f| {
            let def = program.def(f);
            let why = types.expansion_cut(&def.ret)?;
            Some((program.span(f, def.name_span), why))
        })
        .collect();
    let budget = calls::EdgeBudget::default();
    let (mut resolved, reached) =
        reachable::resolve_reached(&program, &types, sdk, &config.panic_guards, &budget);
    if let Some((f, expr)) = budget.spent_at.get() {
        let sp = program.def(f).body.expr(expr).span;
        incomplete.push((
            program.span(f, sp),
            format!(
                "the crate has more than {} call edges, so this call and the ones resolved \
                 after it were not followed",
                calls::MAX_EDGES
            ),
        ));
    }
    let graph = Graph::build(&program, &resolved);
    let tool_names = tool_names::tool_name_params(&program, &resolved);
    let n = program.fn_count();
    let mut summaries = vec![Summary::default(); n];
    let mut facts: Vec<FnFacts> = vec![FnFacts::default(); n];
    for scc in conversions_first(&program, &types, &graph) {
        let recursive = scc.len() > 1 || calls_itself(&resolved, scc[0]);
        let rounds = if recursive { SCC_ROUNDS } else { 1 };
        for _ in 0..rounds {
            let mut changed = false;
            let mut results: Vec<(FnId, FnFacts, Summary)> = Vec::with_capacity(scc.len());
            {
                let env = flow::Env {
                    program: &program,
                    types: &types,
                    sdk,
                    config,
                    summaries: &summaries,
                    tool_names: &tool_names,
                };
                for &f in scc.iter().filter(|&&f| reached[f as usize]) {
                    let (fact, summary) = flow::analyse_fn(&env, &resolved[f as usize], f);
                    results.push((f, fact, summary));
                }
            }
            for (f, fact, summary) in results {
                changed |= summaries[f as usize] != summary;
                summaries[f as usize] = summary;
                facts[f as usize] = fact;
            }
            if !changed {
                break;
            }
        }
        // Only the flow of the fn itself reads its locals' types, and it is done.
        for &f in scc {
            resolved[f as usize].local_tys = Vec::new();
        }
    }
    Analysis {
        program,
        types,
        resolved,
        graph,
        facts,
        summaries,
        incomplete,
        tool_names,
    }
}

fn calls_itself(resolved: &[Resolved], f: FnId) -> bool {
    resolved[f as usize]
        .calls
        .iter()
        .any(|c| c.targets.contains(&f))
}

#[cfg(test)]
mod tests;

/// The call graph's components, callees first, with the crate's `From::from` impls and what
/// they call ahead of the rest: what they make of each variant must be known when a `?` is
/// analysed, and a `?` whose operand's error type is unknown has no call edge to them.
/// Moving a set closed under callees to the front keeps every callee ahead of its callers.
fn conversions_first<'g>(
    program: &program::Program<'_>,
    types: &types::TypeTable<'_>,
    graph: &'g Graph,
) -> Vec<&'g Vec<FnId>> {
    let roots: Vec<_> = types
        .trait_method("From", "from")
        .into_iter()
        .map(|f| program.fn_node(f))
        .collect();
    if roots.is_empty() {
        return graph.sccs.iter().collect();
    }
    let reach = graph.reach(roots, |_, _| true);
    let first = |scc: &Vec<FnId>| {
        scc.iter()
            .any(|&f| reach[program.fn_node(f) as usize].is_some())
    };
    let (mut order, rest): (Vec<_>, Vec<_>) = graph.sccs.iter().partition(|scc| first(scc));
    order.extend(rest);
    order
}
