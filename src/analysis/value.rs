//! What a value is made of: a bounded set of origins. An origin says what kind of value
//! flowed here (an error value, failure text, a protocol error with its constructor and
//! code, a successful tool result, parameter k, an integer, a stdout logger..), where it was
//! made, whether it is the value itself or the `Ok`/`Err` payload of a `Result`, and, when it
//! came out of a call, through which call of the current fn.

use super::program::Site;
use crate::model::ir::{ExprId, LocalId};
use crate::sdk::ErrorCtor;

/// At most this many origins are tracked per value with all their places; past it, an origin
/// is kept only when it brings a kind of value (a fact on a part) the value does not hold yet.
pub const MAX_ORIGINS: usize = 256;

/// Room past [`MAX_ORIGINS`] for kinds not held yet: a value made of many like origins (a
/// `match` of sixty tools, each with its own error sites) still carries the one unlike origin
/// its last arm adds (the catch-all's unknown-tool error), while hostile input still meets
/// a bound.
const MAX_NEW_KINDS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The value itself.
    Plain,
    /// The success payload of a `Result` (or the `Some` of an `Option`).
    Ok,
    /// The error payload of a `Result`.
    Err,
    /// The error payload of a `Result` inside the `Ok` of another: what a task returned,
    /// as awaiting its `JoinHandle` gives it (`Ok(Err(e))`).
    OkErr,
}

/// A protocol error the SDK sends as a JSON-RPC error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Protocol {
    pub ctor: ErrorCtor,
    pub code: Option<i32>,
    /// The message starts with rmcp's `failed to deserialize parameters:` prefix.
    pub deserialize_prefix: bool,
    /// The message says the tool (or method) does not exist.
    pub unknown_tool: bool,
    /// The SDK's own argument parsing (`parse_json_object`).
    pub sdk_parse: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The value of parameter k (the receiver not counted).
    Param(u16),
    /// An error value bound from `Err(e)`, a `map_err` closure, `unwrap_or_else`, ...
    ErrValue,
    /// Text that announces a failure ("Error: ..", "Failed to ..").
    FailText,
    /// Text built from an error value (`format!("{e}")`, `e.to_string()`), with whether that
    /// error says the tool does not exist or the request itself is malformed (an answer
    /// that belongs on the protocol channel).
    ErrText {
        unknown_tool: bool,
    },
    /// A JSON object (or struct) that reports a failure: an `"error"` member, `"success":
    /// false`.
    ErrJson,
    /// An error that is not the SDK's protocol error (an `anyhow!`, an I/O error), with
    /// whether its message is about the arguments / an unknown tool.
    Foreign {
        about_args: bool,
        unknown_tool: bool,
    },
    Protocol(Protocol),
    /// A result or error the SDK sends with `isError: true`.
    ToolError,
    /// A successful tool result.
    Success,
    /// A JSON-RPC error object built by hand (`{"code": .., "message": ..}`, a struct with
    /// `code` and `message`), with its code when written as a literal.
    RpcErrorObject {
        code: Option<i32>,
        request: bool,
    },
    /// The result of a call of the current fn to crate fns (its `Err` side), so that what the
    /// caller makes of a callee's error can be traced back to the call.
    Returned,
    /// An integer constant.
    Int(i64),
    /// A `bool` constant.
    Bool(bool),
    /// A byte offset that is a char boundary of string `of` (a hash of its place, see
    /// `text::text_place_hash`) and at most its length: where a search of it found its
    /// pattern (`s.find(..)`), its length (`length`), and sums of them. `ascii_after` bytes
    /// after it are ASCII (the found pattern's, when it is an ASCII literal), so adding up to
    /// that many keeps it a boundary.
    Boundary {
        of: u32,
        ascii_after: u8,
        length: bool,
    },
    /// A char boundary of the string the fn was given as parameter `param`, as the fn's
    /// summary returns it (`fn closing(s: &str) -> Option<usize>` returning where a search of
    /// `s` found its pattern): at a call it is a `Boundary` of the argument.
    ParamBoundary {
        param: u16,
        ascii_after: u8,
        length: bool,
    },
    /// A value of one variant of a crate enum (a hash of `Enum::Variant`, see
    /// `Flow::variant_of`): a fn that `match`es on it takes that variant's arm only.
    Variant(u32),
    /// A byte offset into a string a called fn made for itself (a copy it searched, a
    /// trimmed view): it is no position in any string the caller has.
    ForeignOffset,
    /// A number this analysis does not follow (a sum with an untracked term, a compound
    /// assignment): it stops a sum from passing for a boundary or a constant.
    Untracked,
    /// A `tracing_subscriber` fmt subscriber or layer that writes to stdout; `installs` when
    /// it sets itself up (`fmt::init()`), `writer`: the `.with_writer(stdout)` or
    /// `.with_test_writer()` call when one is explicit.
    Logger {
        installs: bool,
        writer: Option<ExprId>,
    },
    /// The process's stdout handle.
    Stdout,
    /// The `Debug` form of an error value, a backtrace, a panic payload or SQL text.
    Internals(Internals),
    /// On some path this value carries no failure: it was merged (branches of an `if` or a
    /// `match`, `unwrap_or_else`, a reassigned local) from a failure and from something
    /// else. Its failures only *may* be there: a fix that turns the whole value into an
    /// error would also turn the other path's content into one.
    MayBeData,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Internals {
    DebugError,
    Backtrace,
    PanicPayload,
    Sql,
}

