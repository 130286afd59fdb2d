//@ dep: rmcp = "3.11"
// Text read by std (`fs::read_to_string`, `env::var`) is a `String`: its prefix cut at a byte
// offset can split a character whatever byte length was checked (reported). A length tested
// by a `match` on `len()` guards like a comparison does: the single element of a
// one-element list is there (not reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::tool;
use rmcp::tool_router;
use std::fs;

pub struct Reader;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Request {
    pub path: String,
    pub names: Vec<String>,
}

#[tool_router]
impl Reader {
    #[tool(description = "The head of a file")]
    async fn head(&self, Parameters(req): Parameters<Request>) -> Result<String, String> {
        let text = fs::read_to_string(&req.path).map_err(|e| e.to_string())?;
        if text.len() > 80 {
            return Ok(text[..80].to_string());
        }
        Ok(text)
    }

    #[tool(description = "The only name, if there is one")]
    async fn only(&self, Parameters(req): Parameters<Request>) -> Result<String, String> {
        match req.names.len() {
            1 => Ok(req.names.into_iter().next().unwrap()),
            n => Err(format!("expected one name, got {n}")),
        }
    }
}
