//! Patterns → IR: each binding becomes a local of the current scope.

use super::*;
use smol_str::ToSmolStr;

impl<'s> BodyCx<'_, 's> {
    /// Lowers a pattern parsed out of macro tokens (`matches!(x, P)`).
    pub fn foreign_pat(&mut self, p: &syn::Pat) -> PatId {
        self.with_foreign(|sub| {
            sub.open();
            let id = sub.pat(p);
            sub.close();
            id
        })
    }

    pub fn pat(&mut self, p: &syn::Pat) -> PatId {
        if self.depth >= MAX_DEPTH {
            self.incomplete.push(Incomplete {
                span: Sp::default(),
                reason: format!("patterns nest deeper than {MAX_DEPTH} levels"),
            });
            return self.push_pat(PatKind::Opaque, Sp::default());
        }
        self.depth += 1;
        let id = stacker::maybe_grow(RED_ZONE, GROW_BY, || self.pat_inner(p));
        self.depth -= 1;
        id
    }

    pub(super) fn pats<'p>(&mut self, ps: impl IntoIterator<Item = &'p syn::Pat>) -> Vec<PatId> {
        ps.into_iter().map(|p| self.pat(p)).collect()
    }

    pub(super) fn pat_inner(&mut self, p: &syn::Pat) -> PatId {
        use syn::Pat as P;
        match p {
            P::Ident(i) => {
                let span = sp(i.ident.span());
                let name = i.ident.to_smolstr();
                let constant_like = i.subpat.is_none()
                    && i.by_ref.is_none()
                    && i.mutability.is_none()
                    && name.chars().next().is_some_and(char::is_uppercase);
                if constant_like {
                    return self
                        .push_pat(PatKind::Path(crate::model::intern::path(vec![name])), span);
                }
                let sub = i.subpat.as_ref().map(|(_, s)| self.pat(s));
                let local = self.bind(name, span);
                self.push_pat(PatKind::Bind { local, sub }, span)
            }
            P::Lit(l) => self.push_pat(PatKind::Lit(lit_of(&l.lit)), sp(l.lit.span())),
            P::Or(o) => {
                let mut cases = Vec::new();
                let before = self.scope.len();
                for (i, case) in o.cases.iter().enumerate() {
                    cases.push(self.pat(case));
                    if i == 0 {
                        self.or_bindings = Some(self.scope.since(before));
                    }
                }
                self.or_bindings = None;
                let span = cases
                    .first()
                    .map(|&c| self.body.pat(c).span)
                    .unwrap_or_default();
                self.push_pat(PatKind::Or(cases), span)
            }
            P::Paren(p) => self.pat(&p.pat),
            P::Range(_) => self.push_pat(PatKind::Range, Sp::default()),
            P::Reference(r) => {
                let inner = self.pat(&r.pat);
                let span = sp_start(r.and_token.span).to(self.body.pat(inner).span);
                self.push_pat(PatKind::Ref(inner), span)
            }
            P::Rest(r) => self.push_pat(PatKind::Rest, sp(r.dot2_token.spans[0])),
            P::Slice(s) => {
                let elems = self.pats(&s.elems);
                self.push_pat(PatKind::Slice(elems), delim_sp(&s.bracket_token.span))
            }
            P::Struct(s) => {
                let path = segments(&s.path);
                let mut fields = Vec::new();
                for f in &s.fields {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_smolstr(),
                        syn::Member::Unnamed(i) => i.index.to_smolstr(),
                    };
                    fields.push((name, self.pat(&f.pat)));
                }
                let span = path_sp(&s.path).to(delim_end(&s.brace_token.span));
                self.push_pat(PatKind::Struct { path, fields }, span)
            }
            P::Tuple(t) => {
                let elems = self.pats(&t.elems);
                self.push_pat(PatKind::Tuple(elems), delim_sp(&t.paren_token.span))
            }
            P::TupleStruct(t) => {
                let path = segments(&t.path);
                let elems = self.pats(&t.elems);
                let span = path_sp(&t.path).to(delim_end(&t.paren_token.span));
                self.push_pat(PatKind::TupleStruct { path, elems }, span)
            }
            P::Type(t) => {
                let inner = self.pat(&t.pat);
                let ty = self.imports.ty(&t.ty);
                let span = self.body.pat(inner).span;
                self.push_pat(PatKind::Typed { pat: inner, ty }, span)
            }
            P::Wild(w) => self.push_pat(PatKind::Wild, sp(w.underscore_token.span)),
            P::Path(p) => {
                let span = path_sp(&p.path);
                self.push_pat(PatKind::Path(segments(&p.path)), span)
            }
            _ => self.push_pat(PatKind::Opaque, Sp::default()),
        }
    }
}
