//! A crate's contract: each handler of the package with its name, kind, error channel and
//! success shapes, and its failure paths (`paths`).

use std::collections::{HashMap, HashSet};

use super::model::{Channel as Wire, Failure, Kind, Origin, Tool};
use super::paths::{self, HandlerReach, err_channel, fn_label, returns};
use crate::analysis::program::NodeId;
use crate::analysis::value::{Fact, Part};
use crate::lints::Cx;
use crate::lints::error_as_success;
use crate::model::ir::{Body, ExprId, ExprKind, FnKind};
use crate::model::resolve::Ty;
use crate::sdk::Role;

/// Attributes that mark a handler and may carry its name (`#[tool(name = "..")]`).
const NAMING_ATTRS: &[&str] = &[
    "tool",
    "mcp_tool",
    "tool_fn",
    "prompt",
    "mcp_prompt",
    "resource",
    "mcp_resource",
];

/// The contract of every handler of the package.
pub fn build(cx: &Cx<'_>) -> Vec<Tool> {
    let program = &cx.a.program;
    let mut roots: HashSet<NodeId> = program
        .fn_ids()
        .filter(|&f| cx.handlers.role(f).is_handler())
        .map(|f| program.fn_node(f))
        .collect();
    roots.extend(cx.handlers.closures.iter().copied());
    let mut listed: Vec<NodeId> = program
        .fn_ids()
        .filter(|&f| cx.is_own(f) && cx.handlers.role(f).is_handler() && !wraps_handler(cx, f))
        .map(|f| program.fn_node(f))
        .collect();
    listed.extend(
        cx.handlers
            .closures
            .iter()
            .copied()
            .filter(|&n| cx.is_own(program.node(n).func)),
    );
    listed.sort_unstable();
    listed.dedup();
    let mut tools: Vec<Tool> = listed.iter().map(|&h| tool(cx, h, &roots)).collect();
    // Names the code does not give (`run_tool` of many tool types) are told apart by type.
    let mut count: HashMap<(Kind, String), usize> = HashMap::new();
    for t in &tools {
        *count.entry((t.kind, t.name.clone())).or_default() += 1;
    }
    for t in &mut tools {
        if count[&(t.kind, t.name.clone())] > 1 && t.func != t.name && t.func.contains("::") {
            t.name = t.func.clone();
        }
    }
    tools
}

/// Whether fn `f` hands its own parameters to another handler of the same role for its only
/// value and failure (`fn call(&self, r: R) -> A { self.run(r).await }`): that handler under
/// another name, listed once, as the fn that does the work.
fn wraps_handler(cx: &Cx<'_>, f: crate::analysis::program::FnId) -> bool {
    crate::analysis::continuations::forwarded_whole(cx.a, f)
        .is_some_and(|t| cx.handlers.role(t) == cx.handlers.role(f))
}

fn tool(cx: &Cx<'_>, h: NodeId, roots: &HashSet<NodeId>) -> Tool {
    let program = &cx.a.program;
    let node = program.node(h);
    let def = program.def(node.func);
    let sp = match node.closure {
        Some(c) => def.body.closure(c).span,
        None => def.name_span,
    };
    let span = cx.span(node.func, sp);
    let file = cx.sources.get(span.file);
    let kind = kind_of(cx, h);
    let reach = HandlerReach::new(cx, h, roots);
    let mut failures = failures(cx, &reach);
    failures.sort_by(|a, b| (a.channel, &a.origin, &a.kind).cmp(&(b.channel, &b.origin, &b.kind)));
    Tool {
        name: name_of(cx, h),
        kind,
        func: fn_label(cx, node.func),
        package: cx.package.name.clone(),
        sdk: cx.sdk.map(|s| match s.version() {
            Some(v) => format!("{} {}.{}.{}", s.name(), v.0, v.1, v.2),
            None => s.name().to_string(),
        }),
        file: file.display.clone(),
        line: file.line_col(span.start).0,
        err: err_channel(cx, h),
        success: shapes(cx, h),
        failures,
    }
}

