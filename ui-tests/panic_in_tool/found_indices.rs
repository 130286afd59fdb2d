//@ dep: rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// Slicing a string at an index its own search returned cannot panic: `find`/`rfind` give a
// character boundary within the string, and one past it is one too when the pattern is
// ASCII. Slicing at the index plus more than the pattern's length, after a non-ASCII pattern,
// between two bounds (`[1..end]` panics when the match is at 0), or slicing another string at
// it, still can (reported).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub text: String,
    pub other: String,
}

#[tool_router]
impl Server {
    #[tool(description = "Split key=value")]
    async fn pair(&self, Parameters(args): Parameters<Args>) -> String {
        match args.text.find('=') {
            Some(i) => format!("{} is {}", &args.text[..i], &args.text[i + 1..]),
            None => "no '=' in the text".to_string(),
        }
    }

    #[tool(description = "The file name of a path")]
    async fn file_name(&self, Parameters(args): Parameters<Args>) -> String {
        let names: Option<&str> = args.text.rfind("/").map(|i| &args.text[i + 1..]);
        let Some(dot) = args.text.find('.') else {
            return names.unwrap_or_default().to_string();
        };
        format!("{} without {}", names.unwrap_or_default(), &args.text[dot..])
    }

    #[tool(description = "Still reported")]
    async fn risky(&self, Parameters(args): Parameters<Args>) -> String {
        let Some(i) = args.text.find('=') else {
            return String::new();
        };
        let Some(e) = args.text.find('é') else {
            return String::new();
        };
        format!(
            "{} {} {} {}",
            &args.text[i + 2..],
            &args.text[e + 1..],
            &args.other[..i],
            &args.text[1..i]
        )
    }
}
