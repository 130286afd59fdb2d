//! `tokio::select!` (and `futures::select!`) → IR: each branch `PAT = FUTURE (, if GUARD)? =>
//! HANDLER` becomes the block `{ GUARD; let PAT = FUTURE; HANDLER }`, so the value the future
//! gives flows into the pattern and the handler as with any `let`; the macro's value is the
//! join of its handlers'.

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, Pat, Token};

use super::ir::*;
use super::lower_expr::BodyCx;
use super::span::sp;

struct Branch {
    /// `None` for the `else => ..` branch.
    bind: Option<(Pat, Expr)>,
    guard: Option<Expr>,
    handler: Expr,
}

fn branches(input: ParseStream) -> syn::Result<Vec<Branch>> {
    let mut out = Vec::new();
    if input.peek(syn::Ident) && input.fork().parse::<syn::Ident>()? == "biased" {
        input.parse::<syn::Ident>()?;
        input.parse::<Token![;]>()?;
    }
    while !input.is_empty() {
        let bind = if input.peek(Token![else]) {
            input.parse::<Token![else]>()?;
            None
        } else {
            let pat = Pat::parse_single(input)?;
            input.parse::<Token![=]>()?;
            Some((pat, input.parse::<Expr>()?))
        };
        let guard = if input.peek(Token![,]) && input.peek2(Token![if]) {
            input.parse::<Token![,]>()?;
            input.parse::<Token![if]>()?;
            Some(input.parse::<Expr>()?)
        } else {
            None
        };
        input.parse::<Token![=>]>()?;
        let handler = input.parse::<Expr>()?;
        out.push(Branch {
            bind,
            guard,
            handler,
        });
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(out)
}

impl BodyCx<'_, '_> {
    /// The branches of a `select!` as blocks, or `None` when the tokens are not one.
    pub fn select_branches(&mut self, tokens: TokenStream) -> Option<Vec<ExprId>> {
        let parsed = branches.parse2(tokens).ok()?;
        let mut out = Vec::with_capacity(parsed.len());
        for b in parsed {
            let span = span_of(&b);
            let guard = b.guard.iter();
            let handler = &b.handler;
            let block = match &b.bind {
                Some((pat, future)) => quote!(#(#guard;)* let #pat = #future; #handler),
                None => quote!(#(#guard;)* #handler),
            };
            let stmts = syn::Block::parse_within.parse2(block).ok()?;
            out.push(self.foreign_block(&stmts, span));
        }
        Some(out)
    }
}

/// From the branch's first token to its handler's last.
fn span_of(b: &Branch) -> Sp {
    let first = match &b.bind {
        Some((pat, _)) => syn::spanned::Spanned::span(pat),
        None => syn::spanned::Spanned::span(&b.handler),
    };
    sp(first).to(sp(syn::spanned::Spanned::span(&b.handler)))
}
