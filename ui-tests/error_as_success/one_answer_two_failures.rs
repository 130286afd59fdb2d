//@ dep: rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Where failure text is put into the answer decides where it is reported. Text made inside
// the answer itself, on every path, is the answer's (`Ok(format!(..))` over several lines is
// reported at the `Ok`, as it is when a helper makes the text). An answer that picks between
// two failure texts (`Ok(if .. { format!(..) } else { format!(..) })`) has two places to change.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    pub key: String,
    pub as_json: bool,
}

fn table() -> std::collections::HashMap<String, String> {
    std::collections::HashMap::new()
}

pub struct Store;

#[tool_router]
impl Store {
    #[tool(description = "Read a key")]
    async fn read(&self, Parameters(l): Parameters<Lookup>) -> Result<String, String> {
        if l.key.is_empty() {
            return Ok(format!(
                "Error: the key is empty (got {:?})",
                l.key
            ));
        }
        match table().get(&l.key) {
            Some(v) => Ok(v.clone()),
            None => Ok(if l.as_json {
                format!("Failed to find key {}", l.key)
            } else {
                format!("Error: no key {}", l.key)
            }),
        }
    }
}

fn main() {}
