//@ dep: rmcp = "1.6"
//@ dep: tokio = "1"
// A task started with `spawn`/`spawn_blocking`/`thread::spawn` catches its own panics: the
// panic ends that task and reaches the caller only as its join handle's `Err`. The request
// is still answered, unless the caller unwraps that join on the spot.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use tokio::task::spawn_blocking as off_thread;

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub count: String,
}

fn parse_count(text: &str) -> u32 {
    text.trim().parse().unwrap()
}

#[tool_router]
impl Server {
    #[tool(description = "Starts a background job and answers at once")]
    async fn start(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let text = args.count.clone();
        tokio::spawn(async move {
            let n = parse_count(&text);
            let _ = n;
        });
        std::thread::spawn(move || {
            let first: Option<char> = args.count.chars().next();
            first.expect("a digit");
        });
        Ok("started".to_string())
    }

    #[tool(description = "Counts on a blocking thread; a panic there comes back as an error")]
    async fn count(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let n = off_thread(move || parse_count(&args.count))
            .await
            .map_err(|e| format!("counting failed: {e}"))?;
        Ok(n.to_string())
    }

    #[tool(description = "Unwraps the join, so the task's panic resumes in the handler")]
    async fn count_or_panic(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let n = tokio::task::spawn_blocking(move || parse_count(&args.count))
            .await
            .unwrap();
        Ok(n.to_string())
    }
}
