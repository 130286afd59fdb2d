//@ dep: rmcp = "3.11"
// Panics inside macro arguments are on the tool's path like any other code: a helper called
// in a `tracing` macro's arguments, a `tokio::select!` branch, and a helper the crate's own
// `macro_rules!` body calls where it is expanded in the tool.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub items: Vec<String>,
    pub index: usize,
}

fn pick(items: &[String], i: usize) -> &str {
    &items[i]
}

fn parse_number(s: &str) -> u64 {
    s.parse().unwrap()
}

macro_rules! number {
    ($s:expr) => {
        parse_number($s)
    };
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Logs the chosen item")]
    async fn log_item(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        tracing::info!("item: {}", pick(&a.items, a.index));
        Ok("logged".into())
    }

    #[tool(description = "Waits for an item or a timeout")]
    async fn wait(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(1);
        drop(tx);
        tokio::select! {
            got = rx.recv() => Ok(got.unwrap()),
            _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => Err(format!("no item among {}", a.items.len())),
        }
    }

    #[tool(description = "Adds numbers")]
    async fn sum(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut total = 0;
        for item in &a.items {
            total += number!(item);
        }
        Ok(total.to_string())
    }
}
