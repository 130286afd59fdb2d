//! modelcontextprotocol-server (with mcp-protocol for the types). Tools are closures
//! `Fn(Value) -> anyhow::Result<ToolCallResult>` given to `ServerBuilder::with_tool(name,
//! description, schema, handler)` or `ToolManager::register_tool(tool, handler)`. The server
//! answers a handler's `Err` with JSON-RPC -32603 "Tool execution error: …" (never `isError`),
//! and an unknown tool the same way itself. Nothing catches a handler's panic. Served over
//! stdio with `.with_transport(StdioTransport::new())` then `server.run()`. (Verified in the
//! 0.1.5 sources: `server.rs` `handle_tools_call`, `tools/mod.rs`.)

use super::table::Spec;
use crate::sdk::Channel;

pub static SPEC: Spec = Spec {
    package: "modelcontextprotocol-server",
    krate: "modelcontextprotocol_server",
    trait_methods: &[],
    tool_attrs: &[],
    request_attrs: &[],
    tool_channel: Channel::Protocol,
    tool_error_code: Some(-32603),
    error_types: &[],
    invalid_params_ctors: &[],
    tool_error_ctors: &[],
    stdio_methods: &[],
    stdio_fns: &["StdioTransport::new"],
    success_ctors: &[],
    error_result_ctors: &[],
    text_ctors: &[],
    result_types: &["ToolCallResult"],
    error_code_type: None,
    catches_panics: false,
    panic_guard_method: None,
    handler_closure_methods: &["with_tool", "register_tool"],
    handler_wrappers: &[],
    early_error_macros: &[],
    error_builders: &[],
    error_result: "Ok(ToolCallResult { content: vec![ToolContent::Text { text: {message} }], is_error: Some(true) })",
    unknown_tool_error: "",
    text_content: "ToolContent::Text",
    earlier: &[],
};
