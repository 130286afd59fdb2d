//! A fn's exits once its body is walked: the errors converted where they leave a fn whose
//! error type is the protocol error, and the summary its callers read.

use super::*;

impl Flow<'_, '_> {
    /// In a fn whose error type is the SDK's protocol error, every other error is converted
    /// where it leaves (`?` through a `From` impl): that exit makes the protocol error.
    pub(super) fn convert_exits(&mut self) {
        let Some(sdk) = self.env.sdk else { return };
        let ret = self.env.types.ret(self.func);
        let protocol = ret
            .as_result()
            .is_some_and(|(_, err)| sdk.is_protocol_error_type(err));
        if !protocol {
            return;
        }
        let func = self.func;
        let returned = self.facts.returned_async.clone();
        // An error of known variants becomes the protocol error through the crate's `From`
        // impl that picks by variant, whether `?` or `.into()` converts it.
        let by_variant: Vec<Option<Val>> = self
            .facts
            .exits
            .iter()
            .map(|exit| {
                (exit.owner.is_none() && exit.question.is_none())
                    .then(|| self.converted_by_variant(&exit.err, exit.at))
                    .flatten()
            })
            .collect();
        for (exit, converted) in self.facts.exits.iter_mut().zip(by_variant) {
            if !exit.owner.is_none_or(|c| returned.contains(&c)) {
                continue;
            }
            if let Some(converted) = converted {
                exit.err = converted;
                continue;
            }
            let foreign = exit
                .err
                .any(|o| !matches!(o.fact, Fact::Protocol(_) | Fact::Param(_) | Fact::Returned));
            if !foreign {
                continue;
            }
            let at = exit.err.iter().find_map(|o| o.wrap).unwrap_or(exit.at);
            let unknown_tool = exit.err.any(|o| {
                matches!(
                    o.fact,
                    Fact::Foreign {
                        unknown_tool: true,
                        ..
                    }
                )
            });
            exit.err
                .retain(|o| matches!(o.fact, Fact::Protocol(_) | Fact::Param(_) | Fact::Returned));
            exit.err.push(Origin {
                fact: Fact::Protocol(Protocol {
                    ctor: crate::sdk::ErrorCtor::Other,
                    code: None,
                    deserialize_prefix: false,
                    unknown_tool,
                    sdk_parse: false,
                }),
                part: Part::Plain,
                site: Site { func, expr: at },
                via: None,
                wrap: None,
                local: None,
            });
        }
    }

    /// A char boundary of a string parameter, returned, is one of whatever string a caller
    /// passes there; a boundary of the fn's own strings is no position in the caller's.
    fn boundaries_of_params(&self, ret: &mut Val) {
        let body = self.body;
        let param_of = |of: u32| {
            self.def.params.iter().position(|p| {
                matches!(body.pat(p.pat).kind, PatKind::Bind { local, sub: None }
                    if crate::analysis::text::name_hash(&body.local(local).name) == of)
            })
        };
        for o in &mut ret.0 {
            if let Fact::Boundary {
                of,
                ascii_after,
                length,
            } = o.fact
                && o.site.func == self.func
                && let Some(param) = param_of(of).and_then(|k| u16::try_from(k).ok())
            {
                o.fact = Fact::ParamBoundary {
                    param,
                    ascii_after,
                    length,
                };
            } else if let Fact::Boundary { .. } = o.fact {
                o.fact = Fact::ForeignOffset;
            }
        }
    }

    pub(super) fn summary(&self, params: usize) -> Summary {
        let mut ret = self.ret.clone();
        // Exits of async blocks the fn returns are the fn's.
        for e in &self.facts.exits {
            if e.owner
                .is_none_or(|c| self.facts.returned_async.contains(&c))
            {
                ret.join(&e.err.tagged(Part::Err));
            }
        }
        for r in &self.facts.returns {
            if r.owner
                .is_some_and(|c| self.facts.returned_async.contains(&c))
            {
                ret.join(&r.val);
            }
        }
        // The mark of an error bound from a crate call whose errors are known variants adds
        // nothing to them for a caller, which no longer sees the call.
        let err = ret.part(Part::Err);
        ret.retain(|o| {
            !(o.part == Part::Err && o.fact == Fact::ErrValue && self.wraps_a_variant(&err, o))
        });
        // Call provenance is this fn's own business.
        ret.retain(|o| o.fact != Fact::Returned);
        self.boundaries_of_params(&mut ret);
        let mut sinks = self.sinks.clone();
        sinks.resize(params, 0);
        Summary {
            ret,
            sinks,
            index: self.index.clone(),
            success_sinks: self.success_sinks.clone(),
            by_variant: self.by_variant.clone(),
            name_parses: self.name_parses.clone(),
            finds_char_boundaries: self.finds_char_boundaries(),
        }
    }
}

/// An error made in the catch-all of a selection by the tool's name is the answer to a name
/// no tool has, whatever its message says: its failures are marked so, and so is the text a
/// caller makes of them (`e.to_string()`).
pub(crate) fn as_unknown_tool(err: &Val, at: Site) -> Val {
    let mut out = Val::default();
    let mut marked = false;
    for o in err.iter() {
        let mut o = *o;
        match &mut o.fact {
            Fact::Foreign { unknown_tool, .. }
            | Fact::ErrText { unknown_tool }
            | Fact::Protocol(Protocol { unknown_tool, .. }) => {
                *unknown_tool = true;
                marked = true;
            }
            _ => {}
        }
        out.push(o);
    }
    // An error of the crate's own making (`Err(format!(..))`): it is this answer too.
    if !marked {
        out.push(Origin {
            fact: Fact::Foreign {
                about_args: false,
                unknown_tool: true,
            },
            part: Part::Plain,
            site: at,
            via: None,
            wrap: None,
            local: None,
        });
    }
    out
}
