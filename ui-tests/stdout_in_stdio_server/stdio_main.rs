//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// A stdio server: stdout writes on the serving path are reported; --version and other
// subcommands that exit before serving are not.
use std::io::Write;

use rmcp::ServiceExt;
use rmcp::transport::stdio;

pub struct Server;

impl rmcp::ServerHandler for Server {}

fn print_config() {
    println!("config: default");
}

fn init_logging() {
    tracing_subscriber::fmt().with_ansi(false).init();
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = std::env::args().nth(1).unwrap_or_default();
    if command == "--version" {
        println!("server 1.0");
        return Ok(());
    }
    match command.as_str() {
        "print-config" => print_config(),
        _ => {
            init_logging();
            println!("starting");
            std::io::stdout().write_all(b"ready\n")?;
            eprintln!("logs go to stderr");
            std::process::Command::new("git").arg("status").status()?;
            let out = std::process::Command::new("git").arg("log").output()?;
            eprintln!("{}", out.status);
            let service = Server.serve(stdio()).await?;
            service.waiting().await?;
        }
    }
    Ok(())
}
