//@ dep: rmcp = "1.8"
// A project's own panic guard (a helper around catch_unwind) makes the code it runs safe;
// code outside the guard is still reported.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub pattern: String,
}

fn catch_unwind_result<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| "the search panicked".to_string())
}

fn search(pattern: &str) -> usize {
    let re = regex::Regex::new(pattern).unwrap();
    re.captures_len()
}

#[tool_router]
impl Server {
    #[tool(description = "Search, guarded")]
    async fn guarded(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        let n = catch_unwind_result(|| {
            let first = args.pattern.chars().next().unwrap();
            search(&args.pattern) + first.len_utf8()
        })?;
        Ok(n.to_string())
    }

    #[tool(description = "Search, unguarded")]
    async fn unguarded(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {
        Ok(search(&args.pattern).to_string())
    }
}
