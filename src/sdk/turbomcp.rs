//! turbomcp (Epistates). `#[server] impl S { #[tool] async fn x(&self, ..) -> McpResult<T> }`:
//! the generated dispatch turns a tool's `Err` into an `isError` result, and the server catches
//! panics (3.x answers them with -32603). Served with `S.run_stdio()`.

use super::Role;
use super::table::Spec;
use crate::sdk::Channel;

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
};
