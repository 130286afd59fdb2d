//! Which bodies the SDK runs as request handlers, where their `Err` goes, and what they
//! reach: every body, and the bodies a panic can come from (not through a panic guard).

use super::Analysis;
use super::calls::CallKind;
use super::dispatch::Dispatch;
use super::graph::{Edge, Graph, Reached};
use super::program::{FnId, NodeId, Program, registered_value};
use crate::model::ir::{ExprKind, FnKind};
use crate::sdk::{Channel, Role, Sdk};

pub struct Handlers {
    /// Per fn, after dispatch analysis (fns a dispatcher calls may become tools).
    pub roles: Vec<Role>,
    pub channels: Vec<Channel>,
    /// Per fn, the dispatcher whose selection of a tool it carries on (see
    /// `continuations`): not a tool, and its catch-all answers an unknown tool.
    pub continues: Vec<Option<FnId>>,
    /// Per handler fn, the helper that is its whole body (see
    /// `continuations::handler_bodies`).
    pub body: Vec<Option<FnId>>,
    /// The inverse of `body`: per helper, the handler it is the body of.
    pub body_of: Vec<Option<FnId>>,
    /// Closures the SDK runs as tool handlers (`ToolBuilder::handler(|..| ..)`).
    pub closures: Vec<NodeId>,
    /// Closures registered in a hand-rolled registry whose dispatcher answers their `Err`
    /// with a JSON-RPC error object.
    pub protocol_closures: Vec<NodeId>,
    /// Registered closures and the tool name each is registered under.
    pub closure_names: Vec<(NodeId, String)>,
    pub reach: Vec<Option<Reached>>,
    pub panic_reach: Vec<Option<Reached>>,
    /// Edges from a handler to what the server's own code calls to answer its result (see
    /// `answers`): followed for panics only.
    pub answers: Vec<(NodeId, Edge)>,
    /// `tools/call` arms that are the dispatcher themselves (see [`Dispatch::arms`]).
    pub arms: Vec<(FnId, crate::model::ir::ExprId)>,
    /// The SDK answers a panicking handler itself: always, or because the crate's code calls
    /// the method that turns its opt-in guard on.
    pub sdk_catches_panics: bool,
}

/// Calls resolved by name to more than this many methods are not followed for panics.
pub(super) const MAY_FANOUT: usize = 4;

