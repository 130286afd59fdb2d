//! Macros → IR. Arguments are parsed where they are expressions: the format string and its
//! arguments of the `format!` family (std, `anyhow`, `tracing`, `log`), `json!` values,
//! `vec!` elements, `matches!` patterns, and for any other macro whatever parses: comma- or
//! arrow-separated expressions, `name = value` fields, brace-delimited blocks.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use smol_str::ToSmolStr;

use super::ir::*;
use super::lower_expr::BodyCx;
use super::span::{delim_end, delim_sp, sp, sp_end, sp_start};

mod tokens;

use tokens::*;

/// Macros whose first argument is the format string.
const FORMAT_FIRST: &[&str] = &[
    "format",
    "format_args",
    "print",
    "println",
    "eprint",
    "eprintln",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "anyhow",
    "bail",
    "eyre",
    "format_err",
];

/// Macros with leading arguments before the format string: how many.
const FORMAT_AFTER: &[(&str, usize)] = &[
    ("write", 1),
    ("writeln", 1),
    ("assert", 1),
    ("debug_assert", 1),
    ("ensure", 1),
    ("assert_eq", 2),
    ("assert_ne", 2),
    ("debug_assert_eq", 2),
    ("debug_assert_ne", 2),
];

/// Logging macros (`tracing`, `log`): fields first, then the format string.
const LOG_MACROS: &[&str] = &["error", "warn", "info", "debug", "trace", "event", "log"];

/// Parsed placeholders of a format string: (argument, debug).
enum ArgRef {
    Next,
    Index(usize),
    Name(Name),
}

fn placeholders(template: &str) -> Vec<(ArgRef, bool)> {
    let mut out = Vec::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '{' => {
                let mut inner = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inner.push(c);
                }
                let (arg, spec) = inner.split_once(':').unwrap_or((&inner, ""));
                let arg = arg.trim();
                let r = if arg.is_empty() {
                    ArgRef::Next
                } else if let Ok(i) = arg.parse::<usize>() {
                    ArgRef::Index(i)
                } else {
                    ArgRef::Name(arg.to_smolstr())
                };
                out.push((r, spec.ends_with('?')));
            }
            _ => {}
        }
    }
    out
}

