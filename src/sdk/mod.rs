//! What each MCP SDK makes of the code: which fns are handlers, which error types reach the
//! model as `isError` results and which become JSON-RPC errors, what a stdio server looks
//! like, and how to spell a fix. Lints ask these questions; they never match SDK names.

pub mod generic;
pub mod handrolled;
pub mod mcp_attr;
pub mod modelcontextprotocol_server;
pub mod pmcp;
pub mod rmcp;
pub mod rust_mcp_sdk;
pub mod table;
pub mod tower_mcp;
pub mod turbomcp;
pub mod ultrafast_mcp;

use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::{Package, Version};

/// What a fn is to the SDK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Not a handler.
    None,
    /// A tool: its `Err` channel follows from its return type.
    Tool,
    /// A trait-based tool whose every `Err` is a protocol error.
    TraitTool,
    /// A hand-written `tools/call` dispatcher: `Err` is a protocol error, except for the
    /// spec-mandated answer to an unknown tool.
    Dispatcher,
    /// Another request handler (prompts, resources, lifecycle): `Err` is correct by spec;
    /// only panics matter.
    Request,
    /// Runs before serving (`main`, `get_info`, constructors, router construction).
    Startup,
}

impl Role {
    pub fn is_handler(self) -> bool {
        matches!(
            self,
            Role::Tool | Role::TraitTool | Role::Dispatcher | Role::Request
        )
    }

    pub fn handles_tools(self) -> bool {
        matches!(self, Role::Tool | Role::TraitTool | Role::Dispatcher)
    }

    pub fn noun(self) -> &'static str {
        match self {
            Role::Dispatcher => "tool dispatcher",
            Role::Request => "request handler",
            _ => "tool",
        }
    }
}

/// Where an `Err` returned by a handler ends up on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// A result with `isError: true`: the model sees the message.
    ToolError,
    /// A JSON-RPC error: the client gets a protocol error, the model usually nothing.
    Protocol,
    /// The fn cannot fail through its return type.
    Infallible,
    /// Not known (an unfamiliar error type): lints stay silent.
    Unknown,
}

/// The impl block a fn sits in (the trait's path as written: `ServerHandler`,
/// `rmcp::ServerHandler`, `AsyncTool`).
pub use crate::model::ir::ImplDef as ImplContext;
pub use crate::model::ir::{Attr, has_attr};

/// An `ErrorData`-like constructor call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCtor {
    InvalidParams,
    InternalError,
    MethodNotFound,
    ResourceNotFound,
    /// An error the SDK sends as an `isError` result (pmcp's `Error::tool_rejected`).
    ToolRejection,
    /// `new(code, ..)` or another constructor.
    Other,
}

/// One SDK's knowledge, for the version the crate builds with.
pub trait Sdk: Send + Sync {
    fn name(&self) -> &str;
    fn version(&self) -> Option<Version>;

    /// The role of a fn from its attributes, name, declared return type and impl block.
    fn role(
        &self,
        imports: &Imports,
        implementation: Option<&ImplContext>,
        attrs: &[Attr],
        name: &str,
        ret: &Ty,
    ) -> Role;

    /// Whether `receiver.method(..)` starts a stdio server (`server.run_stdio()`).
    fn is_stdio_method(&self, _method: &str) -> bool {
        false
    }

    /// Where `Err` of a fn with this role and (alias-expanded) return type goes.
    fn err_channel(&self, role: Role, ret: &Ty) -> Channel;

    /// Whether `ty` is the SDK's protocol error type.
    fn is_protocol_error_type(&self, ty: &Ty) -> bool;

    /// Classifies a call `path(..)` that builds a protocol error.
    fn error_ctor(&self, imports: &Imports, path: &[Name]) -> Option<ErrorCtor>;

