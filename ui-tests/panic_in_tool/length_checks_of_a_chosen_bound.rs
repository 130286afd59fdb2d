//@ dep: rmcp = "1.6"
// A slice whose bound the arguments choose is in range after a check that compared that bound
// (or what it is computed from) with the length: `if n > v.len() { return }` then `&v[..n - 1]`
// (through locals, `min` and both branches of an `if`). A check of the length that says
// nothing of the bound (`if v.len() < 2 { return }`) leaves `&v[..n]` able to panic.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub lines: Vec<String>,
    pub from: usize,
    pub count: usize,
}

#[tool_router]
impl Server {
    #[tool(description = "Lines before and after a 1-based line")]
    async fn around(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let total = a.lines.len();
        if a.from == 0 || a.from > total {
            return Err(format!("line {} is not in 1..={total}", a.from));
        }
        let at = a.from - 1;
        let cut = if a.count > total { total } else { a.count };
        Ok(format!("{:?} {:?} {:?}", &a.lines[..at], &a.lines[at..], &a.lines[..cut]))
    }

    #[tool(description = "The first lines, after a check of something else")]
    async fn first(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        if a.lines.len() < 2 {
            return Err("give at least two lines".into());
        }
        Ok(format!("{:?}", &a.lines[..a.count]))
    }
}
