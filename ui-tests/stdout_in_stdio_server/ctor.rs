//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
//@ dep: ctor = "0.2"
// A `#[ctor]` fn runs before `main`, in the stdio server's process too: a logger it installs
// without a stderr writer corrupts stdout (reported); one writing to stderr is clean.
use rmcp::ServiceExt;
use rmcp::transport::stdio;

pub struct Server;

impl rmcp::ServerHandler for Server {}

#[ctor::ctor]
fn install_logging() {
    tracing_subscriber::fmt().with_test_writer().init();
}

#[ctor::ctor]
fn install_stderr_logging() {
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let service = Server.serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
