//! What the linter says about a tree, read from its documented JSON outputs, with every
//! position put back where it stands in the input.
//!
//! A finding is its lint, level and the input line its primary span starts on. A tool of the
//! contract is its wire name, kind, error channel, success shapes and line; each failure path
//! its tool, channel, kind, code, lint, level and origin line. Messages and fn names are not
//! compared: they may name what a rewrite renamed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::edit::{Rewrite, line_of};
use crate::tree::Tree;

/// The linter binary and the arguments every run gets.
#[derive(Clone, Debug)]
pub struct Linter {
    pub bin: PathBuf,
    /// Put before an input's own arguments: `-W` for each lint that is allowed by default, so
    /// that every lint's verdicts are compared.
    pub common_args: Vec<String>,
}

impl Linter {
    /// The linter at `bin`, with every lint at least at `warn`.
    pub fn new(bin: &Path) -> Result<Linter, String> {
        // Runs happen in each tree's folder: a relative path would not reach the binary.
        let bin = &bin
            .canonicalize()
            .map_err(|e| format!("cannot find {}: {e}", bin.display()))?;
        let out = Command::new(bin)
            .arg("lints")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
        let mut common_args = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let mut words = line.split_whitespace();
            if let (Some(name), Some("allow")) = (words.next(), words.next()) {
                common_args.push("-W".to_string());
                common_args.push(name.to_string());
            }
        }
        Ok(Linter {
            bin: bin.to_path_buf(),
            common_args,
        })
    }

    /// Lints the tree written at `dir` (file names relative to it) and builds its contract.
    pub fn run(&self, dir: &Path, args: &[String]) -> Result<Raw, String> {
        let lint = Command::new(&self.bin)
            .current_dir(dir)
            .args([".", "--message-format", "json", "--exit-zero", "-j", "1"])
            .args(&self.common_args)
            .args(args)
            .output()
            .map_err(|e| format!("cannot run the linter: {e}"))?;
        if lint.status.code() != Some(0) {
            return Err(format!(
                "the linter failed on {}: {}",
                dir.display(),
                String::from_utf8_lossy(&lint.stderr)
            ));
        }
        let contract = Command::new(&self.bin)
            .current_dir(dir)
            .args(["contract", ".", "--format", "json", "-j", "1"])
            .output()
            .map_err(|e| format!("cannot run the linter: {e}"))?;
        let contract: Value = serde_json::from_slice(&contract.stdout).map_err(|e| {
            format!(
                "the contract of {} is not JSON ({e}): {}",
                dir.display(),
                String::from_utf8_lossy(&contract.stderr)
            )
        })?;
        Ok(Raw {
            messages: String::from_utf8_lossy(&lint.stdout).into_owned(),
            contract,
        })
    }
}

/// A run's outputs as the linter printed them.
pub struct Raw {
    messages: String,
    contract: Value,
}

/// One compared fact: what it is about (a lint, or `tools`) and its description.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Verdict {
    pub lint: String,
    pub text: String,
}

/// The verdicts of one run, counted (the same verdict may occur more than once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    pub counts: BTreeMap<Verdict, usize>,
}

/// Where a position of the linted tree stands in the input.
pub trait Positions {
    /// The input file and 1-based line that byte `offset` of `file` stands for.
    fn input_line(&self, file: &str, offset: usize) -> Option<(String, usize)>;
    /// The text of a file of the linted tree.
    fn linted_text(&self, file: &str) -> Option<&str>;
    /// A name in the linter's output, as the input spells it.
    fn input_name(&self, name: &str) -> String {
        name.to_string()
    }
}

/// The input itself: every position stands for itself.
pub struct Identity<'a>(pub &'a Tree);

impl Positions for Identity<'_> {
    fn input_line(&self, file: &str, offset: usize) -> Option<(String, usize)> {
        let text = self.0.files.get(file)?;
        Some((file.to_string(), line_of(text, offset)))
    }
    fn linted_text(&self, file: &str) -> Option<&str> {
        self.0.files.get(file).map(String::as_str)
    }
}

/// A rewrite of the input: positions go back through its provenance.
pub struct Through<'a> {
    pub input: &'a Tree,
    pub rewrite: &'a Rewrite,
}

