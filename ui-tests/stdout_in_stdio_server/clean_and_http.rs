//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// The correct logging setup for a stdio server, and an HTTP-only server (in the same crate
// only the stdio path matters): nothing is reported.
use rmcp::ServiceExt;
use rmcp::transport::stdio;

pub struct Server;

impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    if std::env::var("HTTP").is_ok() {
        println!("listening on :8080");
        return serve_http().await;
    }
    let service = Server.serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}

async fn serve_http() -> anyhow::Result<()> {
    println!("http mode");
    Ok(())
}
