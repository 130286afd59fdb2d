//@ dep: rmcp = "1.6"
// A slice at offsets the code computes from the data it slices (a byte scan's cursor, a span
// a parser stored in a struct, a helper's tuple of found offsets) is in range by that code's
// own logic: a bound alone is no reason to warn. What is: a cursor measured against another
// string's length (a lowercased copy has its characters at other offsets), a cut a caller
// fixes or the request's arguments choose, a count of chars used as a byte offset.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub doc: String,
    pub width: usize,
}

/// Where a section of the document starts and ends.
pub struct Span {
    pub from: usize,
    pub to: usize,
}

fn sections(doc: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut from = 0;
    for (at, _) in doc.match_indices("\n\n") {
        spans.push(Span { from, to: at });
        from = at + 2;
    }
    spans.push(Span { from, to: doc.len() });
    spans
}

fn section_text<'a>(doc: &'a str, span: &Span) -> &'a str {
    &doc[span.from..span.to]
}

fn quoted(line: &str) -> Option<(usize, usize)> {
    let open = line.find('"')?;
    let close = line[open + 1..].find('"')? + open + 1;
    Some((open, close))
}

fn inner(line: &str) -> &str {
    match quoted(line) {
        Some((open, close)) => &line[open + 1..close],
        None => line,
    }
}

fn words(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b' ' {
            out.push(&text[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    out
}

fn has_tag(html: &str) -> bool {
    let folded = html.to_lowercase();
    let mut i = 0;
    while i + 4 <= html.len() {
        if folded[i..i + 4].starts_with("<img") {
            return true;
        }
        i += 1;
    }
    false
}

fn clip(text: &str, width: usize) -> &str {
    &text[..width]
}

#[tool_router]
impl Server {
    #[tool(description = "Offsets the code finds itself")]
    async fn outline(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let firsts: Vec<&str> = sections(&a.doc)
            .iter()
            .map(|s| section_text(&a.doc, s))
            .collect();
        Ok(format!("{firsts:?} {} {:?}", inner(&a.doc), words(&a.doc)))
    }

    #[tool(description = "A cursor of the original, used on a lowercased copy")]
    async fn images(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(has_tag(&a.doc).to_string())
    }

    #[tool(description = "A cut the caller fixes, and one the arguments choose")]
    async fn preview(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        Ok(format!("{} {}", clip(&a.doc, 80), clip(&a.doc, a.width)))
    }

    #[tool(description = "Characters counted, bytes sliced")]
    async fn head(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let letters = a.doc.chars().take_while(|c| c.is_alphabetic()).count();
        Ok(a.doc[..letters].to_string())
    }
}
