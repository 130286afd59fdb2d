//@ dep: rmcp = "1.6"
// Checks the same fn made before the site: a lazily filled slot (`if slot.is_none() { *slot =
// Some(..) }`) read through `as_mut()`/`clone()`, an `Option` checked with
// `as_ref().is_some_and(..)`, and a slice past a prefix `starts_with` found (all clean). A
// longer chain after the check, and a slice past a prefix nobody checked, are reported.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub text: String,
    pub alias: Option<String>,
}

fn cached_len(slot: &mut Option<String>, text: &str) -> usize {
    if slot.is_none() {
        *slot = Some(text.to_string());
    }
    slot.as_mut().unwrap().len() + slot.clone().unwrap().len()
}

fn after_keyword<'a>(line: &'a str, keyword: &str) -> &'a str {
    if line.starts_with(keyword) {
        &line[keyword.len()..]
    } else {
        line
    }
}

fn after_other<'a>(line: &'a str, keyword: &str, other: &str) -> &'a str {
    if line.starts_with(keyword) {
        &line[other.len()..]
    } else {
        line
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Measure")]
    async fn measure(&self, Parameters(args): Parameters<Args>) -> String {
        let mut slot = None;
        let n = cached_len(&mut slot, &args.text);
        let alias = if args.alias.as_ref().is_some_and(|a| !a.is_empty()) {
            args.alias.clone().expect("checked above")
        } else {
            String::new()
        };
        let first = if args.alias.is_some() {
            args.alias.as_ref().and_then(|a| a.chars().next()).unwrap()
        } else {
            ' '
        };
        format!(
            "{n} {alias} {first} {} {}",
            after_keyword(&args.text, "fn "),
            after_other(&args.text, "fn ", &args.text)
        )
    }
}
