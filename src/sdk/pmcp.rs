//! pmcp (paiml). Tools are `ToolHandler::handle` impls or closures given to
//! `ServerBuilder::tool_typed(..)`. `ToolHandler::handle` returns `pmcp::Result<Value>`; the server answers every
//! `Err` with JSON-RPC -32603 and the error's text (only `Error::ToolRejected` becomes an
//! `isError` result). Served over stdio with `server.run_stdio()`.

use super::Role;
use super::table::Spec;
use crate::sdk::Channel;

pub static SPEC: Spec = Spec {
    package: "pmcp",
    krate: "pmcp",
    trait_methods: &[
        ("ToolHandler", "handle", Role::TraitTool),
        ("PromptHandler", "handle", Role::Request),
        ("ResourceHandler", "read", Role::Request),
    ],
    tool_attrs: &["mcp_tool"],
    request_attrs: &["mcp_prompt", "mcp_resource"],
    tool_channel: Channel::Protocol,
    tool_error_code: Some(-32603),
    error_types: &["Error"],
    invalid_params_ctors: &["invalid_params", "validation"],
    tool_error_ctors: &["tool_rejected"],
    stdio_methods: &["run_stdio"],
    stdio_fns: &[],
    success_ctors: &[],
    error_result_ctors: &[],
    text_ctors: &[],
    result_types: &["CallToolResult"],
    error_code_type: None,
    catches_panics: false,
    panic_guard_method: None,
    handler_closure_methods: &[
        "tool_typed",
        "tool_typed_with_description",
        "tool_typed_sync",
        "tool_typed_sync_with_description",
        "tool_typed_with_output",
        "tool_typed_with_output_and_description",
    ],
    handler_wrappers: &[
        "TypedTool",
        "TypedSyncTool",
        "TypedToolWithOutput",
        "SimpleTool",
        "SyncTool",
    ],
    early_error_macros: &[],
    error_builders: &[],
    error_result: "Err(pmcp::Error::tool_rejected({message}, None))",
    unknown_tool_error: "return Err(pmcp::Error::invalid_params(format!(\"unknown tool: {name}\")));",
    text_content: "Content::text",
    earlier: &[],
};
