//! What the flow walk finds in one fn (sites for the lints, with the body they run in) and
//! what callers need to know about it (its summary).

use std::sync::Arc;

use super::program::Site;
use super::value::{Origin, Val};
use crate::model::ir::{ClosureId, ExprId, Sp};

/// How an error leaves a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// `expr?`
    Question,
    /// `return value` with an `Err` in it.
    Return,
    /// The body's value, with an `Err` in it.
    Tail,
    /// `bail!(..)`, `ensure!(..)`.
    Macro,
}

#[derive(Clone, Debug)]
pub struct Exit {
    pub owner: Option<ClosureId>,
    pub kind: ExitKind,
    /// The `?` expression, the `return`, the tail, the macro.
    pub at: ExprId,
    /// The `?` token.
    pub question: Option<Sp>,
    /// For `?`: the operand without `?` and without its `map_err`/`ok_or` adapter.
    pub operand: Option<ExprId>,
    /// The operand of `?` is an `Option` adapted with `ok_or(..)`.
    pub option: bool,
    /// What the error is made of (plain origins of the `Err` payload).
    pub err: Val,
    /// In a catch-all arm of a `match` on a tool's name.
    pub in_fallback: bool,
    /// `mutex.lock().map_err(..)?`: poisoning, a server bug rather than a tool failure.
    pub lock_failure: bool,
}

/// A value a body returns (tail or `return`), for the success side.
#[derive(Clone, Debug)]
pub struct Return {
    pub owner: Option<ClosureId>,
    pub at: ExprId,
    pub val: Val,
}

/// A failure put into a successful result.
#[derive(Clone, Debug)]
pub struct SuccessFailure {
    pub owner: Option<ClosureId>,
    /// Where the failure enters the success value.
    pub at: Site,
    /// The success constructor's method name, for the `success` → `error` rename.
    pub ctor_name: Option<Sp>,
    pub why: Origin,
    /// On some path into the result the value carries no failure (see
    /// [`Fact::MayBeData`]): making the result an error would also fail that path.
    pub maybe: bool,
    /// The site is a fn that wraps every value its callers give it into a success.
    pub shared_sink: bool,
}

/// Parameter `param` of a fn is put into a success result at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuccessSink {
    pub param: u16,
    pub at: Site,
    /// The fn puts a failure of its own into the same result (`fn fail(msg) ->
    /// CallToolResult { wrap(Report::failed(msg)) }`): what a caller passes in is part of
    /// that failure, already reported, not a second one.
    pub with_own_failure: bool,
    /// Only while `bool` parameter `.0` is `.1` (a fn that picks its constructor by a flag).
    pub when: Option<(u16, bool)>,
}

/// An integer that becomes a JSON-RPC error code.
#[derive(Clone, Debug)]
pub struct CodeUse {
    /// Where the value is written (a literal or a constant's name): the fn and the span.
    pub func: u32,
    pub span: Sp,
    pub value: i64,
    /// The crate fn (an error builder) whose parameter turns it into a code.
    pub builder: Option<u32>,
    pub const_name: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanicKind {
    Unwrap,
    Expect,
    Macro,
    Exit,
    /// `v[i]`: out of bounds.
    Index,
    /// `v[a..b]`: a bound past the end, or `a > b`.
    Slice,
    /// `&s[..n]` of a string: `n` inside a multi-byte character (or past the end).
    TextSplit,
}

impl PanicKind {
    /// Indexing or slicing, whose bound decides whether it panics.
    pub fn is_index(self) -> bool {
        matches!(
            self,
            PanicKind::Index | PanicKind::Slice | PanicKind::TextSplit
        )
    }
}

/// What an invariant panic asserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invariant {
    /// `lock().unwrap()`: the lock is not poisoned (no other panic while it was held).
    Lock,
    /// `expect("..")` whose message says the author established it.
    Stated,
    /// `child.stdout.take().expect(..)` after the stream was piped.
    Piped,
    /// `unreachable!()` in a fallback arm.
    Excluded,
}