    /// Whether `path(..)` is the SDK's own argument parsing, whose failure is a -32602 protocol
    /// error (rmcp's `parse_json_object`).
    fn parses_arguments(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// Whether `path(..)` builds a *successful* tool result (`CallToolResult::success`).
    fn is_success_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool;

    /// Whether the server writes its JSON-RPC responses to stdout itself (hand-rolled servers),
    /// so a write of nothing but the serialized message is the transport.
    fn writes_own_responses(&self) -> bool {
        false
    }

    /// Builder methods whose closure argument is a tool handler (tower-mcp's
    /// `ToolBuilder::handler(|input| async move { .. })`).
    fn handler_closure_methods(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the macro `path` names returns early with one of the SDK's protocol errors.
    fn is_early_error_macro(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// Whether `method` of one of the SDK's error types returns the same error with more
    /// attached (a message, a source): the error keeps its code.
    fn is_error_builder(&self, _method: &str) -> bool {
        false
    }

    /// Whether the call of `path` (`TypedTool::new`) is a constructor of one of the SDK's
    /// types that make a tool of the handler they are given.
    fn is_handler_wrapper(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// Whether the SDK answers a panicking handler itself, so panics do not leave requests
    /// unanswered.
    fn catches_panics(&self) -> bool {
        false
    }

    /// The method whose call, anywhere in the crate's code, turns the SDK's panic guard on
    /// (an opt-in guard; `None` when there is none).
    fn panic_guard_method(&self) -> Option<&'static str> {
        None
    }

    /// What a handler's panic does with this SDK, for the notes of panic findings.
    fn panic_note(&self) -> String {
        format!(
            "{} does not catch a handler's panic: the request's task dies and the client waits until it times out",
            self.name()
        )
    }

    /// Whether the SDK's error channels are known (an SDK not in our table: no).
    fn error_channel_known(&self) -> bool {
        true
    }

    /// Where `Err` of a tool handler closure goes (`ToolBuilder::handler(|..| ..)`).
    fn closure_channel(&self) -> Channel {
        Channel::Unknown
    }

    /// Whether text a tool returns (`String`, `Ok(String)`) is sent as a successful result.
    fn text_is_success(&self) -> bool {
        true
    }

    /// The JSON-RPC code a protocol error built by `ctor` reaches the client with, if known.
    fn protocol_error_code(&self, ctor: Option<ErrorCtor>) -> Option<i64> {
        match ctor {
            Some(ErrorCtor::InvalidParams) => Some(-32602),
            Some(ErrorCtor::InternalError) => Some(-32603),
            Some(ErrorCtor::MethodNotFound) => Some(-32601),
            Some(ErrorCtor::ResourceNotFound) => Some(-32002),
            _ => None,
        }
    }

    /// The constructor that builds the same result with `isError: true`, when a rename does it
    /// (`success` → `error`).
    fn error_variant_of(&self, _success_ctor: &str) -> Option<&'static str> {
        None
    }

    /// Names of the tool result struct, for struct literals (`ToolResult { is_error, .. }`).
    fn result_type_names(&self) -> &'static [&'static str] {
        &["CallToolResult"]
    }

    /// Whether `path(..)` builds an error tool result (`CallToolResult::error`).
    fn is_error_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool;

    /// Whether `path(..)` wraps text into content (`Content::text`, `ContentBlock::text`).
    fn is_text_content_ctor(&self, imports: &Imports, path: &[Name]) -> bool;

    /// Whether `path` names the SDK's error-code type (`ErrorCode(..)`).
    fn is_error_code_ctor(&self, imports: &Imports, path: &[Name]) -> bool;

    /// Names of error structs whose `code` field is a JSON-RPC error code
    /// (`RpcError { code: -32050, .. }`).
    fn error_structs_with_code(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the call `path(args)` creates a stdio server transport.
    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool;

    /// Whether `(a(), b())` passed as a transport is the process's stdin and stdout.
    fn is_stdio_pair(&self, imports: &Imports, a: &[Name], b: &[Name]) -> bool;

    /// Whether the SDK itself turns argument deserialization failures into `isError` results
    /// for tools with this role.
    fn converts_argument_errors(&self, role: Role) -> bool;

    /// A statement that answers an unknown tool (its name in `name`) with the spec's
    /// JSON-RPC error.
    fn unknown_tool_error(&self, name: &str) -> String;

    /// How to write a text content block in this version, e.g. `Content::text`.
    fn text_content(&self) -> &'static str;

    /// When this version's tools cannot answer with `isError` at all, what to do instead.
    fn no_error_result(&self) -> Option<&'static str> {
        None
    }

    /// Whether [`Sdk::error_result`] type-checks as the return value of a fn with this role
    /// and return type (so a fix may put it there).
    fn can_return_error_result(&self, _role: Role, _ret: &Ty) -> bool {
        false
    }

    /// A complete expression that returns `message` (an expression) as an `isError` result
    /// from a handler with this role.
    fn error_result(&self, role: Role, message: &str) -> String;
}

/// The SDKs' resource-read handler methods (rmcp's `ServerHandler::read_resource`,
/// rust-mcp-sdk's `handle_read_resource_request`).
pub fn is_resource_read_handler(name: &str) -> bool {
    matches!(name, "read_resource" | "handle_read_resource_request")
}

/// `Type::method` as written → the type's resolved path and the method name
/// (`McpError::invalid_params` → `(["rmcp", "ErrorData"], "invalid_params")`).
pub(crate) fn assoc<'p>(imports: &Imports, path: &'p [Name]) -> Option<(Vec<Name>, &'p str)> {
    let (method, ty) = path.split_last()?;
    if ty.is_empty() {
        return None;
    }
    Some((imports.resolve_segments(ty).into_owned(), method.as_str()))
}

