//@ dep: rmcp = "3.11"
//@ dep: tracing-subscriber = "0.3"
// The transport is chosen once, into a value every later decision reads. A `match` on that
// value in one place and another `match` on it later take arms of the same variant: the
// logger set up in the `Http` arm never runs in an execution that serves stdio (clean), and
// neither does the one a flag holding `matches!(mode, Mode::Stdio)` turns off. A banner
// printed whenever the mode is not `Http` does run while stdio serves (reported).
use rmcp::{ServerHandler, ServiceExt, transport::stdio};

#[derive(Clone)]
pub struct Server;

impl ServerHandler for Server {}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Stdio,
    Http,
}

fn chosen_mode() -> Mode {
    if std::env::args().any(|a| a == "--http") {
        Mode::Http
    } else {
        Mode::Stdio
    }
}

fn access_log(to_stderr: bool) {
    if to_stderr {
        tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    } else {
        tracing_subscriber::fmt().pretty().init();
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mode = chosen_mode();
    match mode {
        Mode::Http => tracing_subscriber::fmt().compact().init(),
        Mode::Stdio => {}
    }
    let quiet = matches!(mode, Mode::Stdio);
    access_log(quiet);
    if mode != Mode::Http {
        println!("serving over stdio");
    }
    match mode {
        Mode::Stdio => {
            let service = Server.serve(stdio()).await?;
            service.waiting().await?;
        }
        Mode::Http => {
            let listener = std::net::TcpListener::bind("127.0.0.1:8080")?;
            drop(listener);
        }
    }
    Ok(())
}
