//@ dep: rmcp = "3.11"
// A CLI whose subcommands all have a `run`, dispatched on a value whose type the analysis does
// not know: `command.run()` could be any of them, so it is not taken as the way to the stdio
// transport, and the other subcommands' output is not on the serving path (clean). The serve
// command's own banner before serving is (reported).
use rmcp::{ServerHandler, ServiceExt, transport::stdio};

#[derive(Clone)]
pub struct Server;

impl ServerHandler for Server {}

pub struct Serve;
pub struct List;
pub struct Show;
pub struct Clean;
pub struct Doctor;

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

impl Show {
    pub async fn run(self) -> anyhow::Result<()> {
        println!("shown");
        Ok(())
    }
}

impl Clean {
    pub async fn run(self) -> anyhow::Result<()> {
        println!("cleaned");
        Ok(())
    }
}

impl Doctor {
    pub async fn run(self) -> anyhow::Result<()> {
        println!("all good");
        Ok(())
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = cli::parse(std::env::args());
    command.run().await
}