/// In [`Summary::index`]: the bound is a constant a caller passes (`clip(text, 500)`), a
/// cut fixed by the program rather than an offset computed from the data.
pub const CONSTANT_BOUND: u16 = u16::MAX;

#[derive(Clone, Debug)]
pub struct PanicSite {
    pub owner: Option<ClosureId>,
    /// The indexing expression, for index sites.
    pub at: Option<ExprId>,
    pub span: Sp,
    pub what: String,
    pub kind: PanicKind,
    /// Lexically under `catch_unwind` or a configured guard.
    pub guarded: bool,
    /// The call whose arguments hold the site.
    pub within: Option<u32>,
    /// An asserted invariant rather than a failure on caller data: which one.
    pub invariant: Option<Invariant>,
    /// Parameters whose values reach an index or slice bound here.
    pub params: Vec<u16>,
    /// A slice whose bounds the code computes from the data and nothing says may miss: it
    /// can panic only where a caller chooses a bound (see `flow/slice_bounds.rs`).
    pub computed_bounds: bool,
    /// What says a slice's bound may miss, when something does.
    pub risk: Option<BoundRisk>,
}

/// Why a slice's bound may fall outside the sliced value or inside one of its characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundRisk {
    /// A literal or constant offset (`&s[..500]`, `&s[1..end]`).
    FixedCut,
    /// A subtraction, which wraps (or panics in a debug build) below zero.
    MayWrap,
    /// `..=n`: one past `n`.
    InclusiveEnd,
    /// The length of another value.
    OtherLength,
    /// An offset found in, read into or counted over another value.
    OffsetOfOther,
    /// A count of chars used as a byte offset.
    CharCount,
    /// A step past a found pattern further than its known ASCII bytes.
    StepPastPattern,
    /// A step past the bytes a scan tested to be ASCII (`bytes[i] == b'%'`, then `i + 3`).
    StepPastTestedBytes,
    /// Text cut at a byte count (`if s.len() > max { &s[..max] }`, `n.min(s.len())`).
    CutAtLength,
    /// A cursor checked against the length of another value.
    MeasuredAgainstOther,
}