impl Handlers {
    /// `serving`: false for a hand-rolled "server" that never reads stdin (a client or a
    /// library): its handler-like fns are not handlers. `dispatch`: for servers that speak
    /// JSON-RPC themselves, what answers `tools/call` and where tool errors go.
    pub fn build(
        a: &Analysis<'_>,
        sdk: Option<&dyn Sdk>,
        serving: bool,
        dispatch: Option<&Dispatch>,
    ) -> Handlers {
        let program = &a.program;
        let mut roles: Vec<Role> = program
            .fn_ids()
            .map(|f| match sdk {
                Some(sdk) if serving => role_of(program, &a.types, sdk, f),
                Some(sdk) => match role_of(program, &a.types, sdk, f) {
                    r if r.is_handler() => Role::None,
                    r => r,
                },
                None => Role::None,
            })
            .collect();
        let (mut closures, registered_fns) = match sdk {
            Some(s) if serving => registered_handlers(a, s),
            _ => (Vec::new(), Vec::new()),
        };
        for &f in &registered_fns {
            if roles[f as usize] == Role::None {
                roles[f as usize] = Role::Tool;
            }
        }
        if let Some(d) = dispatch.filter(|d| {
            serving && !(d.dispatchers.is_empty() && d.tools.is_empty() && d.arms.is_empty())
        }) {
            for &f in &d.requests {
                if roles[f as usize] == Role::None {
                    roles[f as usize] = Role::Request;
                }
            }
            for &f in &d.dispatchers {
                roles[f as usize] = Role::Dispatcher;
            }
            for &f in &d.tools {
                roles[f as usize] = Role::Tool;
            }
        }
        let channel_of = |role: Role, f: FnId| match dispatch {
            // What the dispatcher makes of the tool's `Err`.
            Some(d) if d.protocol[f as usize] => Channel::Protocol,
            Some(_) => Channel::Unknown,
            None => sdk.map_or(Channel::Unknown, |s| s.err_channel(role, a.types.ret(f))),
        };
        // A fn a dispatcher calls and whose errors are protocol errors is a tool in effect; so
        // is each implementation a dispatcher's tool reaches through a trait object
        // (`tool.call(args)` on a `Box<dyn Tool>` from a registry).
        // (Servers that dispatch by hand name their tools by behaviour: see `Dispatch`.)
        let rounds = if dispatch.is_some() { 0 } else { 2 };
        let continues = if rounds > 0 {
            super::continuations::continuations(a, &roles)
        } else {
            vec![None; roles.len()]
        };
        for (f, c) in continues.iter().enumerate() {
            if c.is_some() {
                roles[f] = Role::None;
            }
        }
        // The fns a dispatcher's whole body hands the request to are that dispatcher: when
        // they select no tool by name themselves (a registry lookup), what they call is.
        let mut bodies = super::continuations::dispatcher_bodies(a, &roles);
        for (f, b) in bodies.iter_mut().enumerate() {
            *b &= a.facts[f].tool_arm_exprs.is_empty();
        }
        for round in 0..rounds {
            for f in program.fn_ids() {
                let role = roles[f as usize];
                let from_dispatcher = role == Role::Dispatcher || bodies[f as usize];
                // A fn that carries a dispatcher's selection on runs as tools the fns whose
                // result is the value of one of its arms.
                if round == 0 && continues[f as usize].is_some() {
                    for t in super::continuations::arm_tools(a, f) {
                        if roles[t as usize] == Role::None
                            && continues[t as usize].is_none()
                            && channel_of(Role::Tool, t) == Channel::Protocol
                        {
                            roles[t as usize] = Role::Tool;
                        }
                    }
                    if !bodies[f as usize] {
                        continue;
                    }
                }
                let from_tool = round > 0 && role == Role::Tool;
                if !(from_dispatcher || from_tool) || !program.is_own(f) {
                    continue;
                }
                // What the dispatcher runs before it selects a tool by name runs for every
                // tool (a check of the request's arguments): no tool itself.
                let body = &program.def(f).body;
                let selects_at = (a.facts[f as usize].tool_arm_exprs.iter())
                    .map(|&e| body.expr(e).span.start)
                    .min();
                for call in &a.resolved[f as usize].calls {
                    let dynamic =
                        call.kind == super::calls::CallKind::Method && call.targets.len() >= 2;
                    if call.may || (from_tool && !dynamic) {
                        continue;
                    }
                    let before_selection = call.owner.is_none()
                        && selects_at.is_some_and(|s| body.expr(call.expr).span.end <= s);
                    if from_dispatcher && before_selection {
                        continue;
                    }
                    for &t in &call.targets {
                        if roles[t as usize] == Role::None
                            && continues[t as usize].is_none()
                            && t != f
                            && channel_of(Role::Tool, t) == Channel::Protocol
                        {
                            roles[t as usize] = Role::Tool;
                        }
                    }
                }
            }
        }
        if let Some(sdk) = sdk {
            let by_signature = |f: FnId| tool_by_signature(program, &a.types, sdk, f);
            super::continuations::demote_tool_bodies(a, &mut roles, by_signature);
        }
        let channels: Vec<Channel> = program
            .fn_ids()
            .map(|f| {
                if program.is_own(f) {
                    channel_of(roles[f as usize], f)
                } else {
                    Channel::Unknown
                }
            })
            .collect();
        let mut protocol_closures = Vec::new();
        let closure_names = dispatch.map_or_else(Vec::new, |d| d.closure_names.clone());
        let arms = match dispatch {
            Some(d) if serving => {
                closures.extend(d.registered_closures.iter().copied());
                if d.registry_protocol {
                    protocol_closures.clone_from(&d.registered_closures);
                }
                d.arms.clone()
            }
            _ => Vec::new(),
        };
        let mut roots: Vec<NodeId> = program
            .fn_ids()
            .filter(|&f| roles[f as usize].is_handler())
            .map(|f| program.fn_node(f))
            .collect();
        roots.extend(closures.iter().copied());
        let reach = a
            .graph
            .reach(roots.iter().copied(), |_, e| follows(program, &roles, e));
        // A server that reads its requests itself answers a handler's result in code of its
        // own: what that code calls runs for the request too.
        let answers = match sdk {
            Some(s) if s.writes_own_responses() => super::answers::answer_edges(a, &roles, &reach),
            _ => Vec::new(),
        };
        let panic_reach = a.graph.reach_with(roots.iter().copied(), &answers, |_, e| {
            follows_for_panics(a, &roles, e)
        });
        let body = super::continuations::handler_bodies(a, &roles);
        let mut body_of = vec![None; body.len()];
        for (f, t) in body.iter().enumerate() {
            if let Some(t) = t {
                body_of[*t as usize] = Some(f as FnId);
            }
        }
        Handlers {
            roles,
            channels,
            continues,
            body,
            body_of,
            closures,
            protocol_closures,
            closure_names,
            reach,
            panic_reach,
            answers,
            arms,
            sdk_catches_panics: sdk.is_some_and(|s| {
                s.catches_panics() || s.panic_guard_method().is_some_and(|m| calls_method(a, m))
            }),
        }
    }