fn kind_of(cx: &Cx<'_>, h: NodeId) -> Kind {
    if cx.handlers.closures.contains(&h) {
        return Kind::Tool;
    }
    let program = &cx.a.program;
    let f = program.node(h).func;
    let def = program.def(f);
    match cx.handlers.role(f) {
        Role::Dispatcher => return Kind::Dispatcher,
        // A request handler whose `tools/call` arm runs the tool itself is the dispatcher.
        Role::Request if cx.handlers.arms.iter().any(|(g, _)| *g == f) => {
            return Kind::Dispatcher;
        }
        Role::Request => {}
        _ => return Kind::Tool,
    }
    let has = |names: &[&str]| def.attrs.iter().any(|a| names.contains(&a.name()));
    let trait_name = match def.kind {
        FnKind::Method { impl_idx } => program
            .file_ir(f)
            .impls
            .get(impl_idx as usize)
            .and_then(|i| i.trait_path.as_ref())
            .and_then(|p| p.last())
            .map(|t| t.to_lowercase()),
        _ => None,
    }
    .unwrap_or_default();
    let listing = def.name.starts_with("list_") || def.name.contains("_list_");
    let about = |word: &str| !listing && (def.name.contains(word) || trait_name.contains(word));
    if has(&["prompt", "mcp_prompt"]) || about("prompt") {
        Kind::Prompt
    } else if has(&["resource", "mcp_resource"]) || about("resource") {
        Kind::Resource
    } else {
        Kind::Request
    }
}

/// The tool's name: from its attribute, from the call that registers its closure, the type
/// of a trait tool, else the fn's.
fn name_of(cx: &Cx<'_>, h: NodeId) -> String {
    let program = &cx.a.program;
    let node = program.node(h);
    let def = program.def(node.func);
    if let Some(c) = node.closure {
        return registered_name(&def.body, c)
            .unwrap_or_else(|| format!("closure in `{}`", def.name));
    }
    if cx.handlers.role(node.func) == Role::TraitTool {
        return cx.body_name(h);
    }
    def.attrs
        .iter()
        .filter(|a| NAMING_ATTRS.contains(&a.name()))
        .find_map(|a| name_argument(&a.args))
        .unwrap_or_else(|| def.name.to_string())
}

