//@ dep: rmcp = "3.11"
// A string is sliced at byte offsets, and a byte offset can fall inside a multi-byte
// character: `&text[..40]` panics on "é" at bytes 39..41 however long the text is known to
// be, so a byte-length check does not make a prefix safe (reported). Offsets known to be char
// boundaries (from `char_indices`, from a search of the same text) and text known to be
// ASCII (numbers formatted in hexadecimal) are safe (not reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::tool;
use rmcp::tool_router;

pub struct Notes;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Text {
    pub text: String,
    pub width: usize,
}

fn shorten(line: &str, width: usize) -> String {
    if line.len() > width {
        format!("{}...", &line[..width])
    } else {
        line.to_string()
    }
}

fn label_of(seed: u64) -> String {
    let hex = format!("{seed:016x}");
    hex[..6].to_string()
}

#[tool_router]
impl Notes {
    #[tool(description = "Preview a note")]
    async fn preview(&self, Parameters(note): Parameters<Text>) -> Result<String, String> {
        let head = if note.text.len() > 40 { &note.text[..40] } else { note.text.as_str() };
        Ok(format!("{head} / {}", shorten(&note.text, note.width)))
    }

    #[tool(description = "Preview a note by characters")]
    async fn preview_chars(&self, Parameters(note): Parameters<Text>) -> Result<String, String> {
        let end = note.text.char_indices().nth(40).map_or(note.text.len(), |(i, _)| i);
        Ok(note.text[..end].to_string())
    }

    #[tool(description = "The key of a note")]
    async fn key(&self, Parameters(note): Parameters<Text>) -> Result<String, String> {
        let colon = note.text.find(':').ok_or("no key")?;
        Ok(format!("{} {}", &note.text[..colon], label_of(note.width as u64)))
    }
}
