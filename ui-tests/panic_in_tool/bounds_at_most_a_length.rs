//@ dep: rmcp = "1.6"
//@ dep: tokio = { version = "1", features = ["fs", "io-util"] }
// A bound made from a length cannot pass it: `a.min(v.len())`, `cmp::min(a, v.len())`,
// `v.len().saturating_sub(k)` are at most `v.len()`, and `x.min(CAP)` is at most the length
// of a buffer made `vec![0; CAP]`; a count read into part of a buffer is at most that part.
// So slicing such a `Vec` or buffer up to or from them cannot panic, nor at a value that is
// one of them whichever branch gave it (a branch that returns gives none), or an index
// `position` found with the length as fallback. A string sliced there still can (the offset
// may sit inside a character), and so can a bound that passes the length it was limited by,
// a branch that gives another number, or a buffer made shorter or with another length.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use tokio::io::AsyncReadExt;

const CAP: usize = 8 * 1024;

pub struct Server;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
    pub count: usize,
}

#[tool_router]
impl Server {
    #[tool(description = "The last lines of a file")]
    async fn tail(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let text = std::fs::read_to_string(&a.path).map_err(|e| e.to_string())?;
        let lines: Vec<&str> = text.lines().collect();
        let total = lines.len();
        let from = total.saturating_sub(a.count);
        let head = std::cmp::min(a.count, lines.len());
        let mut out = lines[from..].join("\n");
        out.push_str(&lines[..head].join("\n"));
        out.push_str(&lines[..a.count.min(total)].join("\n"));
        Ok(out)
    }

    #[tool(description = "The first bytes of a file, read in chunks")]
    async fn head(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let mut file = tokio::fs::File::open(&a.path)
            .await
            .map_err(|e| e.to_string())?;
        let mut buf = vec![0u8; CAP];
        let mut out = Vec::new();
        while out.len() < a.count {
            let want = (a.count - out.len()).min(CAP);
            let n = file
                .read(&mut buf[..want])
                .await
                .map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    #[tool(description = "A window of lines, chosen by either end")]
    async fn window(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let text = std::fs::read_to_string(&a.path).map_err(|e| e.to_string())?;
        let lines: Vec<&str> = text.lines().collect();
        let from = if a.count > 0 {
            a.count.min(lines.len())
        } else if a.path.ends_with(".md") {
            lines.len()
        } else {
            return Err("give a count, or a markdown file".into());
        };
        let stop = lines.iter().position(|l| l.is_empty()).unwrap_or(lines.len());
        Ok(format!("{:?} {:?}", &lines[from..], &lines[..stop]))
    }

    #[tool(description = "Bounds that can still fail")]
    async fn unsafe_bounds(&self, Parameters(a): Parameters<Args>) -> Result<String, String> {
        let text = std::fs::read_to_string(&a.path).map_err(|e| e.to_string())?;
        let lines: Vec<&str> = text.lines().collect();
        let mut small = vec![0u8; 16];
        small.truncate(a.count);
        let want = a.count.min(16);
        let other = [0u8; 4];
        let prefix = &text[..a.count.min(text.len())];
        let past = &lines[..a.count.min(lines.len()) + 1];
        let pick = if a.count > 3 { a.count } else { lines.len() };
        let _ = &lines[..pick];
        Ok(format!("{prefix} {past:?} {:?} {:?}", &small[..want], &other[..want]))
    }
}