/// `name = "x"` among an attribute's arguments (not inside a string).
fn name_argument(args: &str) -> Option<String> {
    let chars: Vec<char> = args.chars().collect();
    let mut i = 0;
    let mut depth = 0usize;
    while i < chars.len() {
        match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            'n' if depth == 0
                && chars[i..].starts_with(&['n', 'a', 'm', 'e'])
                && (i == 0 || !is_ident(chars[i - 1])) =>
            {
                let mut j = i + 4;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if chars.get(j) == Some(&'=') {
                    j += 1;
                    while j < chars.len() && chars[j].is_whitespace() {
                        j += 1;
                    }
                    if chars.get(j) == Some(&'"') {
                        let value: String =
                            chars[j + 1..].iter().take_while(|&&c| c != '"').collect();
                        return Some(value);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The name a handler closure is registered under: a string argument of the registering
/// call (`tool_typed("add", |..| ..)`), or of the call its builder chain starts with
/// (`ToolBuilder::new("add").handler(|..| ..)`).
fn registered_name(body: &Body, closure: u32) -> Option<String> {
    let is_closure = |e: ExprId| matches!(body.expr(e).kind, ExprKind::Closure(c) if c == closure);
    let call = (0..body.exprs.len() as ExprId).find(|&e| match &body.expr(e).kind {
        ExprKind::MethodCall { args, .. } | ExprKind::Call { args, .. } => {
            args.iter().any(|&a| is_closure(a))
        }
        _ => false,
    })?;
    let first_str = |args: &[ExprId]| args.iter().find_map(|&a| body.str_lit(a));
    let mut e = call;
    loop {
        match &body.expr(e).kind {
            ExprKind::MethodCall { receiver, args, .. } => {
                if e == call
                    && let Some(name) = first_str(args)
                {
                    return Some(name.to_string());
                }
                e = *receiver;
            }
            ExprKind::Call { args, .. } => return first_str(args).map(String::from),
            _ => return None,
        }
    }
}

/// The shapes of the handler's successful results.
fn shapes(cx: &Cx<'_>, h: NodeId) -> Vec<String> {
    let program = &cx.a.program;
    let node = program.node(h);
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    let mut result_type = false;
    // A server that writes its own responses answers with what it writes, wherever the code
    // that builds it ends: the results it sends, not the Rust type some fn returns them as.
    let writes_own = cx.sdk.is_some_and(|s| s.writes_own_responses());
    if node.closure.is_none() && !writes_own {
        let ret = cx.a.types.ret(node.func);
        let ok = ok_type(ret);
        match ok.last_segment() {
            _ if error_as_success::is_text(ok) => add("text".to_string()),
            Some("CallToolResult") => result_type = true,
            Some(name) if cx.a.types.is_tool_result_struct(name) => result_type = true,
            Some(_) => add(ty_text(ok)),
            None => {}
        }
    }
    let facts = &cx.a.facts[node.func as usize];
    let sent = facts
        .sent
        .iter()
        .filter(|r| writes_own && r.owner == node.closure)
        .map(|r| &r.val);
    for val in returns(cx, h).into_iter().chain(sent) {
        for o in val.iter() {
            if o.fact != Fact::Success || o.part == Part::Err {
                continue;
            }
            let maker = cx.handlers.handler_of(o.site.func);
            if maker != node.func && cx.handlers.role(maker).is_handler() {
                continue;
            }
            let body = &program.def(o.site.func).body;
            let structured = match &body.expr(o.site.expr).kind {
                ExprKind::Call { func, .. } => matches!(&body.expr(*func).kind,
                    ExprKind::Path(p) if p.last().is_some_and(|l| l.starts_with("structured"))),
                _ => false,
            };
            add(if structured { "structured" } else { "content" }.to_string());
        }
    }
    if result_type && out.is_empty() {
        out.push("content".to_string());
    }
    out
}

/// The success type of a return type: `T` of `Result<T, E>` and of one-argument result
/// aliases (`pmcp::Result<T>`, `McpResult<T>`).
fn ok_type(ret: &Ty) -> &Ty {
    if let Some((ok, _)) = ret.as_result() {
        return ok;
    }
    match (ret.last_segment(), ret.args()) {
        (Some(name), [ok]) if name.ends_with("Result") && name != "CallToolResult" => ok,
        _ => ret,
    }
}

/// A type as a short text: last path segments with their arguments (`Json<Report>`).
fn ty_text(ty: &Ty) -> String {
    match ty {
        Ty::Path { path, args } => {
            let name = path.last().map(ToString::to_string).unwrap_or_default();
            if args.is_empty() {
                name
            } else {
                let args: Vec<String> = args.iter().map(ty_text).collect();
                format!("{name}<{}>", args.join(", "))
            }
        }
        Ty::Tuple(items) => {
            let items: Vec<String> = items.iter().map(ty_text).collect();
            format!("({})", items.join(", "))
        }
        Ty::Traits(traits) => format!("impl {}", traits.join(" + ")),
        Ty::Other => "_".to_string(),
    }
}

/// Every failure path of handler `r.handler`.
pub fn failures(cx: &Cx<'_>, r: &HandlerReach) -> Vec<Failure> {
    let mut out = Vec::new();
    let h = r.handler;
    if cx.runs_tools(h) {
        super::results::unknown_tool_results(cx, r, &mut out);
        paths::success_failures(cx, r, &mut out);
        paths::protocol_failures(cx, r, &mut out);
        paths::own_error_objects(cx, r, &mut out);
    } else {
        paths::request_errors(cx, r, &mut out);
    }
    super::results::error_exits(cx, r, &mut out);
    super::results::error_results(cx, r, &mut out);
    super::panics::panics(cx, r, &mut out);
    // One path per place and answer: an exit that may answer with two codes has two.
    let mut seen: HashSet<(Wire, Origin, Option<i64>)> = HashSet::new();
    out.retain(|f| seen.insert((f.channel, f.origin.clone(), f.code)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_arguments() {
        assert_eq!(
            name_argument(r#"name = "read_note", description = "Read""#).as_deref(),
            Some("read_note")
        );
        assert_eq!(
            name_argument(r#"description = "the name = \"x\" of it""#),
            None
        );
        assert_eq!(
            name_argument(r#"description = "d", name="n""#).as_deref(),
            Some("n")
        );
        assert_eq!(name_argument(r#"filename = "f""#), None);
        assert_eq!(name_argument(r#"meta(name = "inner")"#), None);
    }
}