impl BoundRisk {
    /// Why the slice can panic, for the finding's note.
    pub fn why(self) -> &'static str {
        match self {
            BoundRisk::FixedCut => {
                "a bound is a fixed offset: input shorter than it, or a start past the end, makes the range invalid"
            }
            BoundRisk::MayWrap => {
                "a bound is a subtraction: when the right side is larger it underflows (a panic in debug builds, a huge offset in release)"
            }
            BoundRisk::InclusiveEnd => {
                "an inclusive end (`..=n`) reaches one byte past `n`, beyond the end when `n` is the length"
            }
            BoundRisk::OtherLength => {
                "a bound is the length of another value, not of the one sliced"
            }
            BoundRisk::OffsetOfOther => {
                "a bound is an offset into another value (found in it, read into it, or made by a helper from its own copy), not into the one sliced"
            }
            BoundRisk::CharCount => {
                "a bound counts characters, not bytes: after the first multi-byte character it is no byte offset"
            }
            BoundRisk::StepPastPattern => {
                "a bound steps past a found pattern further than the pattern's ASCII bytes: it can land inside the next character"
            }
            BoundRisk::StepPastTestedBytes => {
                "a bound steps past the bytes the scan tested to be ASCII: the bytes after them can be part of a multi-byte character"
            }
            BoundRisk::CutAtLength => {
                "the text is cut at a byte count (a length limit), not at a character"
            }
            BoundRisk::MeasuredAgainstOther => {
                "a bound was checked against the length of another value: a lowercased or converted copy can be shorter, and its characters sit at other offsets"
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StdoutKind {
    /// `print!`/`println!`; `bare` when it writes nothing but formatted values (how a
    /// hand-rolled server sends its responses).
    Print {
        name: String,
        name_span: Sp,
        bare: bool,
    },
    Write {
        bare: bool,
    },
    /// A fmt subscriber or layer installed without a stderr writer. `at` is its root.
    Logger {
        installs: bool,
        writer: Option<Site>,
    },
    Child {
        method: String,
    },
    /// A logging crate set up to print to stdout.
    LoggerCrate {
        what: String,
    },
}

/// A condition an enclosing `if` requires: a flag, a field, a call without arguments, and
/// whether it must be true.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    pub key: String,
    pub positive: bool,
}

/// Where a site sits: the branches around it and the conditions it runs under. The sites
/// of one stretch of code share the two lists: a fn records a place for every call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub branch: Arc<[u32]>,
    pub gates: Arc<[Gate]>,
    /// Byte offset, for "after a branch that returns".
    pub at: u32,
}

/// The branches around a stretch of code and the conditions it runs under.
pub type Context = (Arc<[u32]>, Arc<[Gate]>);

/// Where a call sits: its stretch of code (an index into [`FnFacts::contexts`]; `u32::MAX`
/// for a call the walk did not reach) and its byte offset.
#[derive(Clone, Copy, Debug)]
pub struct CallPlace {
    pub context: u32,
    pub at: u32,
}

impl Default for CallPlace {
    fn default() -> Self {
        CallPlace {
            context: u32::MAX,
            at: 0,
        }
    }
}

impl FnFacts {
    /// Where call site `site` sits.
    pub fn call_place(&self, site: u32) -> Place {
        let Some(c) = self.call_places.get(site as usize) else {
            return Place::default();
        };
        match self.contexts.get(c.context as usize) {
            Some((branch, gates)) => Place {
                branch: branch.clone(),
                gates: gates.clone(),
                at: c.at,
            },
            None => Place {
                at: c.at,
                ..Place::default()
            },
        }
    }
}

#[derive(Clone, Debug)]
pub struct StdoutSite {
    pub owner: Option<ClosureId>,
    pub at: Site,
    pub span: Sp,
    pub kind: StdoutKind,
    pub place: Place,
}

/// Internals sent in an error result.
#[derive(Clone, Debug)]
pub struct Leak {
    pub owner: Option<ClosureId>,
    /// Where the internals enter the text (a format string, a `.backtrace()` call).
    pub at: Site,
    pub kind: super::value::Internals,
    /// The error value whose `Debug` form it is.
    pub local: Option<crate::model::ir::LocalId>,
}

/// A tool result that answers a name no tool has: built in a catch-all arm of a `match` on
/// the tool's name, or (`from_error`) from the text of an error that says so.
#[derive(Clone, Debug)]
pub struct FallbackResult {
    pub owner: Option<ClosureId>,
    pub at: ExprId,
    pub success: bool,
    pub from_error: bool,
    /// With `from_error`: where the error that says the tool does not exist was made.
    pub made: Option<crate::analysis::program::Site>,
    /// The same answer also carries other failures (the tools' own errors): it must stay a
    /// tool result for them, so the place to change is where the unknown name's error is
    /// made.
    pub shared: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BranchInfo {
    pub group: u32,
    pub diverges: bool,
}

#[derive(Clone, Debug, Default)]
pub struct FnFacts {
    pub exits: Vec<Exit>,
    pub returns: Vec<Return>,
    /// Values held in locals and written to stdout (`println!("{response}")`): what a
    /// request loop that writes its own responses sends.
    pub sent: Vec<Return>,
    pub success_failures: Vec<SuccessFailure>,
    pub codes: Vec<CodeUse>,
    pub panics: Vec<PanicSite>,
    pub stdout: Vec<StdoutSite>,
    pub leaks: Vec<Leak>,
    /// What the text of each error result made here is made of (`CallToolResult::error(..)`,
    /// an `isError` literal), by the result's expression.
    pub error_texts: Vec<(ExprId, Val)>,
    pub fallback_results: Vec<FallbackResult>,
    /// Places that start a stdio server transport.
    pub transports: Vec<(ExprId, Place)>,
    /// Per call site (as in `Resolved::calls`): where it sits. See [`FnFacts::call_place`].
    pub call_places: Vec<CallPlace>,
    /// The branch and condition lists the fn's calls sit under, one per stretch of code.
    pub contexts: Vec<Context>,
    pub branches: Vec<BranchInfo>,
    /// Async blocks the fn returns: their exits are the fn's.
    pub returned_async: Vec<ClosureId>,
    /// `(closure, async block)`: an async block a closure returns (`|args| Box::pin(async move
    /// { .. })`), whose exits are the closure's.
    pub closure_async: Vec<(ClosureId, ClosureId)>,
    /// Calls whose error becomes a hand-made JSON-RPC error object here, with the expression
    /// that builds the object: `(call, construction)`.
    pub rpc_error_calls: Vec<(ExprId, ExprId)>,
    /// Failures made in this fn, not by a call (an `Err(..)` of its own), that a hand-made
    /// JSON-RPC error object answers, with the expression that builds the object: `(made,
    /// construction)`.
    pub rpc_error_others: Vec<(ExprId, ExprId)>,
    /// Parameters whose `Err` becomes a hand-made JSON-RPC error object here (a helper
    /// `reply(id, result)` answering `Err(e)` with it), with the expression that builds it.
    pub rpc_error_params: Vec<(u16, ExprId)>,
    /// Calls and macros evaluated in a catch-all match arm (sorted once the fn is done).
    pub fallback_exprs: Vec<ExprId>,
    /// Calls, macros and struct literals evaluated in an arm that selects a tool by name
    /// (sorted once the fn is done).
    pub tool_arm_exprs: Vec<ExprId>,
    /// Arms of a `match` on a crate enum parsed from a tool's name (`match parse(name) {
    /// Tool::Read => read(args), .. }`), but the catch-all's: each selects a tool as a string
    /// arm of a `match` on the name does.
    pub parsed_name_arms: Vec<ExprId>,
    /// The calls whose result the fn returns unchanged (its tail, its `return`s), sorted.
    pub returned_calls: Vec<ExprId>,
}

/// Param sink bits.
pub const SINK_SUCCESS: u8 = 1;
pub const SINK_CODE: u8 = 2;
pub const SINK_ERROR_RESULT: u8 = 4;
/// The parameter becomes part of a hand-made JSON-RPC error object.
pub const SINK_RPC_ERROR: u8 = 8;
/// The parameter's `Err` side becomes a hand-made JSON-RPC error object (`match result {
/// Err(e) => Reply { error: Some(e), .. } }`), here or in a helper it is handed to.
pub const SINK_RPC_ERROR_OF_ERR: u8 = 16;

/// What callers need from a fn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The returned value's origins: the `Ok`/plain side from its returns, the `Err` side
    /// from its exits.
    pub ret: Val,
    /// Per parameter: what it flows into (`SINK_*` bits).
    pub sinks: Vec<u8>,
    /// Parameters that reach an index or slice bound, and where; [`CONSTANT_BOUND`] for a
    /// bound a call in this fn (or below) fixes to a constant.
    pub index: Vec<(u16, Site)>,
    /// Parameters put into a success result, and where (in this fn or a callee): a fn that
    /// wraps whatever it is given into a success is one site, however many callers hand it
    /// a failure.
    pub success_sinks: Vec<SuccessSink>,
    /// What the fn returns when it `match`es its receiver or a parameter on the variants of
    /// a crate enum: (the receiver `RECEIVER` or parameter k, the variant, the value of its
    /// arm). A caller that passes a known variant gets that arm's value, not every arm's
    /// (`Error::InvalidArgument(m).to_mcp()` is `invalid_params`, not also `internal_error`).
    pub by_variant: Vec<(u16, u32, Val)>,
    /// Parameters the fn parses into a crate enum by a `match` on string literals, with the
    /// variant its catch-all gives (`_ => Tool::Unknown`): a caller that matches the parse
    /// of a tool's name answers unknown names in that variant's arm.
    pub name_parses: Vec<(u16, crate::model::ir::Name)>,
    /// The fn finds char boundaries with std's APIs (`char_indices`, `floor_char_boundary`),
    /// itself or in the fn whose call is its value: an offset it returns is one.
    pub finds_char_boundaries: bool,
}

/// The receiver's key in [`Summary::by_variant`].
pub const RECEIVER: u16 = u16::MAX;
