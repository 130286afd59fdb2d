//! The contract as data: what `--format json` prints and `--check` reads back. Version 1 of
//! the format is documented in `docs/contract.md`; fields are only ever added to it.

use serde::{Deserialize, Serialize};

use crate::diagnostic::Span;

/// The version of the JSON format.
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Contract {
    pub version: u32,
    pub tools: Vec<Tool>,
}

/// What a handler is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Tool,
    /// A hand-written `tools/call` dispatcher (it selects the tool by name).
    Dispatcher,
    Prompt,
    Resource,
    /// Another request handler (listing, lifecycle, completion).
    Request,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Dispatcher => "dispatcher",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::Request => "request",
        }
    }
}

/// What the client receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// A successful result that carries a failure (`isError` unset).
    Success,
    /// A result with `isError: true`: the model reads it.
    IsError,
    /// A JSON-RPC error response.
    JsonrpcError,
    /// No response at all: the handler panics.
    NoAnswer,
    /// The server process ends (`process::exit`, or any panic with `panic = "abort"`).
    ServerExit,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Success => "success",
            Channel::IsError => "is_error",
            Channel::JsonrpcError => "jsonrpc_error",
            Channel::NoAnswer => "no_answer",
            Channel::ServerExit => "server_exit",
        }
    }

    /// How people call it.
    pub fn title(self) -> &'static str {
        match self {
            Channel::Success => "success",
            Channel::IsError => "isError",
            Channel::JsonrpcError => "JSON-RPC error",
            Channel::NoAnswer => "no answer",
            Channel::ServerExit => "server exit",
        }
    }
}

/// Where a handler's `Err` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrChannel {
    IsError,
    JsonrpcError,
    /// The handler cannot fail through its return type.
    None,
    /// Not known (an error type the SDK model does not know).
    Unknown,
}

impl ErrChannel {
    pub fn title(self) -> &'static str {
        match self {
            ErrChannel::IsError => "Err → isError",
            ErrChannel::JsonrpcError => "Err → JSON-RPC error",
            ErrChannel::None => "cannot return Err",
            ErrChannel::Unknown => "Err → unknown",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tool {
    /// The tool's name as the client calls it, when the code says (`#[tool(name = ..)]`, the
    /// name a closure is registered under); else the fn's name.
    pub name: String,
    pub kind: Kind,
    /// The fn (`Type::method`) or, for a closure, the fn it is written in.
    #[serde(rename = "fn", default)]
    pub func: String,
    #[serde(default)]
    pub package: String,
    /// The SDK and its version, as read from the manifest and lock file.
    #[serde(default)]
    pub sdk: Option<String>,
    pub file: String,
    pub line: usize,
    #[serde(default = "unknown_err")]
    pub err: ErrChannel,
    /// The shapes of its successful results: `text`, `content`, `structured`, `Json<T>`, or
    /// the result type.
    #[serde(default)]
    pub success: Vec<String>,
    pub failures: Vec<Failure>,
}

fn unknown_err() -> ErrChannel {
    ErrChannel::Unknown
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Failure {
    pub channel: Channel,
    /// What kind of path it is within its channel (see `docs/contract.md`).
    #[serde(default)]
    pub kind: String,
    /// The JSON-RPC error code, when known.
    pub code: Option<i64>,
    /// The protocol error's constructor (`internal_error`, `invalid_params`, ..).
    #[serde(default)]
    pub constructor: Option<String>,
    /// The construct, as written (`?`, `Err(..)`, `unwrap()`, ..).
    #[serde(default)]
    pub what: String,
    pub origin: Origin,
    /// The fns from the tool down to the one holding the origin.
    #[serde(default)]
    pub chain: Vec<String>,
    /// The finding that reports this path, if one does.
    pub lint: Option<String>,
    /// That finding's level (`warn`, `deny`).
    #[serde(default)]
    pub level: Option<String>,
    /// Where that finding is, when not at the origin (the leak in the text of an `isError`
    /// result, the `panic = "abort"` line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_at: Option<Location>,
    /// For a panic that ends the server because of `panic = "abort"`: where that is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abort: Vec<Abort>,
    /// The span of the finding that would report this path, and its lint.
    #[serde(skip)]
    pub reported_as: Option<(&'static str, Span)>,
}

impl Failure {
    /// A protocol error the spec asks for (an unknown tool, a request handler's error), not a
    /// failure the model should have been told about.
    pub fn is_correct(&self) -> bool {
        self.channel == Channel::JsonrpcError
            && CORRECT_PROTOCOL_KINDS.contains(&self.kind.as_str())
    }

    /// A path the model cannot read and act on: a JSON-RPC error for a tool's failure, no
    /// answer, a dead server.
    pub fn is_hidden(&self) -> bool {
        match self.channel {
            Channel::JsonrpcError => !self.is_correct(),
            Channel::NoAnswer | Channel::ServerExit => true,
            Channel::Success | Channel::IsError => false,
        }
    }
}

/// `jsonrpc_error` kinds that are correct protocol errors.
pub const CORRECT_PROTOCOL_KINDS: &[&str] = &["unknown_tool", "request"];

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Origin {
    pub file: String,
    pub line: usize,
    #[serde(default)]
    pub column: usize,
    /// The fn holding it.
    #[serde(rename = "fn", default)]
    pub func: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abort {
    pub file: String,
    pub line: usize,
    pub profile: String,
}
