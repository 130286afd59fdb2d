use rmcp::{ServiceExt, transport::stdio};

mod notes;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().any(|a| a == "--version") {
        println!("notes-server {}", env!("CARGO_PKG_VERSION"));
        return Ok(());
    }
    tracing_subscriber::fmt().with_ansi(false).init();
    println!("notes-server starting");
    let service = notes::Notes::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
