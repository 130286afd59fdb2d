//! mcp-attr (frozenlib). `#[mcp_server] impl McpServer for S { #[tool] async fn x(..) ->
//! mcp_attr::Result<T> }`: a tool's `Err` becomes a JSON-RPC error (-32603 for plain errors;
//! `bail_public!(code, ..)` picks the code). Served with `serve_stdio(server)`.

use super::Role;
use super::table::Spec;
use crate::sdk::Channel;

pub static SPEC: Spec = Spec {
    package: "mcp-attr",
    krate: "mcp_attr",
    trait_methods: &[("McpServer", "tools_call", Role::Dispatcher)],
    tool_attrs: &["tool"],
    request_attrs: &["prompt", "resource"],
    tool_channel: Channel::Protocol,
    tool_error_code: None,
    error_types: &["Error"],
    invalid_params_ctors: &[],
    tool_error_ctors: &[],
    stdio_methods: &[],
    stdio_fns: &["serve_stdio"],
    success_ctors: &[],
    error_result_ctors: &[],
    text_ctors: &[],
    result_types: &["CallToolResult"],
    error_code_type: Some("ErrorCode"),
    catches_panics: false,
    panic_guard_method: None,
    handler_closure_methods: &[],
    handler_wrappers: &[],
    early_error_macros: &["bail_public"],
    error_builders: &["with_message", "with_source"],
    error_result: "Ok(CallToolResult { content: vec![{message}.into()], is_error: Some(true), meta: Default::default() })",
    unknown_tool_error: "bail_public!(ErrorCode::INVALID_PARAMS, \"unknown tool: {name}\");",
    text_content: "Content::text",
    earlier: &[],
};