    pub fn role(&self, f: FnId) -> Role {
        self.roles[f as usize]
    }

    /// The handler fn `f` is, itself or as the helper that is a handler's whole body.
    pub fn handler_of(&self, f: FnId) -> FnId {
        self.body_of[f as usize].unwrap_or(f)
    }

    /// The role of a handler node: its fn's, or a tool for a handler closure.
    pub fn node_role(&self, program: &Program<'_>, n: NodeId) -> Role {
        if self.closures.contains(&n) {
            return Role::Tool;
        }
        let node = program.node(n);
        match node.closure {
            None => self.role(node.func),
            Some(_) => Role::None,
        }
    }

    /// Whether expression `e` of fn `f` lies in one of `f`'s `tools/call` arms that run the
    /// tool themselves (see [`Dispatch::arms`]).
    pub fn in_own_arm(&self, program: &Program<'_>, f: FnId, e: crate::model::ir::ExprId) -> bool {
        let body = &program.def(f).body;
        let within = body.expr(e).span;
        self.arms.iter().any(|&(g, arm)| {
            let arm = body.expr(arm).span;
            g == f && arm.start <= within.start && within.end <= arm.end
        })
    }

    pub fn is_handler_node(&self, program: &Program<'_>, n: NodeId) -> bool {
        self.node_role(program, n).is_handler()
    }

    /// The chain of nodes from the handler down to `n`.
    pub fn chain(reach: &[Option<Reached>], n: NodeId) -> Vec<NodeId> {
        Graph::chain(reach, n)
    }

    /// Whether [`Handlers::reach`] follows edge `e` (not into startup code).
    pub fn follows(&self, program: &Program<'_>, e: &Edge) -> bool {
        follows(program, &self.roles, e)
    }

    /// Whether [`Handlers::panic_reach`] follows edge `e`.
    pub fn follows_for_panics(&self, a: &Analysis<'_>, e: &Edge) -> bool {
        follows_for_panics(a, &self.roles, e)
    }
}

fn follows(program: &Program<'_>, roles: &[Role], e: &Edge) -> bool {
    // A closure is entered only from the body that defines it: one inside startup code is
    // reached only from a handler closure written there (`with_tool(.., |args| { ..
    // block_in_place(|| ..) })`), whose nested bodies are the handler's own.
    let to = program.node(e.to);
    to.closure.is_some() || roles[to.func as usize] != Role::Startup
}

/// Not into startup code, not through a panic guard, not along a call resolved by name to
/// too many methods.
fn follows_for_panics(a: &Analysis<'_>, roles: &[Role], e: &Edge) -> bool {
    follows(&a.program, roles, e)
        && !(e.guarded || (e.may && fanout(a, e.func, e.site) > MAY_FANOUT))
}

