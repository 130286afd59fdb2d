//! turbomcp (Epistates). `#[server] impl S { #[tool] async fn x(&self, ..) -> McpResult<T> }`:
//! from 3.0 the generated dispatch turns a tool's `Err` into an `isError` result
//! (`IntoToolResult for Result`), and the server catches panics (3.x answers them with
//! -32603); 2.x answered the `Err` with a JSON-RPC error and left a panicking request
//! unanswered. Served with `S.run_stdio()`.

use super::Role;
use super::table::{Era, Spec};
use crate::sdk::Channel;
use crate::workspace::Version;

pub static SPEC: Spec = Spec {
    package: "turbomcp",
    krate: "turbomcp",
    trait_methods: &[("McpHandler", "call_tool", Role::Dispatcher)],
    tool_attrs: &["tool"],
    request_attrs: &["prompt", "resource"],
    tool_channel: Channel::ToolError,
    tool_error_code: None,
    error_types: &["McpError"],
    invalid_params_ctors: &["invalid_params"],
    tool_error_ctors: &[],
    stdio_methods: &["run_stdio"],
    stdio_fns: &[],
    success_ctors: &[],
    error_result_ctors: &[],
    text_ctors: &[],
    result_types: &["CallToolResult"],
    error_code_type: None,
    catches_panics: true,
    panic_guard_method: None,
    handler_closure_methods: &[],
    handler_wrappers: &[],
    early_error_macros: &[],
    error_builders: &[],
    error_result: "Err(McpError::internal({message}))",
    unknown_tool_error: "return Err(McpError::invalid_params(format!(\"unknown tool: {name}\")));",
    text_content: "Content::text",
    // 2.x: the generated dispatch maps the tool's `McpError` to a `ServerError`, which the
    // router answers with a JSON-RPC error; a panicking request task is only logged.
    earlier: &[Era {
        below: Version(3, 0, 0),
        tool_channel: Channel::Protocol,
        catches_panics: false,
        // It also sends a tool's `Ok` value as text with `isError: false`, whatever it is.
        no_error_result: Some(
            "turbomcp before 3.0 answers every `Err` of a tool with a JSON-RPC error and cannot send `isError: true`; from 3.0 the same `Err` becomes an `isError` result: upgrade turbomcp",
        ),
    }],
};