impl Fact {
    /// An error of another kind than a crate enum's variant: where it is present, a value's
    /// variants are not all it may be.
    pub fn is_other_error(self) -> bool {
        matches!(
            self,
            Fact::Protocol(_)
                | Fact::Foreign { .. }
                | Fact::ErrValue
                | Fact::RpcErrorObject { .. }
                | Fact::ToolError
        )
    }

    /// Failure content that must not be sent as a success.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Fact::ErrValue | Fact::FailText | Fact::ErrText { .. } | Fact::ErrJson
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    pub fact: Fact,
    pub part: Part,
    /// Where the value was made.
    pub site: Site,
    /// The first call it came out of, if it was made in a callee: the place in the
    /// outermost fn that did not make it where it entered (`err_doc(&e)` in a helper).
    pub via: Option<Site>,
    /// The `Err(..)` of the current fn that wrapped it.
    pub wrap: Option<ExprId>,
    /// The local an error value was bound to (`Err(e)`), for messages.
    pub local: Option<LocalId>,
}

/// A value's origins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Val(pub Vec<Origin>);

impl Val {
    pub fn one(fact: Fact, site: Site) -> Val {
        Val(vec![Origin {
            fact,
            part: Part::Plain,
            site,
            via: None,
            wrap: None,
            local: None,
        }])
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Origin> {
        self.0.iter()
    }

    pub fn push(&mut self, o: Origin) {
        if self.0.contains(&o) {
            return;
        }
        if self.0.len() < MAX_ORIGINS || self.admits_new_kind(&o) {
            self.0.push(o);
        }
    }

    /// Past [`MAX_ORIGINS`]: whether `o` is a kind of value (fact and part) this one lacks,
    /// while there is room for such kinds.
    fn admits_new_kind(&self, o: &Origin) -> bool {
        self.0.len() < MAX_ORIGINS + MAX_NEW_KINDS
            && !self.0.iter().any(|h| h.fact == o.fact && h.part == o.part)
    }

    pub fn join(&mut self, other: &Val) {
        // Large values are looked up in a set, so that a join stays linear in their size.
        if self.0.len().min(other.0.len()) < 16 {
            for o in &other.0 {
                self.push(*o);
            }
            return;
        }
        let mut present: std::collections::HashSet<Origin> = self.0.iter().copied().collect();
        let mut kinds: std::collections::HashSet<(Fact, Part)> =
            self.0.iter().map(|o| (o.fact, o.part)).collect();
        for o in &other.0 {
            let new_kind = !kinds.contains(&(o.fact, o.part));
            let room = self.0.len() < MAX_ORIGINS
                || (new_kind && self.0.len() < MAX_ORIGINS + MAX_NEW_KINDS);
            if room && present.insert(*o) {
                kinds.insert((o.fact, o.part));
                self.0.push(*o);
            }
        }
    }

    pub fn joined(mut self, other: &Val) -> Val {
        self.join(other);
        self
    }

    /// The value of one of two alternatives: either `self` or `other` (branches of an `if`,
    /// a `match`, a `Result` and its fallback, a local before and after an assignment).
    /// Where only one of them carries a failure on its success side, the failure only may
    /// be in the merged value, which says so.
    pub fn join_alternative(&mut self, other: &Val, at: Site) {
        // A number on one side and nothing followed on the other (`find(..).unwrap_or(n -
        // 1)` with an untracked fallback): the merged number is not known either.
        let numeric = |v: &Val| v.any(|o| matches!(o.fact, Fact::Boundary { .. } | Fact::Int(_)));
        if (self.is_empty() && numeric(other)) || (other.is_empty() && numeric(self)) {
            self.push(Origin {
                fact: Fact::Untracked,
                part: Part::Plain,
                site: at,
                via: None,
                wrap: None,
                local: None,
            });
        }
        for part in [Part::Plain, Part::Ok] {
            let fails = |v: &Val| v.any(|o| o.part == part && o.fact.is_failure());
            if fails(self) != fails(other) {
                self.push(Origin {
                    fact: Fact::MayBeData,
                    part,
                    site: at,
                    via: None,
                    wrap: None,
                    local: None,
                });
            }
        }
        self.join(other);
    }

    /// Whether the failures on the success side only may be there (see [`Fact::MayBeData`]).
    pub fn failure_is_maybe(&self) -> bool {
        self.any(|o| o.fact == Fact::MayBeData && matches!(o.part, Part::Plain | Part::Ok))
    }

    /// Origins of one part, as plain values.
    pub fn part(&self, part: Part) -> Val {
        Val(self
            .0
            .iter()
            .filter(|o| o.part == part)
            .map(|o| Origin {
                part: Part::Plain,
                ..*o
            })
            .collect())
    }

    /// The value without its `Err` part: what `?` or `unwrap` yields (the `Ok` payload, and
    /// plain origins that pass through, such as parameters).
    pub fn success(&self) -> Val {
        Val(self
            .0
            .iter()
            .filter(|o| o.part != Part::Err)
            .map(|o| Origin {
                part: if o.part == Part::OkErr {
                    Part::Err
                } else {
                    Part::Plain
                },
                ..*o
            })
            .collect())
    }

    /// What awaiting a task that returns this value gives: `Ok(value)`, whose `Err` part is
    /// nested in the `Ok`.
    pub fn joined_task(&self) -> Val {
        Val(self
            .0
            .iter()
            .map(|o| Origin {
                part: match o.part {
                    Part::Err | Part::OkErr => Part::OkErr,
                    Part::Plain | Part::Ok => Part::Ok,
                },
                ..*o
            })
            .collect())
    }

    /// Plain origins re-tagged as `part`; other parts are dropped.
    pub fn tagged(&self, part: Part) -> Val {
        Val(self
            .0
            .iter()
            // Whether a failure only may be there is said of success values.
            .filter(|o| o.part == Part::Plain && !(part == Part::Err && o.fact == Fact::MayBeData))
            .map(|o| Origin { part, ..*o })
            .collect())
    }

    pub fn with_wrap(mut self, wrap: ExprId) -> Val {
        for o in &mut self.0 {
            o.wrap.get_or_insert(wrap);
        }
        self
    }

    pub fn any(&self, f: impl Fn(&Origin) -> bool) -> bool {
        self.0.iter().any(f)
    }

    pub fn retain(&mut self, f: impl Fn(&Origin) -> bool) {
        self.0.retain(f);
    }

    /// What a piece appended to a text buffer (`push_str`, `write!`) contributes: a line
    /// that reads like a failure among the buffer's other content is content (a notebook's
    /// `Error:` output, a log excerpt); failure text stays such only when it comes from an
    /// error value.
    pub fn appended_text(&self) -> Val {
        let mut v = self.text();
        v.retain(|o| o.fact != Fact::FailText);
        v
    }

    /// Only the origins that say something about text (failure, error values, internals).
    pub fn text(&self) -> Val {
        Val(self
            .0
            .iter()
            .filter(|o| {
                o.fact.is_failure()
                    || matches!(
                        o.fact,
                        Fact::Internals(_)
                            | Fact::Param(_)
                            | Fact::Int(_)
                            | Fact::Boundary { .. }
                            | Fact::Returned
                            | Fact::MayBeData
                    )
            })
            .copied()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(expr: ExprId, fact: Fact) -> Origin {
        Origin {
            fact,
            part: Part::Err,
            site: Site { func: 0, expr },
            via: None,
            wrap: None,
            local: None,
        }
    }

    /// Many origins of one kind, then one of another kind.
    fn crowded(n: u32) -> Val {
        let mut v = Val::default();
        for e in 0..n {
            v.push(at(e, Fact::ErrValue));
        }
        v
    }

    #[test]
    fn a_full_value_still_takes_a_kind_it_lacks() {
        let mut pushed = crowded(MAX_ORIGINS as u32 + 10);
        assert_eq!(pushed.iter().count(), MAX_ORIGINS);
        pushed.push(at(9_999, Fact::Param(0)));
        assert!(pushed.any(|o| o.fact == Fact::Param(0)));

        let mut joined = crowded(MAX_ORIGINS as u32);
        let mut other = crowded(40);
        other.push(at(9_999, Fact::Param(1)));
        joined.join(&other);
        assert!(joined.any(|o| o.fact == Fact::Param(1)));
    }

    #[test]
    fn a_full_value_drops_more_of_a_kind_it_holds() {
        let mut v = crowded(MAX_ORIGINS as u32);
        v.push(at(9_000, Fact::Param(0)));
        v.push(at(9_001, Fact::Param(0)));
        v.push(at(9_002, Fact::ErrValue));
        assert_eq!(v.iter().count(), MAX_ORIGINS + 1);
    }

    #[test]
    fn new_kinds_past_the_bound_are_bounded_too() {
        let mut v = crowded(MAX_ORIGINS as u32);
        let mut other = Val::default();
        for k in 0..1_000u16 {
            v.push(at(10_000 + u32::from(k), Fact::Param(k)));
            other.push(at(20_000 + u32::from(k), Fact::Param(k + 1_000)));
        }
        assert_eq!(v.iter().count(), MAX_ORIGINS + MAX_NEW_KINDS);
        v.join(&other);
        assert_eq!(v.iter().count(), MAX_ORIGINS + MAX_NEW_KINDS);
    }
}