pub(super) fn fanout(a: &Analysis<'_>, f: FnId, site: u32) -> usize {
    a.resolved[f as usize]
        .calls
        .get(site as usize)
        .map_or(0, |c| c.targets.len())
}

/// Whether the crate's code calls a method named `method` (in any fn or closure body; a
/// comment or a string that spells the call is not code).
fn calls_method(a: &Analysis<'_>, method: &str) -> bool {
    let program = &a.program;
    program.fn_ids().any(|f| {
        program
            .def(f)
            .body
            .exprs
            .iter()
            .any(|e| matches!(&e.kind, ExprKind::MethodCall { method: m, .. } if m == method))
    })
}

/// The SDK's role for fn `f`, judged by its return type with the crate's aliases expanded
/// (`type R<T> = Result<T, CallToolError>` is that `Result`).
pub(super) fn role_of(
    program: &Program<'_>,
    types: &super::types::TypeTable<'_>,
    sdk: &dyn Sdk,
    f: FnId,
) -> Role {
    role_with_attrs(program, types, sdk, f, &program.def(f).attrs)
}

/// Whether the SDK takes fn `f` for a tool by its signature alone, not by an attribute.
fn tool_by_signature(
    program: &Program<'_>,
    types: &super::types::TypeTable<'_>,
    sdk: &dyn Sdk,
    f: FnId,
) -> bool {
    role_with_attrs(program, types, sdk, f, &[]) == Role::Tool
}

/// The SDK's role for fn `f` as if it carried the attributes `attrs`.
fn role_with_attrs(
    program: &Program<'_>,
    types: &super::types::TypeTable<'_>,
    sdk: &dyn Sdk,
    f: FnId,
    attrs: &[crate::sdk::Attr],
) -> Role {
    let def = program.def(f);
    let file = program.file_ir(f);
    let implementation = match def.kind {
        FnKind::Method { impl_idx } => file.impls.get(impl_idx as usize),
        _ => None,
    };
    sdk.role(
        &file.imports,
        implementation,
        attrs,
        &def.name,
        types.ret(f),
    )
}

/// Handlers given to the SDK's handler-registering methods, or to the constructors of its
/// types that make a tool of a handler (`TypedTool::new("add", add)`): closures, and crate fns
/// given by name (a fn item or a path is the same handler as a closure that calls it).
fn registered_handlers(a: &Analysis<'_>, sdk: &dyn Sdk) -> (Vec<NodeId>, Vec<FnId>) {
    let methods = sdk.handler_closure_methods();
    let (mut closures, mut fns) = (Vec::new(), Vec::new());
    let program = &a.program;
    for f in program.fn_ids() {
        let body = &program.def(f).body;
        let imports = &program.file_ir(f).imports;
        let resolved = &a.resolved[f as usize];
        for call in &resolved.calls {
            let args = match &body.expr(call.expr).kind {
                ExprKind::MethodCall { method, args, .. }
                    if call.kind == CallKind::Method && methods.contains(&method.as_str()) =>
                {
                    args
                }
                ExprKind::Call { func, args } => match &body.expr(*func).kind {
                    ExprKind::Path(path) if sdk.is_handler_wrapper(imports, path) => args,
                    _ => continue,
                },
                _ => continue,
            };
            for &arg in args {
                let value = registered_value(body, arg);
                match &body.expr(value).kind {
                    ExprKind::Closure(c) => match resolved.eta_target(body, *c) {
                        Some(t) => fns.push(t),
                        None => closures.push(program.closure_node(f, *c)),
                    },
                    ExprKind::Path(_) => fns.extend(
                        resolved
                            .at(value)
                            .map(|i| &resolved.calls[i as usize])
                            .filter(|c| c.kind == CallKind::FnValue && !c.may)
                            .flat_map(|c| c.targets.iter().copied()),
                    ),
                    _ => {}
                }
            }
        }
    }
    (closures, fns)
}
