//@ dep: rmcp = "1.6"
// A map has an entry for a key the fn put in it (`insert`, `entry(..).or_insert*`) or
// tested it for (`contains_key`): `get(k)` / `get_mut(k)` on it then finds one, however the
// key is borrowed or converted. Another key, or another map, can still be missing.
use std::collections::HashMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub name: String,
    pub other: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Counts a name, creating its entry on first use")]
    async fn count(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut seen: HashMap<String, u32> = HashMap::new();
        if !seen.contains_key(&a.name) {
            seen.insert(a.name.to_string(), 0);
        }
        *seen.get_mut(&a.name).unwrap() += 1;
        let mut sizes: HashMap<String, usize> = HashMap::new();
        sizes.entry(a.other.clone()).or_insert(0);
        let size = sizes.get(&a.other).copied().unwrap();
        Ok(format!("{} {size}", seen.get(a.name.as_str()).unwrap()))
    }

    #[tool(description = "Looks up keys nobody put there")]
    async fn lookup(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut seen: HashMap<String, u32> = HashMap::new();
        let other: HashMap<String, u32> = HashMap::new();
        seen.insert(a.name.clone(), 1);
        let missing = seen.get(&a.other).unwrap();
        let elsewhere = other.get(&a.name).unwrap();
        Ok(format!("{missing} {elsewhere}"))
    }
}