/// What a cheap scan of a package's source text tells before parsing.
#[derive(Clone, Copy, Debug, Default)]
pub struct SourceHints {
    /// The source mentions `"tools/call"`: a hand-rolled JSON-RPC server when no SDK is a
    /// dependency.
    pub serves_tools_call: bool,
}

impl SourceHints {
    /// The hints one file's text gives.
    pub fn of(text: &str) -> Self {
        SourceHints {
            serves_tools_call: text.contains("\"tools/call\""),
        }
    }

    /// What two parts of a package tell together.
    pub fn or(self, other: SourceHints) -> Self {
        SourceHints {
            serves_tools_call: self.serves_tools_call || other.serves_tools_call,
        }
    }
}

/// Picks the SDK a package builds with: a known one, else a hand-rolled JSON-RPC server, else
/// an SDK we do not know (`members`: the workspace's package names, which are never it).
pub fn detect(package: &Package, hints: SourceHints, members: &[&str]) -> Option<Box<dyn Sdk>> {
    if package.dependency("rmcp").is_some() {
        return Some(Box::new(rmcp::Rmcp::new(package.resolved_version("rmcp"))));
    }
    if package.dependency("rust-mcp-sdk").is_some() {
        return Some(Box::new(rust_mcp_sdk::RustMcpSdk::new(
            package.resolved_version("rust-mcp-sdk"),
        )));
    }
    for spec in [
        &pmcp::SPEC,
        &turbomcp::SPEC,
        &tower_mcp::SPEC,
        &mcp_attr::SPEC,
        &ultrafast_mcp::SPEC,
        &modelcontextprotocol_server::SPEC,
    ] {
        if package.dependency(spec.package).is_some() {
            return Some(Box::new(table::TableSdk::new(
                spec,
                package.resolved_version(spec.package),
            )));
        }
    }
    if hints.serves_tools_call && package.dependency("serde_json").is_some() {
        return Some(Box::new(handrolled::HandRolled));
    }
    generic::GenericSdk::detect(package, members).map(|s| Box::new(s) as Box<dyn Sdk>)
}
