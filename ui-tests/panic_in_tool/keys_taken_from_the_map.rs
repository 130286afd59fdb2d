//@ dep: rmcp = "1.6"
// A key taken from a map itself (its `keys()`, some of them, or a set collected from them and
// the elements of its difference or intersection with another set) is one the map has:
// `get(k).unwrap()` finds its entry; an element of an intersection is a key of both sets'
// maps. A key of another map can be missing (reported), so can one only here taken to there.
use std::collections::{HashMap, HashSet};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Inventory;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Stock {
    pub here: HashMap<String, u32>,
    pub there: HashMap<String, u32>,
}

#[tool_router]
impl Inventory {
    #[tool(description = "Total of the items here")]
    async fn total(&self, Parameters(s): Parameters<Stock>) -> String {
        let mut total = 0;
        for item in s.here.keys() {
            total += s.here.get(item).unwrap();
        }
        total.to_string()
    }

    #[tool(description = "Items only here, with their counts")]
    async fn only_here(&self, Parameters(s): Parameters<Stock>) -> String {
        let here: HashSet<&String> = s.here.keys().collect();
        let there: HashSet<&String> = s.there.keys().collect();
        let counts: Vec<u32> = here.difference(&there).map(|item| *s.here.get(*item).unwrap()).collect();
        format!("{counts:?}")
    }

    #[tool(description = "Items in both, with both counts")]
    async fn both(&self, Parameters(s): Parameters<Stock>) -> String {
        let here: HashSet<&String> = s.here.keys().collect();
        let there: HashSet<&String> = s.there.keys().collect();
        let pairs: Vec<(u32, u32)> = here
            .intersection(&there)
            .map(|item| (*s.here.get(*item).unwrap(), *s.there.get(*item).unwrap()))
            .collect();
        let gone: Vec<u32> = here.difference(&there).map(|item| *s.there.get(*item).unwrap()).collect();
        format!("{pairs:?} {gone:?}")
    }

    #[tool(description = "Counts there of the items here (reported)")]
    async fn there_too(&self, Parameters(s): Parameters<Stock>) -> String {
        let mut total = 0;
        for item in s.here.keys() {
            total += s.there.get(item).unwrap();
        }
        total.to_string()
    }
}
