//@ dep: rmcp = "3.11"
// Subcommands as enum variants carrying their arguments: `Command::Serve(c) => c.run()` calls
// `Serve::run`, the type the variant holds, not every `run` of the crate. The listing command
// prints (clean: it never runs while the server serves); the server's own banner does not
// belong on stdout (reported).
use rmcp::{ServerHandler, ServiceExt, transport::stdio};

#[derive(Clone)]
pub struct Server;

impl ServerHandler for Server {}

pub struct Serve {
    pub quiet: bool,
}

pub struct List;

impl Serve {
    pub async fn run(self) -> anyhow::Result<()> {
        println!("serving over stdio");
        Server.serve(stdio()).await?.waiting().await?;
        Ok(())
    }
}

impl List {
    pub async fn run(self) -> anyhow::Result<()> {
        println!("a\nb");
        Ok(())
    }
}

pub enum Command {
    Serve(Serve),
    List(List),
}

impl Command {
    pub async fn run(self) -> anyhow::Result<()> {
        match self {
            Self::Serve(c) => c.run().await,
            Self::List(c) => c.run().await,
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = if std::env::args().nth(1).as_deref() == Some("list") {
        Command::List(List)
    } else {
        Command::Serve(Serve { quiet: false })
    };
    match command {
        Command::Serve(serve) => serve.run().await,
        other => other.run().await,
    }
}
