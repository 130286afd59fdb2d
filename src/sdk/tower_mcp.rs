//! tower-mcp. Tools are closures given to `ToolBuilder::..handler(..)`; the router turns every
//! handler `Err` into an `isError` result and answers unknown tools with -32602 itself.
//! Panics are caught only with the opt-in `McpRouter::catch_panics()`. Served with
//! `StdioTransport::new(router).run()`.

use super::table::Spec;
use crate::sdk::Channel;

pub static SPEC: Spec = Spec {
    package: "tower-mcp",
    krate: "tower_mcp",
    trait_methods: &[],
    tool_attrs: &["tool_fn"],
    request_attrs: &[],
    tool_channel: Channel::ToolError,
    tool_error_code: None,
    error_types: &["Error", "ToolError"],
    invalid_params_ctors: &["invalid_params"],
    tool_error_ctors: &[],
    stdio_methods: &[],
    stdio_fns: &["StdioTransport::new"],
    success_ctors: &[("CallToolResult", "text"), ("CallToolResult", "json")],
    error_result_ctors: &[("CallToolResult", "error")],
    text_ctors: &[],
    result_types: &["CallToolResult"],
    error_code_type: None,
    catches_panics: false,
    panic_guard_method: Some("catch_panics"),
    handler_closure_methods: &["handler", "extractor_handler", "no_params_handler"],
    handler_wrappers: &[],
    early_error_macros: &[],
    error_builders: &[],
    error_result: "Ok(CallToolResult::error({message}))",
    unknown_tool_error: "",
    text_content: "CallToolResult::text",
    earlier: &[],
};
