//! `--check FILE`: the difference between a saved contract and the code's, like a semver
//! check for failure contracts. Tools are matched by package, kind and name; paths by what
//! they are (channel, kind, code, constructor) and the file and fn they start in, counted, so
//! moving code within a fn changes nothing and a second `unwrap` in it is a new path. The
//! contract is worse when a tool gained a path the model cannot read: a JSON-RPC error for a
//! failure, no answer, or a dead server.

use std::collections::BTreeMap;
use std::path::Path;

use super::count;
use super::model::{Contract, Failure, Tool, VERSION};

/// Reads a contract saved by `--write`.
pub fn read(path: &Path) -> Result<Contract, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the saved contract {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a saved contract of this format version or an older one.
pub fn parse(text: &str) -> Result<Contract, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a JSON contract: {e}"))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v >= 1 && v <= u64::from(VERSION) => {}
        Some(v) => {
            return Err(format!(
                "contract format version {v} is not one this mcp-lint reads (1 to {VERSION})"
            ));
        }
        None => return Err("not a contract: no `version`".to_string()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a contract: {e}"))
}

/// How a tool is matched between two contracts.
type ToolKey = (String, String, String);

fn tool_key(t: &Tool) -> ToolKey {
    (
        t.package.clone(),
        t.kind.as_str().to_string(),
        t.name.clone(),
    )
}

/// How a path is matched: what it is and where it starts, without lines.
type PathKey = (u8, String, Option<i64>, Option<String>, String, String);

fn path_key(f: &Failure) -> PathKey {
    (
        f.channel as u8,
        f.kind.clone(),
        f.code,
        f.constructor.clone(),
        f.origin.file.clone(),
        f.origin.func.clone(),
    )
}

/// What changed in one tool.
#[derive(Debug)]
pub struct ToolChange {
    pub tool: Tool,
    pub status: Status,
    /// Paths it has that the saved contract did not (one per extra occurrence).
    pub gained: Vec<Failure>,
    /// Paths the saved contract had that it no longer has.
    pub lost: Vec<Failure>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    New,
    Removed,
    Changed,
}

#[derive(Debug, Default)]
pub struct Diff {
    pub changes: Vec<ToolChange>,
}

impl Diff {
    /// The paths gained that the model cannot read.
    pub fn worse(&self) -> impl Iterator<Item = (&Tool, &Failure)> {
        self.changes
            .iter()
            .flat_map(|c| c.gained.iter().map(move |f| (&c.tool, f)))
            .filter(|(_, f)| f.is_hidden())
    }

    pub fn is_worse(&self) -> bool {
        self.worse().next().is_some()
    }

    /// The difference for people, on stderr.
    pub fn report(&self) -> String {
        let mut out = String::new();
        if self.changes.is_empty() {
            out.push_str("mcp-lint contract: unchanged since the saved contract\n");
            return out;
        }
        out.push_str("mcp-lint contract: changes since the saved contract\n");
        for c in &self.changes {
            out.push_str(&format!("  {}\n", tool_line(c)));
            for f in &c.gained {
                out.push_str(&format!("    + {}\n", path_line(f)));
            }
            for f in &c.lost {
                out.push_str(&format!("    - {}\n", path_line(f)));
            }
        }
        let worse = self.worse().count();
        if worse > 0 {
            out.push_str(&format!(
                "mcp-lint contract: worse: {} the model cannot read\n",
                count(worse, "new failure path")
            ));
        } else {
            out.push_str("mcp-lint contract: not worse: no new path the model cannot read\n");
        }
        out
    }
}

/// "tool `search` (new)", "tool `old` (removed)", "tool `read_note`".
pub fn tool_line(c: &ToolChange) -> String {
    let t = &c.tool;
    let status = match c.status {
        Status::New => " (new)",
        Status::Removed => " (removed)",
        Status::Changed => "",
    };
    format!("{} `{}`{status} in {}", t.kind.as_str(), t.name, t.file)
}

/// "jsonrpc_error -32603 internal_error (execution) at src/x.rs:10 in `Server::search`".
pub fn path_line(f: &Failure) -> String {
    let mut text = f.channel.as_str().to_string();
    if let Some(code) = f.code {
        text.push_str(&format!(" {code}"));
    }
    if let Some(ctor) = &f.constructor {
        text.push_str(&format!(" {ctor}"));
    }
    if !f.kind.is_empty() {
        text.push_str(&format!(" ({})", f.kind));
    }
    text.push_str(&format!(" at {}:{}", f.origin.file, f.origin.line));
    if !f.origin.func.is_empty() {
        text.push_str(&format!(" in `{}`", f.origin.func));
    }
    text
}

/// The changes from `old` to `new`, tools in the order of `new` (removed ones after).
pub fn compare(old: &Contract, new: &Contract) -> Diff {
    let mut old_tools: BTreeMap<ToolKey, &Tool> = BTreeMap::new();
    for t in &old.tools {
        old_tools.entry(tool_key(t)).or_insert(t);
    }
    let mut diff = Diff::default();
    let mut matched = std::collections::BTreeSet::new();
    for t in &new.tools {
        let key = tool_key(t);
        let Some(before) = old_tools.get(&key) else {
            diff.changes.push(ToolChange {
                tool: t.clone(),
                status: Status::New,
                gained: t.failures.clone(),
                lost: Vec::new(),
            });
            continue;
        };
        if !matched.insert(key) {
            continue;
        }
        let (gained, lost) = paths_changed(&before.failures, &t.failures);
        if !gained.is_empty() || !lost.is_empty() {
            diff.changes.push(ToolChange {
                tool: t.clone(),
                status: Status::Changed,
                gained,
                lost,
            });
        }
    }
    for (key, t) in &old_tools {
        if !matched.contains(key) {
            diff.changes.push(ToolChange {
                tool: (*t).clone(),
                status: Status::Removed,
                gained: Vec::new(),
                lost: Vec::new(),
            });
        }
    }
    diff
}

/// The paths in `new` beyond those in `old`, and the other way round, counted per key.
fn paths_changed(old: &[Failure], new: &[Failure]) -> (Vec<Failure>, Vec<Failure>) {
    let mut left: BTreeMap<PathKey, usize> = BTreeMap::new();
    for f in old {
        *left.entry(path_key(f)).or_default() += 1;
    }
    let mut gained = Vec::new();
    for f in new {
        match left.get_mut(&path_key(f)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => gained.push(f.clone()),
        }
    }
    let mut right: BTreeMap<PathKey, usize> = BTreeMap::new();
    for f in new {
        *right.entry(path_key(f)).or_default() += 1;
    }
    let mut lost = Vec::new();
    for f in old {
        match right.get_mut(&path_key(f)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => lost.push(f.clone()),
        }
    }
    (gained, lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::model::{Channel, ErrChannel, Kind, Origin};

    fn path(channel: Channel, line: usize, func: &str) -> Failure {
        Failure {
            channel,
            kind: "unwrap".to_string(),
            code: None,
            constructor: None,
            what: String::new(),
            origin: Origin {
                file: "src/main.rs".to_string(),
                line,
                column: 1,
                func: func.to_string(),
            },
            chain: vec![func.to_string()],
            lint: None,
            level: None,
            reported_at: None,
            abort: Vec::new(),
            reported_as: None,
        }
    }

    fn contract(name: &str, failures: Vec<Failure>) -> Contract {
        Contract {
            version: VERSION,
            tools: vec![Tool {
                name: name.to_string(),
                kind: Kind::Tool,
                func: name.to_string(),
                package: "p".to_string(),
                sdk: None,
                file: "src/main.rs".to_string(),
                line: 1,
                err: ErrChannel::Unknown,
                success: Vec::new(),
                failures,
            }],
        }
    }

    #[test]
    fn moved_lines_change_nothing() {
        let old = contract("t", vec![path(Channel::NoAnswer, 10, "t")]);
        let new = contract("t", vec![path(Channel::NoAnswer, 14, "t")]);
        assert!(compare(&old, &new).changes.is_empty());
    }

    #[test]
    fn a_second_panic_in_the_same_fn_is_a_new_path() {
        let old = contract("t", vec![path(Channel::NoAnswer, 10, "t")]);
        let new = contract(
            "t",
            vec![
                path(Channel::NoAnswer, 10, "t"),
                path(Channel::NoAnswer, 12, "t"),
            ],
        );
        let diff = compare(&old, &new);
        assert_eq!(diff.changes.len(), 1);
        assert_eq!(diff.changes[0].gained.len(), 1);
        assert!(diff.changes[0].lost.is_empty());
        assert!(diff.is_worse());
    }

    #[test]
    fn a_panic_turned_into_an_is_error_result_is_better() {
        let old = contract("t", vec![path(Channel::NoAnswer, 10, "t")]);
        let new = contract("t", vec![path(Channel::IsError, 10, "t")]);
        let diff = compare(&old, &new);
        assert_eq!(diff.changes[0].gained.len(), 1);
        assert_eq!(diff.changes[0].lost.len(), 1);
        assert!(!diff.is_worse());
    }

    #[test]
    fn a_new_tool_brings_its_paths() {
        let old = contract("t", Vec::new());
        let mut new = contract("t", Vec::new());
        new.tools
            .extend(contract("u", vec![path(Channel::ServerExit, 3, "u")]).tools);
        let diff = compare(&old, &new);
        assert_eq!(diff.changes.len(), 1);
        assert_eq!(diff.changes[0].status, Status::New);
        assert!(diff.is_worse());
        assert!(diff.report().contains("tool `u` (new) in src/main.rs"));
    }

    #[test]
    fn correct_protocol_errors_are_not_worse() {
        let mut unknown = path(Channel::JsonrpcError, 3, "t");
        unknown.kind = "unknown_tool".to_string();
        let diff = compare(&contract("t", Vec::new()), &contract("t", vec![unknown]));
        assert_eq!(diff.changes[0].gained.len(), 1);
        assert!(!diff.is_worse());
    }
}
