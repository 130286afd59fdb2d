// Helpers that take an `Option` and unwrap it panic when a tool passes them `None`: the
// request is never answered. A default (`unwrap_or`) does not panic. (The metamorphic check
// adds statements that touch no failure path, such as `if limit.is_none() {}`, to these
// helpers: the verdict must stay.)
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    query: String,
    limit: Option<usize>,
    offset: Option<usize>,
}

fn page_size(limit: Option<usize>) -> usize {
    limit.unwrap()
}

fn first_index(offset: Option<usize>) -> usize {
    offset.unwrap_or(0)
}

pub struct Search;

#[tool_router]
impl Search {
    #[tool(description = "Search the index")]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> String {
        let size = page_size(args.limit);
        let from = first_index(args.offset);
        format!("{} results from {from} for {}", size, args.query)
    }
}

fn main() {}
