//@ dep: rust-mcp-sdk = "1.0"
//@ dep: async-trait = "0.1"
// A CLI that is also a stdio MCP server: shared commands print only `if show_output`, and the
// MCP handler passes `false`; the CLI's `true` call is in another match arm. Output that the
// handler does reach is reported.
use std::sync::Arc;

use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};
use rust_mcp_sdk::{McpServer, StdioTransport, TransportOptions};

pub fn list(verbose: bool, show_output: bool) -> Vec<String> {
    let items = vec!["a".to_string()];
    if show_output {
        print_items(&items);
    }
    if verbose {
        println!("listed {} items", items.len());
    }
    items
}

fn print_items(items: &[String]) {
    for item in items {
        println!("{item}");
    }
}

pub struct Handler;

#[async_trait::async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        let items = list(true, false);
        Ok(CallToolResult::text_content(vec![TextContent::from(format!(
            "{}: {}",
            params.name,
            items.join(",")
        ))]))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match std::env::args().nth(1).as_deref() {
        Some("list") => {
            list(false, true);
        }
        _ => {
            let transport = StdioTransport::new(TransportOptions::default())?;
            let _ = transport;
        }
    }
    Ok(())
}
