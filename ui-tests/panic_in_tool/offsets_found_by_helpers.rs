//@ dep: rmcp = "1.6"
// An offset a helper found in the string it was given is a char boundary of whatever string
// the caller passed: slicing that string at it cannot panic, through `?`, `let else` and
// method helpers. Slicing another string at it, or at an offset the helper found in a
// string of its own, can.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub text: String,
    pub other: String,
}

/// Where the first blank line starts.
fn blank_line(s: &str) -> Option<usize> {
    s.find("\n\n")
}

/// Where the header ends in a copy of the text: an offset of the copy.
fn header_end(s: &str) -> Option<usize> {
    let upper = s.to_uppercase();
    upper.find(':')
}

impl Server {
    fn marker(&self, doc: &str) -> usize {
        doc.find("---").unwrap_or(doc.len())
    }
}

#[tool_router]
impl Server {
    #[tool(description = "The first paragraph and what follows")]
    async fn paragraph(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let end = blank_line(&a.text).ok_or("no paragraph")?;
        let Some(cut) = blank_line(&a.other) else {
            return Ok(a.text[..end].to_string());
        };
        let mark = self.marker(&a.text);
        Ok(format!("{} {} {}", &a.text[..end], &a.other[cut + 2..], &a.text[mark..]))
    }

    #[tool(description = "Offsets of the wrong string")]
    async fn mixed(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let end = blank_line(&a.text).ok_or("no paragraph")?;
        let colon = header_end(&a.text).ok_or("no header")?;
        Ok(format!("{} {}", &a.other[..end], &a.text[..colon]))
    }
}
