//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// `with_test_writer()` prints through the test harness's capture, which is stdout outside
// tests: the fix swaps it for a stderr writer.
use rmcp::ServiceExt;
use rmcp::transport::stdio;

pub struct Server;

impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_test_writer().init();
    Server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
