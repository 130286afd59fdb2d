//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// A writer that is stdout already: the fix replaces it (a second `.with_writer` in front of
// it would lose to it), so one `--fix` is enough and a second one changes nothing.
use rmcp::ServiceExt;
use rmcp::transport::stdio;
use tracing_subscriber::fmt;
use tracing_subscriber::prelude::*;

pub struct Server;

impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::registry()
        .with(fmt::layer().with_writer(std::io::stdout).with_ansi(false))
        .init();
    Server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
