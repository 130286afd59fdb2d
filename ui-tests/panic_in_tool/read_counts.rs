//@ dep: rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A count `read` returned is at most the length of the buffer it filled, so slicing that
// buffer up to it cannot panic: through `?`, a mapped error or a matched `Ok(n)`. Up to and
// including it (`..=n`), slicing another buffer at it, or an index the caller chose, still
// can (reported). A search's index with a non-ASCII pattern is a boundary too when the end
// is exclusive.
use std::io::Read;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
    pub limit: usize,
}

#[tool_router]
impl Server {
    #[tool(description = "The head of a file")]
    async fn head(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut file = std::fs::File::open(&a.path).map_err(|e| e.to_string())?;
        let mut buf = [0u8; 4096];
        let n = file.read(&mut buf).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&buf[..n]).into_owned())
    }

    #[tool(description = "A whole file, in chunks")]
    async fn whole(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut file = std::fs::File::open(&a.path).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        let mut buf = vec![0u8; 4096];
        loop {
            match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    #[tool(description = "Off by one")]
    async fn inclusive(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut file = std::fs::File::open(&a.path).map_err(|e| e.to_string())?;
        let mut buf = [0u8; 4096];
        let n = file.read(&mut buf).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&buf[..=n]).into_owned())
    }

    #[tool(description = "Another buffer")]
    async fn other(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut file = std::fs::File::open(&a.path).map_err(|e| e.to_string())?;
        let mut buf = [0u8; 4096];
        let small = [0u8; 16];
        let n = file.read(&mut buf).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&small[..n]).into_owned())
    }

    #[tool(description = "The caller's limit")]
    async fn limited(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let buf = vec![0u8; 4096];
        Ok(String::from_utf8_lossy(&buf[..a.limit]).into_owned())
    }

    #[tool(description = "Up to an arrow")]
    async fn before_arrow(&self, Parameters(a): Parameters<Args>) -> String {
        match a.path.find('→') {
            Some(i) => a.path[..i].to_string(),
            None => a.path,
        }
    }
}

fn main() {}
