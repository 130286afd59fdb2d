//! Hand-rolled JSON-RPC servers: no MCP SDK, a loop reading JSON-RPC lines from stdin and a
//! `match` on the method that sends `"tools/call"` to a dispatch fn. Such a server writes its
//! responses to stdout itself, so a write whose text is only the serialized message is the
//! transport; a write with prose in it is not. Error channels vary per project: lints that
//! need them stay silent.

use super::{Channel, ErrorCtor, ImplContext, Role, Sdk};
use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::Version;

pub struct HandRolled;

impl Sdk for HandRolled {
    fn name(&self) -> &str {
        "hand-rolled JSON-RPC"
    }

    fn version(&self) -> Option<Version> {
        None
    }

    fn role(
        &self,
        _imports: &Imports,
        _implementation: Option<&ImplContext>,
        attrs: &[super::Attr],
        name: &str,
        _ret: &Ty,
    ) -> Role {
        // Which fns answer requests is found from what they do (see `analysis::dispatch`),
        // not from their names.
        if name == "main" || super::has_attr(attrs, "main") {
            Role::Startup
        } else {
            Role::None
        }
    }

    fn panic_note(&self) -> String {
        "nothing in this server's request loop catches a panic: it ends the loop, and the server, unless the request runs in a task of its own".to_string()
    }

    fn err_channel(&self, _role: Role, _ret: &Ty) -> Channel {
        Channel::Unknown
    }

    fn is_protocol_error_type(&self, _ty: &Ty) -> bool {
        false
    }

    fn error_ctor(&self, _imports: &Imports, _path: &[Name]) -> Option<ErrorCtor> {
        None
    }

    fn is_success_result_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    fn is_error_result_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    fn is_text_content_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// The spec's name for a tool result, for messages; the crate's own result struct is
    /// known by its `is_error` flag, whatever it is called.
    fn result_type_names(&self) -> &'static [&'static str] {
        &["CallToolResult"]
    }

    fn is_error_code_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// None by name: the crate's error object is known by its `code` and `message` fields.
    fn error_structs_with_code(&self) -> &'static [&'static str] {
        &[]
    }

    /// Reading the process's stdin is where such a server starts serving.
    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        resolved.last().is_some_and(|l| l == "stdin")
            && resolved
                .first()
                .is_some_and(|r| r == "std" || r == "tokio" || r == "io")
    }

    fn is_stdio_pair(&self, _imports: &Imports, _a: &[Name], _b: &[Name]) -> bool {
        false
    }

    fn writes_own_responses(&self) -> bool {
        true
    }

    fn converts_argument_errors(&self, _role: Role) -> bool {
        false
    }

    fn unknown_tool_error(&self, name: &str) -> String {
        format!(
            "json!({{\"jsonrpc\": \"2.0\", \"id\": id, \"error\": {{\"code\": -32602, \"message\": format!(\"unknown tool: {{{name}}}\")}}}})"
        )
    }

    fn text_content(&self) -> &'static str {
        ""
    }

    fn error_result(&self, _role: Role, message: &str) -> String {
        format!(
            "json!({{\"content\": [{{\"type\": \"text\", \"text\": {message}}}], \"isError\": true}})"
        )
    }
}
