//! rust-mcp-sdk (rust-mcp-stack), 0.x to 2.x.
//!
//! `ServerHandler::handle_call_tool_request` returns `Result<_, CallToolError>`, and the
//! runtime turns every `Err` into an `isError` result (unknown tools included). The
//! protocol-error paths are `ServerHandlerCore::handle_request` and, in 2.0,
//! `handle_call_tool_request_mrtr` (`RpcError`). Tool logic lives in ordinary methods the
//! handler dispatches to, conventionally `call_tool`/`run_tool` returning
//! `Result<CallToolResult, CallToolError>`.

use super::has_attr;
use super::{Channel, ErrorCtor, ImplContext, Role, Sdk};
use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::Version;

pub struct RustMcpSdk {
    version: Option<Version>,
}

impl RustMcpSdk {
    pub fn new(version: Option<Version>) -> Self {
        RustMcpSdk { version }
    }
}

/// Error types a tool's `Err` becomes an `isError` result from.
fn is_call_tool_error(ty: &Ty) -> bool {
    ty.last_segment() == Some("CallToolError")
}

fn is_rpc_error(ty: &Ty) -> bool {
    ty.last_segment() == Some("RpcError")
}

impl Sdk for RustMcpSdk {
    fn name(&self) -> &str {
        "rust-mcp-sdk"
    }

    fn version(&self) -> Option<Version> {
        self.version
    }

    fn role(
        &self,
        _imports: &Imports,
        implementation: Option<&ImplContext>,
        attrs: &[super::Attr],
        name: &str,
        ret: &Ty,
    ) -> Role {
        if name == "main" || has_attr(attrs, "main") {
            return Role::Startup;
        }
        let Some(implementation) = implementation else {
            return Role::None;
        };
        if let Some(trait_path) = &implementation.trait_path {
            let trait_name = trait_path.last().cloned().unwrap_or_default();
            return match (trait_name.as_str(), name) {
                ("ServerHandler", "handle_call_tool_request" | "handle_call_tool_request_mrtr") => {
                    Role::Dispatcher
                }
                ("ServerHandler", n) if n.starts_with("handle_") || n.starts_with("on_") => {
                    Role::Request
                }
                // The low-level handler answers every request; only panics are judged there.
                ("ServerHandlerCore", "handle_request" | "handle_notification") => Role::Request,
                _ => Role::None,
            };
        }
        // The logic of a `#[mcp_tool]` struct: `fn call_tool(&self) -> Result<CallToolResult, CallToolError>`.
        match ret.as_result() {
            Some((ok, err))
                if ok.last_segment() == Some("CallToolResult") && is_call_tool_error(err) =>
            {
                Role::Tool
            }
            _ => Role::None,
        }
    }

    fn err_channel(&self, role: Role, ret: &Ty) -> Channel {
        if !matches!(role, Role::Tool | Role::Dispatcher | Role::TraitTool) {
            return Channel::Unknown;
        }
        match ret.as_result() {
            Some((_, err)) if is_call_tool_error(err) => Channel::ToolError,
            Some((_, err)) if is_rpc_error(err) => Channel::Protocol,
            Some(_) => Channel::Unknown,
            None => Channel::Infallible,
        }
    }

    fn is_protocol_error_type(&self, ty: &Ty) -> bool {
        is_rpc_error(ty)
    }

    fn error_ctor(&self, imports: &Imports, path: &[Name]) -> Option<ErrorCtor> {
        let (ty, method) = super::assoc(imports, path)?;
        if ty.last().map(Name::as_str) != Some("RpcError") {
            return None;
        }
        Some(match method {
            "invalid_params" => ErrorCtor::InvalidParams,
            "internal_error" => ErrorCtor::InternalError,
            "method_not_found" => ErrorCtor::MethodNotFound,
            "resource_not_found" => ErrorCtor::ResourceNotFound,
            _ => ErrorCtor::Other,
        })
    }

    fn is_success_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "text_content" | "from_content" | "image_content"))
            if ty.last().is_some_and(|s| s == "CallToolResult"))
    }

    fn is_error_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "with_error"))
            if ty.last().is_some_and(|s| s == "CallToolResult"))
    }

    fn is_text_content_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "from" | "new"))
            if ty.last().is_some_and(|s| s == "TextContent"))
    }

    fn is_error_code_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    fn error_structs_with_code(&self) -> &'static [&'static str] {
        &["RpcError"]
    }

    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        resolved.ends_with(&[Name::new("StdioTransport"), Name::new("new")])
    }

    fn is_stdio_pair(&self, _imports: &Imports, _a: &[Name], _b: &[Name]) -> bool {
        false
    }

    fn converts_argument_errors(&self, _role: Role) -> bool {
        false
    }

    fn unknown_tool_error(&self, name: &str) -> String {
        format!(
            "return Err(RpcError::invalid_params().with_message(format!(\"unknown tool: {{{name}}}\")));"
        )
    }

    fn text_content(&self) -> &'static str {
        "TextContent::from"
    }

    fn error_result(&self, role: Role, message: &str) -> String {
        match role {
            Role::Tool => format!("Err(CallToolError::from_message({message}))"),
            _ => format!("Ok(CallToolResult::with_error(CallToolError::from_message({message})))"),
        }
    }
}
