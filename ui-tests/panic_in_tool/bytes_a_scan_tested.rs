//@ dep: rmcp = "1.6"
// A byte scan that tested bytes at its cursor to be ASCII (`bytes[i] == b'%'`,
// `bytes.get(i + 1) == Some(&b'[')`) knows offsets up to past them are char boundaries: slicing
// there cannot split a character. A step past the tested bytes (`&s[i + 1..i + 3]` after one
// test) can land inside one.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub s: String,
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b as char);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    out
}

fn wiki(content: &str) -> Vec<&str> {
    let bytes = content.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'[' && bytes.get(i + 1) == Some(&b'[') {
            if let Some(rel) = content[i + 2..].find("]]") {
                out.push(&content[i + 2..i + 2 + rel]);
            }
        }
        i += 1;
    }
    out
}

#[tool_router]
impl Server {
    #[tool(description = "count")]
    async fn count(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(format!("{} {:?}", decode(&a.s), wiki(&a.s)))
    }
}
