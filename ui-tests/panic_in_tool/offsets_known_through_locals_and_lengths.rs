//@ dep: rmcp = "3.11"
// Where a search found its pattern, `i + pattern.len()` is the end of the match: in bounds
// and a char boundary whatever the pattern is (a literal, a `const`). A local holding a
// search's result, or a length, is that result or length. A length check does not make a
// byte offset the caller chose a char boundary of text; a crate helper that finds one with
// std's char-boundary APIs does, for either end of a slice.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Text;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub body: String,
    pub from: usize,
    pub count: usize,
}

const ARROW: &str = "→";

fn after_arrow(line: &str) -> &str {
    match line.find(ARROW) {
        Some(at) => &line[at + ARROW.len()..],
        None => line,
    }
}

fn split_pair(line: &str) -> (&str, &str) {
    let colon = line.find(':');
    let key = &line[..colon.unwrap_or(line.len())];
    match colon {
        Some(c) => (key, &line[c + 1..]),
        None => (key, ""),
    }
}

/// The byte offset of the `n`th character (the length past the last).
fn byte_of_char(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(i, _)| i)
}

#[tool_router]
impl Text {
    #[tool(description = "Text after the arrow")]
    async fn arrow(&self, Parameters(a): Parameters<Args>) -> String {
        after_arrow(&a.body).to_string()
    }

    #[tool(description = "Key and value")]
    async fn pair(&self, Parameters(a): Parameters<Args>) -> String {
        let (k, v) = split_pair(&a.body);
        format!("{k} is {v}")
    }

    #[tool(description = "One line, by number")]
    async fn line(&self, Parameters(a): Parameters<Args>) -> String {
        let lines: Vec<&str> = a.body.lines().collect();
        let total = lines.len();
        if a.from >= total {
            return String::new();
        }
        lines[a.from].to_string()
    }

    #[tool(description = "A window of the text, in bytes the caller chose (reported)")]
    async fn window(&self, Parameters(a): Parameters<Args>) -> String {
        let total = a.body.len();
        if a.from >= total {
            return String::new();
        }
        let end = (a.from + a.count).min(total);
        a.body[a.from..end].to_string()
    }

    #[tool(description = "Text after a checked prefix")]
    async fn data(&self, Parameters(a): Parameters<Args>) -> String {
        if a.body.starts_with("data: ") {
            a.body[6..].to_string()
        } else {
            a.body.clone()
        }
    }

    #[tool(description = "Characters `from` to `from + count`")]
    async fn chars(&self, Parameters(a): Parameters<Args>) -> String {
        let start = byte_of_char(&a.body, a.from);
        let end = byte_of_char(&a.body, a.from + a.count);
        if start < end {
            a.body[start..end].to_string()
        } else {
            String::new()
        }
    }
}