impl Positions for Through<'_> {
    fn input_line(&self, file: &str, offset: usize) -> Option<(String, usize)> {
        let origin = self.rewrite.origin(file, offset)?;
        let text = self.input.files.get(&origin.file)?;
        Some((origin.file.clone(), line_of(text, origin.offset)))
    }
    fn linted_text(&self, file: &str) -> Option<&str> {
        self.rewrite.tree.files.get(file).map(String::as_str)
    }
    fn input_name(&self, name: &str) -> String {
        self.rewrite.old_names(name)
    }
}

impl Verdicts {
    /// Reads a run, mapping its positions through `positions`.
    pub fn read(raw: &Raw, positions: &dyn Positions) -> Verdicts {
        let mut verdicts = Verdicts::default();
        for line in raw.messages.lines() {
            if let Ok(message) = serde_json::from_str::<Value>(line) {
                verdicts.finding(&message, positions);
            }
        }
        for tool in raw.contract["tools"].as_array().into_iter().flatten() {
            verdicts.tool(tool, positions);
        }
        verdicts
    }

    fn add(&mut self, lint: &str, text: String) {
        let key = Verdict {
            lint: lint.to_string(),
            text,
        };
        *self.counts.entry(key).or_default() += 1;
    }

    fn finding(&mut self, message: &Value, positions: &dyn Positions) {
        let message = &message["message"];
        let Some(code) = message["code"]["code"].as_str() else {
            return;
        };
        let lint = code.trim_start_matches("mcp_lint::");
        let level = message["level"].as_str().unwrap_or("?");
        let primary = message["spans"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["is_primary"].as_bool() == Some(true));
        let place = primary.map_or_else(
            || "(no span)".to_string(),
            |span| {
                let file = span["file_name"].as_str().unwrap_or("");
                let offset = span["byte_start"].as_u64().unwrap_or(0) as usize;
                place(positions, file, offset)
            },
        );
        self.add(lint, format!("{level} {lint} at {place}"));
    }

    fn tool(&mut self, tool: &Value, positions: &dyn Positions) {
        // A tool is known by its wire name and place; a dispatcher or another request handler
        // by its kind alone: its name and place are a fn's, which a rewrite may move into a
        // helper without changing what the server answers.
        let kind = text(&tool["kind"]);
        let (name, at) = if kind == "tool" {
            let name = positions.input_name(tool["name"].as_str().unwrap_or("?"));
            let at = line_place(positions, &tool["file"], &tool["line"], &Value::Null);
            (format!("`{name}`"), format!(" at {at}"))
        } else {
            (String::new(), String::new())
        };
        let mut success: Vec<String> = tool["success"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|s| positions.input_name(s))
            .collect();
        success.sort_unstable();
        self.add(
            "tools",
            format!(
                "{kind} {name}{at}: err {}, success [{}]",
                text(&tool["err"]),
                success.join(", ")
            ),
        );
        for failure in tool["failures"].as_array().into_iter().flatten() {
            let origin = &failure["origin"];
            let at = line_place(
                positions,
                &origin["file"],
                &origin["line"],
                &origin["column"],
            );
            let lint = failure["lint"].as_str().unwrap_or("(no lint)");
            self.add(
                lint,
                format!(
                    "{kind} {name} fails by {} {} (code {}) at {at}: {lint} {}",
                    text(&failure["channel"]),
                    text(&failure["kind"]),
                    text(&failure["code"]),
                    text(&failure["level"]),
                ),
            );
        }
    }

    /// What one has that the other has not, each side with its count of the difference.
    pub fn diff(&self, after: &Verdicts) -> Vec<(Verdict, isize)> {
        let mut out = Vec::new();
        let keys = self.counts.keys().chain(after.counts.keys());
        let mut seen = std::collections::BTreeSet::new();
        for key in keys {
            if !seen.insert(key) {
                continue;
            }
            let before = self.counts.get(key).copied().unwrap_or(0) as isize;
            let now = after.counts.get(key).copied().unwrap_or(0) as isize;
            if before != now {
                out.push((key.clone(), now - before));
            }
        }
        out
    }

