//@ dep: rmcp = "1.2"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Where a search of a string found its pattern is a char boundary of that string, and so is
// the offset right after an ASCII pattern, a cursor moved to such an offset, and a cursor
// plus what a search from it found. Slicing the string at those offsets cannot panic
// (`links`, `first_field`). Slicing it at another string's length, at an offset moved by an
// untracked step, or two bytes into a pattern that is not ASCII, can (`head`, `chunks`,
// `after_accent`).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Title {
    title: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Step {
    step: usize,
}

pub struct Notes {
    text: String,
}

#[tool_router]
impl Notes {
    #[tool(description = "Every [[link]] in the note")]
    async fn links(&self) -> Result<String, ErrorData> {
        let text = self.text.as_str();
        let mut out = String::new();
        let mut cursor = 0;
        while let Some(rel) = text[cursor..].find("[[") {
            let open = cursor + rel + 2;
            let Some(len) = text[open..].find("]]") else {
                break;
            };
            let close = open + len;
            out.push_str(&text[open..close]);
            cursor = close;
        }
        Ok(out)
    }

    #[tool(description = "The first field's name")]
    async fn first_field(&self) -> Result<String, ErrorData> {
        let text: &str = &self.text;
        let name = match text.find(':') {
            Some(colon) => &text[..colon],
            None => text,
        };
        Ok(name.to_string())
    }

    #[tool(description = "The note's head, as long as its title")]
    async fn head(&self, Parameters(args): Parameters<Title>) -> Result<String, ErrorData> {
        let text: &str = &self.text;
        Ok(text[..args.title.len()].to_string())
    }

    #[tool(description = "The note in chunks")]
    async fn chunks(&self, Parameters(args): Parameters<Step>) -> Result<String, ErrorData> {
        let text: &str = &self.text;
        let mut at = 0;
        let mut out = Vec::new();
        while let Some(rel) = text[at..].find('\n') {
            out.push(text[at..at + rel].to_string());
            at += rel + args.step;
        }
        Ok(out.join("|"))
    }

    #[tool(description = "What follows the accented marker")]
    async fn after_accent(&self) -> Result<String, ErrorData> {
        let text: &str = &self.text;
        let rest = match text.find("é=") {
            Some(i) => &text[i + 2..],
            None => "",
        };
        Ok(rest.to_string())
    }
}

fn main() {}
