//! rmcp, the official Rust SDK, from 0.1 (`#[tool(tool_box)]`) to 3.x.
//!
//! Facts used here are in docs: `IntoCallToolResult` (which `Err` types become `isError`),
//! the 1.4 unification (`CallToolResult` as an error type), the 1.8 conversion of
//! `Parameters<T>` failures, and the 2.0 rename of `Content` to `ContentBlock`.

use super::{Channel, ErrorCtor, ImplContext, Role, Sdk, has_attr};
use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::Version;

pub struct Rmcp {
    version: Option<Version>,
}

const ERROR_DATA_PATHS: &[&[&str]] = &[
    &["rmcp", "ErrorData"],
    &["rmcp", "model", "ErrorData"],
    &["rmcp", "Error"],
    &["rmcp", "model", "error", "ErrorData"],
];

/// Error types `IntoContents` accepts in every version: `Err` becomes `isError: true`.
const CONTENT_ERROR_TYPES: &[&str] = &["String", "Content", "ContentBlock"];

const STARTUP_FNS: &[&str] = &["main", "new", "default", "get_info", "tool_router"];

impl Rmcp {
    pub fn new(version: Option<Version>) -> Self {
        Rmcp { version }
    }

    fn at_least(&self, major: u64, minor: u64) -> bool {
        self.version.is_some_and(|v| v >= Version(major, minor, 0))
    }

    fn is_rmcp_path(&self, imports: &Imports, path: &[Name], targets: &[&[&str]]) -> bool {
        imports.names_any(path, targets)
    }
}

impl Sdk for Rmcp {
    fn name(&self) -> &str {
        "rmcp"
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
        _ret: &Ty,
    ) -> Role {
        if STARTUP_FNS.contains(&name) || name.ends_with("_router") || has_attr(attrs, "main") {
            return Role::Startup;
        }
        let Some(implementation) = implementation else {
            return Role::None;
        };
        if let Some(trait_path) = &implementation.trait_path {
            let trait_name = trait_path.last().cloned().unwrap_or_default();
            return match (trait_name.as_str(), name) {
                ("ServerHandler", "call_tool") => Role::Dispatcher,
                ("ServerHandler", "list_tools" | "list_prompts" | "list_resources") => {
                    Role::Request
                }
                ("ServerHandler", "initialize" | "get_prompt" | "read_resource" | "complete") => {
                    Role::Request
                }
                ("ServerHandler", n) if n.starts_with("list_") || n.starts_with("on_") => {
                    Role::Request
                }
                ("SyncTool" | "AsyncTool", "invoke") => Role::TraitTool,
                _ => Role::None,
            };
        }
        // `#[tool]` fns sit in `#[tool_router]` impls (0.2+) or `#[tool(tool_box)]` impls (0.1).
        if has_attr(attrs, "tool") {
            return Role::Tool;
        }
        if has_attr(attrs, "prompt") {
            return Role::Request;
        }
        Role::None
    }

    fn err_channel(&self, role: Role, ret: &Ty) -> Channel {
        match role {
            Role::Dispatcher | Role::TraitTool => Channel::Protocol,
            Role::Tool => {
                if self.is_protocol_error_type(ret) {
                    return Channel::Protocol;
                }
                let Some((_, err)) = ret.as_result() else {
                    return match ret.last_segment() {
                        Some("Result") => Channel::Unknown,
                        _ => Channel::Infallible,
                    };
                };
                if self.is_protocol_error_type(err) {
                    Channel::Protocol
                } else if err.is_unit()
                    || err
                        .last_segment()
                        .is_some_and(|s| CONTENT_ERROR_TYPES.contains(&s))
                    || (err.last_segment() == Some("CallToolResult") && self.at_least(1, 4))
                {
                    Channel::ToolError
                } else {
                    Channel::Unknown
                }
            }
            _ => Channel::Unknown,
        }
    }

    fn is_protocol_error_type(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Path { path, .. } => {
                let p: Vec<&str> = path.iter().map(Name::as_str).collect();
                ERROR_DATA_PATHS.contains(&p.as_slice()) || p == ["ErrorData"]
            }
            _ => false,
        }
    }

    fn error_ctor(&self, imports: &Imports, path: &[Name]) -> Option<ErrorCtor> {
        let (ty, method) = super::assoc(imports, path)?;
        if !self.is_protocol_error_type(&Ty::Path {
            path: ty.into(),
            args: Vec::new(),
        }) {
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

    fn parses_arguments(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        resolved.last().is_some_and(|l| l == "parse_json_object")
            && (path.len() == 1 || resolved.first().is_some_and(|r| r == "rmcp"))
    }

    fn is_success_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "success" | "structured"))
            if ty.last().is_some_and(|s| s == "CallToolResult"))
    }

    fn error_variant_of(&self, success_ctor: &str) -> Option<&'static str> {
        match success_ctor {
            "success" => Some("error"),
            "structured" => Some("structured_error"),
            _ => None,
        }
    }

    fn is_error_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "error" | "structured_error"))
            if ty.last().is_some_and(|s| s == "CallToolResult"))
    }

    fn is_text_content_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        matches!(super::assoc(imports, path), Some((ty, "text"))
            if ty.last().is_some_and(|s| s == "Content" || s == "ContentBlock" || s == "RawContent"))
    }

    fn is_error_code_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        resolved.last().is_some_and(|s| s == "ErrorCode")
            && (resolved.first().is_some_and(|s| s == "rmcp")
                || self.is_rmcp_path(imports, path, &[&["rmcp", "model", "ErrorCode"]]))
    }

    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        let Some(last) = resolved.last() else {
            return false;
        };
        (last == "stdio" || last == "stdio_pipes")
            && (resolved.first().is_some_and(|s| s == "rmcp")
                || self.is_rmcp_path(
                    imports,
                    path,
                    &[
                        &["rmcp", "transport", "stdio"],
                        &["rmcp", "transport", "io", "stdio"],
                        &["rmcp", "transport", "stdio_pipes"],
                        &["rmcp", "transport", "io", "stdio_pipes"],
                    ],
                ))
    }

    fn is_stdio_pair(&self, imports: &Imports, a: &[Name], b: &[Name]) -> bool {
        let is = |path: &[Name], name: &str| {
            let resolved = imports.resolve_segments(path);
            resolved.last().is_some_and(|s| s == name)
                && resolved
                    .first()
                    .is_some_and(|r| r == "tokio" || r == "std" || path.len() == 1)
        };
        is(a, "stdin") && is(b, "stdout")
    }

    fn converts_argument_errors(&self, role: Role) -> bool {
        role == Role::Tool && self.at_least(1, 8)
    }

    fn unknown_tool_error(&self, name: &str) -> String {
        format!(
            "return Err(ErrorData::invalid_params(format!(\"unknown tool: {{{name}}}\"), None));"
        )
    }

    fn text_content(&self) -> &'static str {
        if self.at_least(2, 0) {
            "ContentBlock::text"
        } else {
            "Content::text"
        }
    }

    fn can_return_error_result(&self, role: Role, ret: &Ty) -> bool {
        match role {
            Role::Dispatcher => true,
            Role::Tool => ret
                .as_result()
                .is_some_and(|(ok, _)| ok.last_segment() == Some("CallToolResult")),
            _ => false,
        }
    }

    fn error_result(&self, role: Role, message: &str) -> String {
        let result = format!(
            "CallToolResult::error(vec![{}({message})])",
            self.text_content()
        );
        if role == Role::Dispatcher && self.at_least(3, 0) {
            format!("Ok({result}.into())")
        } else {
            format!("Ok({result})")
        }
    }
}
