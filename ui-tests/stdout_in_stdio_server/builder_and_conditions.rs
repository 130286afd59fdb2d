//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// A logger built in a variable and installed later writes to stdout (reported where it is
// built). The same flag that picks the stdio transport also gates a second logger: under
// `if !stdio` it never runs while stdio serves (clean); under `if stdio` it always does.
use rmcp::ServiceExt;
use rmcp::transport::stdio;

pub struct Server;

impl rmcp::ServerHandler for Server {}

fn setup_logging(filter: &str) {
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    builder.init();
}

fn verbose_logging(stdio: bool) {
    if !stdio {
        tracing_subscriber::fmt().compact().init();
    }
    if stdio {
        tracing_subscriber::fmt().pretty().init();
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let stdio_mode = std::env::args().any(|a| a == "--stdio");
    setup_logging("info");
    verbose_logging(stdio_mode);
    if stdio_mode {
        let service = Server.serve(stdio()).await?;
        service.waiting().await?;
    }
    Ok(())
}
