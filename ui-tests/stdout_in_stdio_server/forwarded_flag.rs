//@ dep: rmcp = "3.11"
// A `quiet` flag passed on from fn to fn: the tool passes `true` two calls up, so the progress
// print never runs while the server serves (clean). Another tool passes `verbose = true` down
// the same way, and its print does (reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, ServiceExt, tool, tool_router, transport::stdio};

fn scan_all(quiet: bool) -> usize {
    if !quiet {
        println!("scanning every file");
    }
    3
}

fn scan_changed(quiet: bool) -> usize {
    scan_all(quiet)
}

fn report(verbose: bool) -> usize {
    if verbose {
        println!("reporting");
    }
    1
}

fn report_all(verbose: bool) -> usize {
    report(verbose)
}

#[derive(Clone)]
pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Rescan what changed")]
    async fn rescan(&self, Parameters(_args): Parameters<Args>) -> String {
        scan_changed(true).to_string()
    }

    #[tool(description = "Report")]
    async fn summary(&self, Parameters(_args): Parameters<Args>) -> String {
        report_all(true).to_string()
    }
}

impl ServerHandler for Server {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    Server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