impl BodyCx<'_, '_> {
    /// Lowers tokens as one expression, when they are one.
    fn chunk_expr(&mut self, chunk: &[TokenTree]) -> Option<ExprId> {
        if chunk.is_empty() {
            return None;
        }
        if let [TokenTree::Group(g)] = chunk
            && g.delimiter() == Delimiter::Brace
        {
            let span = delim_sp(&g.delim_span());
            return syn::parse::Parser::parse2(syn::Block::parse_within, g.stream())
                .ok()
                .map(|stmts| self.foreign_block(&stmts, span));
        }
        let expr: syn::Expr = match chunk {
            // Most format arguments are one name or one literal: no parser needed.
            [TokenTree::Ident(name)] if !is_keyword(name) => syn::Expr::Path(syn::ExprPath {
                attrs: Vec::new(),
                qself: None,
                path: syn::Path::from(name.clone()),
            }),
            [TokenTree::Literal(l)] => syn::Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::Lit::new(l.clone()),
            }),
            _ => syn::parse2(stream(chunk)).ok()?,
        };
        Some(self.foreign_expr(&expr))
    }

    /// A format string and its arguments from the chunks that follow it.
    fn format(&mut self, template: (String, Sp), rest: &[Vec<TokenTree>]) -> Format {
        let mut positional = Vec::new();
        let mut names: Vec<(Name, ExprId)> = Vec::new();
        for chunk in rest {
            let (name, value) = named(chunk);
            if let Some(id) = self.chunk_expr(value) {
                match name {
                    Some(n) => names.push((n, id)),
                    None => positional.push(id),
                }
            }
        }
        let (text, span) = template;
        // By name and by id, not by search: a call may have tens of thousands of arguments.
        let mut by_name: foldhash::HashMap<&str, ExprId> = foldhash::HashMap::default();
        for (n, id) in &names {
            by_name.entry(n.as_str()).or_insert(*id);
        }
        let mut next = 0;
        let mut placeholders_out = Vec::new();
        for (r, debug) in placeholders(&text) {
            let (arg, name) = match r {
                ArgRef::Next => {
                    next += 1;
                    (positional.get(next - 1).copied(), None)
                }
                ArgRef::Index(i) => (positional.get(i).copied(), None),
                ArgRef::Name(n) => {
                    let arg = by_name.get(n.as_str()).copied().or_else(|| {
                        // An inline capture (`{e}`) reads a local in scope.
                        self.lookup(&n)
                            .map(|local| self.push(ExprKind::Local(local), span))
                    });
                    (arg, Some(n))
                }
            };
            placeholders_out.push(Placeholder { arg, debug, name });
        }
        let mut args = positional;
        args.extend(names.iter().map(|(_, id)| *id));
        let mut in_args: foldhash::HashSet<ExprId> = args.iter().copied().collect();
        for p in &placeholders_out {
            if let Some(a) = p.arg
                && in_args.insert(a)
            {
                args.push(a);
            }
        }
        Format {
            template: text,
            template_span: span,
            args,
            placeholders: placeholders_out,
        }
    }

    pub fn macro_call(&mut self, mac: &syn::Macro) -> ExprId {
        let path = super::resolve::segments(&mac.path);
        let name = path.last().cloned().unwrap_or_default();
        let name_span = mac
            .path
            .segments
            .last()
            .map_or_else(Sp::default, |s| sp(s.ident.span()));
        let span = name_span.to(delim_end(mac.delimiter.span()));
        let mut call = MacroCall {
            path,
            name: name.clone(),
            name_span,
            args: Vec::new(),
            format: None,
            json: None,
            pat: None,
            repeat: false,
            calls: Vec::new(),
        };
        if call.path.len() == 1
            && let Some(id) = self.expansion(&name, mac, span)
        {
            return id;
        }
        let chunks = || split(mac.tokens.clone(), false);
        match name.as_str() {
            "json" => call.json = Some(self.json(mac.tokens.clone())),
            "select" | "select_biased" => match self.select_branches(mac.tokens.clone()) {
                Some(branches) => call.args = branches,
                None => self.unknown_macro(mac.tokens.clone(), &mut call),
            },
            "matches" => {
                let parts = chunks();
                if let Some(first) = parts.first() {
                    call.args.extend(self.chunk_expr(first));
                }
                if let Some(second) = parts.get(1)
                    && let Ok(pat) =
                        syn::parse::Parser::parse2(syn::Pat::parse_multi, stream(second))
                {
                    call.pat = Some(self.foreign_pat(&pat));
                }
            }
            "vec" => {
                // `vec![x; n]` or `vec![a, b, ..]`.
                let tokens: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
                let parts: Vec<Vec<TokenTree>> = match tokens
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                {
                    Some(at) => {
                        call.repeat = true;
                        vec![tokens[..at].to_vec(), tokens[at + 1..].to_vec()]
                    }
                    None => chunks(),
                };
                for part in &parts {
                    call.args.extend(self.chunk_expr(part));
                }
            }
            n if FORMAT_FIRST.contains(&n) => {
                let parts = chunks();
                match parts.first().and_then(|c| string_literal(c)) {
                    Some(t) => call.format = Some(self.format(t, &parts[1..])),
                    None => {
                        for part in &parts {
                            call.args.extend(self.chunk_expr(part));
                        }
                    }
                }
            }
            n if FORMAT_AFTER.iter().any(|(m, _)| *m == n) => {
                let lead = FORMAT_AFTER
                    .iter()
                    .find(|(m, _)| *m == n)
                    .map_or(0, |(_, k)| *k);
                let parts = chunks();
                for part in parts.iter().take(lead) {
                    call.args.extend(self.chunk_expr(part));
                }
                if let Some(t) = parts.get(lead).and_then(|c| string_literal(c)) {
                    call.format = Some(self.format(t, &parts[lead + 1..]));
                }
            }
            n if LOG_MACROS.contains(&n) => {
                let parts = chunks();
                let at = parts.iter().position(|c| is_string_literal(c));
                let fields = at.unwrap_or(parts.len());
                for part in &parts[..fields] {
                    // `target: "x"`, `parent: &span`, `Level::INFO` need no lowering.
                    let (_, value) = named(part);
                    if !value.iter().any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Alone)) {
                        call.args.extend(self.chunk_expr(value));
                    }
                }
                if let Some(at) = at
                    && let Some(t) = string_literal(&parts[at])
                {
                    call.format = Some(self.format(t, &parts[at + 1..]));
                }
            }
            _ => self.unknown_macro(mac.tokens.clone(), &mut call),
        }
        self.push(ExprKind::Macro(Box::new(call)), span)
    }

    /// Arguments of a macro we do not know: expressions where they parse.
    fn unknown_macro(&mut self, tokens: TokenStream, call: &mut MacroCall) {
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = syn::parse::Parser::parse2(parser, tokens.clone()) {
            for arg in &args {
                call.args.push(self.foreign_expr(arg));
            }
            return;
        }
        for part in split(tokens, true) {
            let (_, value) = named(&part);
            match self.chunk_expr(value) {
                Some(id) => call.args.push(id),
                None => {
                    // `res = fut` in `select!`: the value after the first lone `=`.
                    let eq = value.iter().position(|t| {
                        matches!(t, TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == Spacing::Alone)
                    });
                    match eq.and_then(|at| self.chunk_expr(&value[at + 1..])) {
                        Some(id) => call.args.push(id),
                        None => called_names(&part, &mut call.calls),
                    }
                }
            }
        }
    }

    /// A call of the file's own `macro_rules!` lowered as its expansion: an expression, or
    /// statements (`{{ .. }}` transcribers are a block).
    fn expansion(&mut self, name: &str, mac: &syn::Macro, span: Sp) -> Option<ExprId> {
        if self.expanding >= super::expand::MAX_NESTED {
            return None;
        }
        let tokens = self.macros.expand(name, mac.tokens.clone())?;
        self.expanding += 1;
        let id = match syn::parse2::<syn::Expr>(tokens.clone()) {
            Ok(e) => Some(self.foreign_expr(&e)),
            Err(_) => syn::parse::Parser::parse2(syn::Block::parse_within, tokens)
                .ok()
                .map(|stmts| self.foreign_block(&stmts, span)),
        };
        self.expanding -= 1;
        id
    }

    /// A `json!` value.
    pub fn json(&mut self, tokens: TokenStream) -> Json {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        self.json_value(&tokens)
    }

    fn json_value(&mut self, tokens: &[TokenTree]) -> Json {
        match tokens {
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
                let mut members = Vec::new();
                for member in split(g.stream(), false) {
                    let Some(colon) = member.iter().enumerate().position(|(i, t)| {
                        matches!(t, TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Alone)
                            && !matches!(i.checked_sub(1).and_then(|j| member.get(j)), Some(TokenTree::Punct(q)) if q.as_char() == ':')
                    }) else {
                        continue;
                    };
                    let key_tokens = &member[..colon];
                    let (key, key_span) = match key_tokens {
                        [t] => match string_literal(key_tokens) {
                            Some((k, s)) => (Name::from(k), s),
                            None => (t.to_smolstr(), sp(t.span())),
                        },
                        _ => (
                            stream(key_tokens).to_smolstr(),
                            key_tokens
                                .first()
                                .map_or_else(Sp::default, |t| sp(t.span())),
                        ),
                    };
                    let value_tokens = &member[colon + 1..];
                    let value_span = match (value_tokens.first(), value_tokens.last()) {
                        (Some(a), Some(b)) => sp_start(a.span()).to(sp_end(b.span())),
                        _ => Sp::default(),
                    };
                    let value = self.json_value(value_tokens);
                    members.push(JsonMember {
                        key,
                        key_span,
                        value,
                        value_span,
                    });
                }
                Json::Object(members)
            }
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => Json::Array(
                split(g.stream(), false)
                    .iter()
                    .map(|item| self.json_value(item))
                    .collect(),
            ),
            [TokenTree::Ident(i)] if i == "null" => Json::Null,
            [TokenTree::Ident(i)] if i == "true" || i == "false" => {
                Json::Lit(Lit::Bool(i == "true"), sp(i.span()))
            }
            [TokenTree::Literal(l)] => match syn::Lit::new(l.clone()) {
                syn::Lit::Str(s) => Json::Lit(Lit::Str(s.value().into_boxed_str()), sp(l.span())),
                syn::Lit::Int(i) => Json::Lit(
                    i.base10_parse::<i64>().map_or(Lit::Other, Lit::Int),
                    sp(l.span()),
                ),
                _ => Json::Lit(Lit::Other, sp(l.span())),
            },
            [TokenTree::Punct(minus), TokenTree::Literal(l)] if minus.as_char() == '-' => {
                let value = l
                    .to_smolstr()
                    .parse::<i64>()
                    .map_or(Lit::Other, |v| Lit::Int(-v));
                Json::Lit(value, sp_start(minus.span()).to(sp_end(l.span())))
            }
            _ => match self.chunk_expr(tokens) {
                Some(id) => Json::Expr(id),
                None => Json::Null,
            },
        }
    }
}

