//@ dep: rmcp = "1.6"
// A local assigned `Some(..)` holds `Some` afterwards: `x.unwrap()` (or `x.as_ref().unwrap()`)
// after `x = Some(..)` finds it, as after `x.is_some()`. One never assigned is reported.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub since: Option<String>,
    pub until: Option<String>,
}

#[tool_router]
impl Server {
    #[tool(description = "A window of time")]
    async fn window(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut start: Option<u64> = None;
        let mut end: Option<u64> = None;
        if let Some(s) = &a.since {
            start = Some(s.parse().map_err(|_| "since is no number")?);
            let from = start.as_ref().unwrap();
            tracing::info!("from {from}");
        }
        if a.until.is_some() {
            let to = end.unwrap();
            tracing::info!("to {to}");
        }
        end = end.or(start);
        Ok(format!("{start:?} {end:?}"))
    }
}
