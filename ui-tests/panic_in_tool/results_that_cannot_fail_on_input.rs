//@ dep: rmcp = "1.6"
// Some results fail on the machine or the code alone, never on what a request sends: the time
// since the Unix epoch (only a clock set before 1970 fails it), and a slice of a length the
// code fixes converted to an array (the lengths match on every call or on none). Unwrapping
// them is no panic on caller data; a slice whose length the input decides is.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use std::time::{SystemTime, UNIX_EPOCH};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub data: Vec<u8>,
    pub width: usize,
}

fn words(data: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    for i in 0..data.len() / 8 {
        let at = i * 8;
        let lo = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
        let hi = u32::from_le_bytes(<[u8; 4]>::try_from(&data[at + 4..at + 8]).unwrap());
        out.push(lo ^ hi);
    }
    out
}

fn header(data: &[u8]) -> Option<u16> {
    if data.len() < 2 {
        return None;
    }
    Some(u16::from_be_bytes(data[..2].try_into().unwrap()))
}

fn word_of(data: &[u8], width: usize) -> u64 {
    u64::from_le_bytes(data[..width].try_into().unwrap())
}

#[tool_router]
impl Server {
    #[tool(description = "Stamp and decode")]
    async fn decode(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
        Ok(format!(
            "{secs} {:?} {:?} {}",
            words(&a.data),
            header(&a.data),
            word_of(&a.data, a.width)
        ))
    }
}
