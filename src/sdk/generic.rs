//! An MCP SDK that is not in our table (`mcp-server`, `mcp_rust_sdk`, a fork or rename of a
//! known one): what every MCP server shares holds, what an SDK decides does not.
//!
//! Known without the SDK: a stdio server's stdout is the JSON-RPC channel, so the serving path
//! from `main` is checked for stdout; nothing is assumed to catch a handler's panic. Tools are
//! closures given to a registration call (`with_tool(def, |args| ..)`) or fns under a
//! `#[tool]`-like attribute. Not known: where a handler's `Err` goes, and which of the SDK's
//! types are success or error results, so the lints that need the error channel stay off and
//! the summary line says so.

use super::{Channel, ErrorCtor, ImplContext, Role, Sdk};
use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::{Package, Version};

pub struct GenericSdk {
    package: String,
    krate: String,
    version: Option<Version>,
}

/// Registration methods whose closure argument is a tool handler, across SDKs.
const REGISTRATIONS: &[&str] = &[
    "with_tool",
    "register_tool",
    "add_tool",
    "tool",
    "tool_handler",
    "add_tool_handler",
    "register_tool_handler",
];

/// Methods that serve a server over stdio, across SDKs.
const STDIO_METHODS: &[&str] = &["run_stdio", "serve_stdio", "start_stdio", "listen_stdio"];

impl GenericSdk {
    /// The dependency of `package` that looks like an MCP server SDK, if any: its name has
    /// `mcp` as a word or a prefix/suffix of one (`mcp-server`, `mcpr`, `async-mcp`, a
    /// `rmcp-*` fork) or `modelcontextprotocol`, it is not a client library, and it is not a
    /// member of the workspace (`members`: their names).
    pub fn detect(package: &Package, members: &[&str]) -> Option<GenericSdk> {
        let dep = package.dependencies.iter().find(|d| {
            looks_like_server_sdk(&d.package) && !members.contains(&d.package.as_str())
        })?;
        Some(GenericSdk {
            package: dep.package.clone(),
            krate: dep.extern_name.clone(),
            version: package.resolved_version(&dep.package),
        })
    }
}

fn looks_like_server_sdk(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let words: Vec<&str> = lower.split(['-', '_']).collect();
    if words
        .iter()
        .any(|w| matches!(*w, "client" | "macros" | "derive" | "types"))
    {
        return false;
    }
    lower.contains("modelcontextprotocol")
        || words
            .iter()
            .any(|w| *w == "mcp" || w.starts_with("mcp") || w.ends_with("mcp"))
}

impl Sdk for GenericSdk {
    fn name(&self) -> &str {
        &self.package
    }

    fn version(&self) -> Option<Version> {
        self.version
    }

    fn error_channel_known(&self) -> bool {
        false
    }

    fn role(
        &self,
        _imports: &Imports,
        _implementation: Option<&ImplContext>,
        attrs: &[super::Attr],
        name: &str,
        _ret: &Ty,
    ) -> Role {
        if name == "main" || super::has_attr(attrs, "main") {
            return Role::Startup;
        }
        let tool_attr = attrs.iter().any(|a| {
            a.path
                .last()
                .is_some_and(|l| l == "tool" || l.ends_with("_tool") || l.starts_with("tool_"))
        });
        if tool_attr { Role::Tool } else { Role::None }
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

    fn is_error_code_ctor(&self, _imports: &Imports, _path: &[Name]) -> bool {
        false
    }

    /// `StdioTransport::new()`, `StdioServerTransport::default()`, `stdio()` from the SDK.
    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        let n = resolved.len();
        let transport_ctor = n >= 2
            && resolved[n - 2].contains("Stdio")
            && matches!(resolved[n - 1].as_str(), "new" | "default");
        let stdio_fn = resolved.last().is_some_and(|l| l == "stdio")
            && imports.may_come_from(path, &self.krate);
        transport_ctor || stdio_fn
    }

    fn is_stdio_method(&self, method: &str) -> bool {
        STDIO_METHODS.contains(&method)
    }

    fn is_stdio_pair(&self, _imports: &Imports, _a: &[Name], _b: &[Name]) -> bool {
        false
    }

    fn handler_closure_methods(&self) -> &'static [&'static str] {
        REGISTRATIONS
    }

    fn converts_argument_errors(&self, _role: Role) -> bool {
        false
    }

    fn unknown_tool_error(&self, _name: &str) -> String {
        String::new()
    }

    fn text_content(&self) -> &'static str {
        ""
    }

    fn error_result(&self, _role: Role, message: &str) -> String {
        format!("the SDK's error result carrying {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::looks_like_server_sdk;

    #[test]
    fn server_sdks_by_name_and_not_clients_or_helpers() {
        for name in [
            "mcp-server",
            "mcp_rust_sdk",
            "mcpr",
            "async-mcp",
            "mcp-sdk-rs",
            "rmcp-fork",
            "modelcontextprotocol-server",
        ] {
            assert!(looks_like_server_sdk(name), "{name}");
        }
        for name in [
            "mcp-client",
            "mcp-types",
            "mcp-macros",
            "serde_json",
            "tokio",
        ] {
            assert!(!looks_like_server_sdk(name), "{name}");
        }
    }
}
