//! A readable dump of the analysis, for debugging and tests: per fn, its role, resolved
//! calls, error exits, returned values, failures put into success results and summary.
//! `MCP_LINT_DUMP=summaries` prints it on stderr; when a real server is missed, it shows at
//! which step the trail was lost.

use std::fmt::Write;

use super::Analysis;
use super::handlers::Handlers;
use super::program::{FnId, Site};
use super::value::{Fact, Origin, Part, Val};
use crate::source::SourceMap;

/// The dump of every fn of the package (not of linked members).
pub fn dump(a: &Analysis<'_>, handlers: &Handlers, sources: &SourceMap) -> String {
    let mut out = String::new();
    for f in a.program.fn_ids().filter(|&f| a.program.is_own(f)) {
        dump_fn(&mut out, a, handlers, sources, f);
    }
    out
}

fn loc(a: &Analysis<'_>, sources: &SourceMap, site: Site) -> String {
    let span = a.program.site_span(site);
    let file = sources.get(span.file);
    let (line, col) = file.line_col(span.start);
    format!("{}:{line}:{col}", file.display)
}

fn fn_label(a: &Analysis<'_>, f: FnId) -> String {
    let def = a.program.def(f);
    match &def.owner {
        Some(o) => format!("{o}::{}", def.name),
        None => def.name.to_string(),
    }
}

fn origin(a: &Analysis<'_>, sources: &SourceMap, o: &Origin) -> String {
    let part = match o.part {
        Part::Plain => "",
        Part::Ok => "Ok:",
        Part::Err => "Err:",
        Part::OkErr => "OkErr:",
    };
    let fact = match o.fact {
        Fact::Protocol(p) => format!(
            "Protocol({:?}{}{})",
            p.ctor,
            p.code.map_or(String::new(), |c| format!(" {c}")),
            if p.unknown_tool { " unknown-tool" } else { "" }
        ),
        other => format!("{other:?}"),
    };
    let via = o
        .via
        .map_or(String::new(), |v| format!(" via {}", loc(a, sources, v)));
    format!("{part}{fact} @{}{via}", loc(a, sources, o.site))
}

fn val(a: &Analysis<'_>, sources: &SourceMap, v: &Val) -> String {
    let items: Vec<String> = v.iter().map(|o| origin(a, sources, o)).collect();
    format!("{{{}}}", items.join(", "))
}

fn dump_fn(out: &mut String, a: &Analysis<'_>, h: &Handlers, sources: &SourceMap, f: FnId) {
    let def = a.program.def(f);
    let at = loc(
        a,
        sources,
        Site {
            func: f,
            expr: def.body.root.unwrap_or(0),
        },
    );
    let _ = writeln!(
        out,
        "fn {} [{:?} {:?}] {at}",
        fn_label(a, f),
        h.role(f),
        h.channels[f as usize]
    );
    for call in &a.resolved[f as usize].calls {
        if call.targets.is_empty() {
            continue;
        }
        let targets: Vec<String> = call.targets.iter().map(|&t| fn_label(a, t)).collect();
        let _ = writeln!(
            out,
            "  call {} {:?}{} -> {}",
            loc(
                a,
                sources,
                Site {
                    func: f,
                    expr: call.expr
                }
            ),
            call.kind,
            if call.may { " (may)" } else { "" },
            targets.join(", ")
        );
    }
    let facts = &a.facts[f as usize];
    for e in &facts.exits {
        let _ = writeln!(
            out,
            "  exit {:?} {} err={}",
            e.kind,
            loc(
                a,
                sources,
                Site {
                    func: f,
                    expr: e.at
                }
            ),
            val(a, sources, &e.err)
        );
    }
    for r in &facts.returns {
        if !r.val.is_empty() {
            let _ = writeln!(
                out,
                "  return {} {}",
                loc(
                    a,
                    sources,
                    Site {
                        func: f,
                        expr: r.at
                    }
                ),
                val(a, sources, &r.val)
            );
        }
    }
    for sf in &facts.success_failures {
        let _ = writeln!(
            out,
            "  success-with-failure {} why={}",
            loc(a, sources, sf.at),
            origin(a, sources, &sf.why)
        );
    }
    let s = &a.summaries[f as usize];
    let _ = writeln!(
        out,
        "  summary ret={} sinks={:?} index={}",
        val(a, sources, &s.ret),
        s.sinks,
        s.index.len()
    );
}
