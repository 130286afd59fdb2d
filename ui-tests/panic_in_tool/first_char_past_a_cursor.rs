//@ dep: rmcp = "1.6"
// `s[i..].chars().next()` is `Some` while the cursor is below the text's length (compared with
// `s.len()` or with the length of `s.as_bytes()`): the rest holds at least one char. Not when
// the cursor was compared the other way, or not at all.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub text: String,
    pub at: usize,
}

fn letters(text: &str) -> Vec<char> {
    let raw = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < raw.len() {
        let c = text[pos..].chars().next().unwrap();
        if c.is_alphabetic() {
            out.push(c);
        }
        pos += c.len_utf8();
    }
    out
}

fn initial(text: &str, from: usize) -> Option<char> {
    if text.len() > from {
        return Some(text[from..].chars().next().expect("a char follows"));
    }
    None
}

fn after_end(text: &str, from: usize) -> char {
    if from >= text.len() {
        return text[from..].chars().next().unwrap();
    }
    ' '
}

#[tool_router]
impl Server {
    #[tool(description = "Letters, an initial, and a char past the end")]
    async fn scan(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(format!(
            "{:?} {:?} {}",
            letters(&a.text),
            initial(&a.text, a.at),
            after_end(&a.text, a.at)
        ))
    }
}