    /// The lints (and `tools`) these verdicts speak of.
    pub fn lints(&self) -> impl Iterator<Item = &str> {
        self.counts.keys().map(|k| k.lint.as_str())
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    }
}

fn place(positions: &dyn Positions, file: &str, offset: usize) -> String {
    match positions.input_line(file, offset) {
        Some((file, line)) => format!("{file}:{line}"),
        None => format!("{file}:?"),
    }
}

/// A position the contract gives as a line and a 1-based column in characters.
fn line_place(positions: &dyn Positions, file: &Value, line: &Value, column: &Value) -> String {
    let file = file.as_str().unwrap_or("");
    let line = line.as_u64().unwrap_or(1) as usize;
    let column = column.as_u64().unwrap_or(1) as usize;
    let Some(text) = positions.linted_text(file) else {
        return format!("{file}:?");
    };
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let offset = line_start
        + text[line_start.min(text.len())..]
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf8)
            .sum::<usize>();
    place(positions, file, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Rewriter;

    fn raw(messages: &str, contract: &str) -> Raw {
        Raw {
            messages: messages.to_string(),
            contract: serde_json::from_str(contract).expect("json"),
        }
    }

    const MESSAGE: &str = r#"{"reason":"compiler-message","message":{"code":{"code":"mcp_lint::panic_in_tool"},"level":"warning","spans":[{"is_primary":false,"file_name":"src/main.rs","byte_start":0},{"is_primary":true,"file_name":"src/main.rs","byte_start":OFFSET}]}}"#;
    const CONTRACT: &str = r#"{"tools":[{"name":"read","kind":"tool","file":"src/main.rs","line":LINE,"err":"is_error","success":["text"],"failures":[{"channel":"no_answer","kind":"unwrap","code":null,"lint":"panic_in_tool","level":"warn","origin":{"file":"src/main.rs","line":LINE,"column":COLUMN}}]}]}"#;

    #[test]
    fn a_finding_moved_by_a_rewrite_is_the_same_verdict_once_mapped_back() {
        let input = Tree::new([(
            "src/main.rs".to_string(),
            "fn read() {\n    x.unwrap();\n}\n".to_string(),
        )]);
        // Two lines of noise before the body's statement.
        let mut r = Rewriter::new(&input);
        r.insert_text("src/main.rs", 12, "    let _ = 1;\n    let _ = 2;\n");
        let rewrite = r.finish();
        let before = Verdicts::read(
            &raw(
                &MESSAGE.replace("OFFSET", "16"),
                &CONTRACT.replace("LINE", "2").replace("COLUMN", "5"),
            ),
            &Identity(&input),
        );
        let after_raw = raw(
            &MESSAGE.replace("OFFSET", "46"),
            &CONTRACT.replace("LINE", "4").replace("COLUMN", "5"),
        );
        let after = Verdicts::read(
            &after_raw,
            &Through {
                input: &input,
                rewrite: &rewrite,
            },
        );
        assert_eq!(before.diff(&after), []);
        assert_eq!(before.counts.len(), 3, "{before:?}");
        // Not mapped back, the same output is a different verdict.
        let unmapped = Verdicts::read(&after_raw, &Identity(&rewrite.tree));
        assert_eq!(before.diff(&unmapped).len(), 6);
    }

    #[test]
    fn counts_are_compared() {
        let input = Tree::new([("src/main.rs".to_string(), "fn f() {}\n".to_string())]);
        let one = Verdicts::read(
            &raw(&MESSAGE.replace("OFFSET", "0"), r#"{"tools":[]}"#),
            &Identity(&input),
        );
        let two = Verdicts::read(
            &raw(
                &format!(
                    "{}\n{}",
                    MESSAGE.replace("OFFSET", "0"),
                    MESSAGE.replace("OFFSET", "3")
                ),
                r#"{"tools":[]}"#,
            ),
            &Identity(&input),
        );
        let diff = one.diff(&two);
        assert_eq!(diff.len(), 1);
        assert_eq!(diff[0].1, 1);
        assert_eq!(diff[0].0.text, "warning panic_in_tool at src/main.rs:1");
    }
}