/// Names that look called in unparsed tokens: `name(..)`, `path::name(..)`, `.name(..)`.
fn called_names(tokens: &[TokenTree], out: &mut Vec<Name>) {
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Ident(name) if matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis) =>
            {
                out.push(name.to_smolstr());
            }
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                called_names(&inner, out);
            }
            _ => {}
        }
    }
}

/// What a crate `macro_rules!` may call when expanded: names followed by `(..)`, with their
/// leading path (`helper(..)`, `Self::f(..)`), and methods (`.name(..)`).
pub fn macro_rules(name: Name, module: &[Name], tokens: TokenStream) -> MacroRulesDef {
    let mut def = MacroRulesDef {
        name,
        module: module.to_vec(),
        calls: Vec::new(),
        method_calls: Vec::new(),
    };
    let mut stack: Vec<Vec<TokenTree>> = vec![tokens.into_iter().collect()];
    while let Some(tokens) = stack.pop() {
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(ident) if matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis) =>
                {
                    let method = matches!(i.checked_sub(1).and_then(|j| tokens.get(j)),
                        Some(TokenTree::Punct(p)) if p.as_char() == '.');
                    if method {
                        def.method_calls.push(ident.to_smolstr());
                        continue;
                    }
                    let mut path = vec![ident.to_smolstr()];
                    let mut j = i;
                    while j >= 3 {
                        match (&tokens[j - 1], &tokens[j - 2], &tokens[j - 3]) {
                            (TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(seg))
                                if a.as_char() == ':' && b.as_char() == ':' =>
                            {
                                path.insert(0, seg.to_smolstr());
                                j -= 3;
                            }
                            _ => break,
                        }
                    }
                    def.calls.push(path);
                }
                TokenTree::Group(g) => stack.push(g.stream().into_iter().collect()),
                _ => {}
            }
        }
    }
    def
}
