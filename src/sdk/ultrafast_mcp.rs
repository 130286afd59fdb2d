//! ultrafast-mcp. One `ToolHandler::handle_tool_call(&self, call: ToolCall) -> MCPResult<..>`
//! dispatches every tool; its `Err` becomes a JSON-RPC error (-32602 for invalid params and
//! not-found, else -32603). Served with `server.run_stdio()`.

use super::Role;
use super::table::Spec;
use crate::sdk::Channel;

pub static SPEC: Spec = Spec {
    package: "ultrafast-mcp",
    krate: "ultrafast_mcp",
    trait_methods: &[
        ("ToolHandler", "handle_tool_call", Role::Dispatcher),
        ("ToolHandler", "list_tools", Role::Request),
    ],
    tool_attrs: &[],
    request_attrs: &[],
    tool_channel: Channel::Protocol,
    tool_error_code: None,
    error_types: &["MCPError"],
    invalid_params_ctors: &["invalid_params"],
    tool_error_ctors: &[],
    stdio_methods: &["run_stdio"],
    stdio_fns: &[],
    success_ctors: &[],
    error_result_ctors: &[],
    text_ctors: &[("ToolContent", "text")],
    result_types: &["ToolResult"],
    error_code_type: None,
    catches_panics: false,
    panic_guard_method: None,
    handler_closure_methods: &[],
    handler_wrappers: &[],
    early_error_macros: &[],
    error_builders: &[],
    error_result: "Ok(ToolResult { content: vec![ToolContent::text({message})], is_error: Some(true) })",
    unknown_tool_error: "return Err(MCPError::invalid_params(format!(\"unknown tool: {name}\")));",
    text_content: "ToolContent::text",
    earlier: &[],
};
