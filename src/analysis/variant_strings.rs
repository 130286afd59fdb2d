//! The strings a crate's own code maps its enum variants to and from: the arms of a parse
//! (`"tools/call" => Method::ToolsCall`, `"read" => Ok(Self::Read)`, an `if s == ".." {
//! Method::ToolsCall }` chain, a string constant as the pattern) and of a printer
//! (`Method::ToolsCall => "tools/call"`). A pattern naming such a variant tests for that
//! string, whatever the enum is called: `match Method::parse(m) { Method::ToolsCall => .. }`
//! answers `tools/call` as `match m { "tools/call" => .. }` does. A parse of a parse (a
//! variant mapped from another variant) carries the string on.

use foldhash::{HashMap, HashMapExt};

use super::program::Program;
use super::types::TypeTable;
use crate::model::ir::{Body, ExprId, ExprKind, Name, PatKind};

/// Per variant name: each (enum, string) the crate maps that variant of that enum to or from.
pub(super) type VariantStrings<'a> = HashMap<&'a str, Vec<(&'a str, &'a str)>>;

/// Passes over the crate: each carries strings one parse further.
const PASSES: usize = 3;

/// `types` knows the crate's string constants; its own variant strings are the previous
/// pass's.
pub(super) fn variant_strings<'a>(program: &Program<'a>, types: &mut TypeTable<'a>) {
    for _ in 0..PASSES {
        let mut out: VariantStrings<'a> = HashMap::new();
        for f in program.fn_ids() {
            collect(program, types, f, &mut out);
        }
        let grew = out.values().map(Vec::len).sum::<usize>()
            > types.variant_strs().values().map(Vec::len).sum::<usize>();
        types.set_variant_strs(out);
        if !grew {
            break;
        }
    }
}

fn collect<'a>(
    program: &Program<'a>,
    types: &TypeTable<'a>,
    f: super::program::FnId,
    out: &mut VariantStrings<'a>,
) {
    let def = program.def(f);
    let body: &'a Body = &def.body;
    // `Self::Read` names a variant of the type the impl is for.
    let owner = def.owner.as_deref();
    let named = |p: &'a [Name]| -> Option<(&'a str, &'a str)> {
        let [.., e, v] = p else { return None };
        let e = if e == "Self" { owner? } else { e.as_str() };
        Some((e, v.as_str()))
    };
    let mut add = |(ty, variant): (&'a str, &'a str), s: &'a str| {
        let strings = out.entry(variant).or_default();
        if !strings.contains(&(ty, s)) {
            strings.push((ty, s));
        }
    };
    for e in &body.exprs {
        match &e.kind {
            ExprKind::Match { arms, .. } => {
                for arm in arms {
                    let tested = super::strings::pattern_str(types, body, arm.pat);
                    match (tested, variant_made(body, arm.body)) {
                        (Some(s), Some(p)) => {
                            if let Some(v) = named(p) {
                                add(v, s);
                            }
                        }
                        (None, None) => {
                            if let PatKind::Path(p) = &body.pat(arm.pat).kind
                                && let Some(v) = named(p)
                                && let Some(s) = body.str_lit(body.value_of(arm.body))
                            {
                                add(v, s);
                            }
                        }
                        _ => {}
                    }
                }
            }
            ExprKind::If { cond, then, .. } => {
                if let Some((_, s)) = super::strings::equality(types, body, *cond)
                    && let Some(v) = variant_made(body, *then).and_then(named)
                {
                    add(v, s);
                }
            }
            _ => {}
        }
    }
}

/// The path of the unit variant an arm's value is, bare or in `Ok(..)`/`Some(..)`:
/// `Method::ToolsCall`.
pub(crate) fn variant_made(body: &Body, e: ExprId) -> Option<&[Name]> {
    let value = body.value_of(e);
    match &body.expr(value).kind {
        ExprKind::Path(p) if p.len() >= 2 => Some(p),
        ExprKind::Call { func, args } if args.len() == 1 => {
            let wraps = matches!(&body.expr(*func).kind, ExprKind::Path(p)
                if p.len() == 1 && p.last().is_some_and(|l| l == "Ok" || l == "Some"));
            if !wraps {
                return None;
            }
            match &body.expr(body.value_of(args[0])).kind {
                ExprKind::Path(p) if p.len() >= 2 => Some(p),
                _ => None,
            }
        }
        _ => None,
    }
}
