//! The check: each input is linted as it is and after each family's rewrite, and the verdicts,
//! put back at input positions, are compared.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::families::Family;
use crate::tree::Tree;
use crate::verdicts::{Identity, Linter, Through, Verdict, Verdicts};

/// A server to check: its name in the table and the ratchet, its files, and the arguments it
/// is linted with.
pub struct Input {
    pub name: String,
    pub tree: Tree,
    pub args: Vec<String>,
}

/// What one family did to one input.
#[derive(Debug)]
pub struct Outcome {
    pub input: String,
    pub family: &'static str,
    /// Edits made (0: the family found nothing to rewrite, and nothing was compared).
    pub sites: usize,
    /// Verdicts that differ: the verdict and how many more (or fewer) times the rewritten
    /// program gets it.
    pub diff: Vec<(Verdict, isize)>,
    /// Lints the input has verdicts of, before or after.
    pub lints: BTreeSet<String>,
    /// A defect of the harness (a rewritten file that does not parse) or a failed run.
    pub error: Option<String>,
}

impl Outcome {
    pub fn changed(&self) -> usize {
        self.diff.iter().map(|(_, n)| n.unsigned_abs()).sum()
    }

    pub fn lint_changed(&self, lint: &str) -> bool {
        self.diff.iter().any(|(v, _)| v.lint == lint)
    }
}

/// Checks every input under every family on `threads` threads; `work` holds the written trees
/// while they are linted.
pub fn run(
    linter: &Linter,
    inputs: &[Input],
    families: &[&'static dyn Family],
    work: &Path,
    threads: usize,
) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(input) = inputs.get(i) else {
                        break;
                    };
                    let dir = work.join(format!("{i}"));
                    let outcomes = check_input(linter, input, families, &dir);
                    let _ = std::fs::remove_dir_all(&dir);
                    if let Ok(mut all) = results.lock() {
                        all.extend(outcomes);
                    }
                }
            });
        }
    });
    let mut all = results.into_inner().unwrap_or_default();
    all.sort_by(|a, b| (&a.input, a.family).cmp(&(&b.input, b.family)));
    all
}

fn check_input(
    linter: &Linter,
    input: &Input,
    families: &[&'static dyn Family],
    dir: &Path,
) -> Vec<Outcome> {
    let base = match lint_tree(linter, &input.tree, &dir.join("base"), &input.args) {
        Ok(raw) => Verdicts::read(&raw, &Identity(&input.tree)),
        Err(e) => {
            return families
                .iter()
                .map(|f| failed(input, f.name(), 0, e.clone()))
                .collect();
        }
    };
    let mut out = Vec::new();
    for family in families {
        let rewrite = family.rewrite(&input.tree);
        let mut outcome = failed(input, family.name(), rewrite.sites, String::new());
        outcome.error = None;
        if rewrite.sites == 0 {
            out.push(outcome);
            continue;
        }
        if let Some(broken) = unparsable(&rewrite.tree, rewrite.changed_files()) {
            outcome.error = Some(format!("the rewritten {broken} does not parse"));
            out.push(outcome);
            continue;
        }
        let dir = dir.join(family.name());
        match lint_tree(linter, &rewrite.tree, &dir, &input.args) {
            Ok(raw) => {
                let after = Verdicts::read(
                    &raw,
                    &Through {
                        input: &input.tree,
                        rewrite: &rewrite,
                    },
                );
                outcome.diff = base.diff(&after);
                outcome.lints = base
                    .lints()
                    .chain(after.lints())
                    .map(String::from)
                    .collect();
            }
            Err(e) => outcome.error = Some(e),
        }
        out.push(outcome);
    }
    out
}

fn failed(input: &Input, family: &'static str, sites: usize, error: String) -> Outcome {
    Outcome {
        input: input.name.clone(),
        family,
        sites,
        diff: Vec::new(),
        lints: BTreeSet::new(),
        error: Some(error),
    }
}

fn lint_tree(
    linter: &Linter,
    tree: &Tree,
    dir: &Path,
    args: &[String],
) -> Result<crate::verdicts::Raw, String> {
    let _ = std::fs::remove_dir_all(dir);
    tree.write(dir)
        .map_err(|e| format!("cannot write {}: {e}", dir.display()))?;
    let raw = linter.run(dir, args);
    let _ = std::fs::remove_dir_all(dir);
    raw
}

/// The first changed Rust file that syn cannot parse.
fn unparsable<'a>(tree: &Tree, mut changed: impl Iterator<Item = &'a String>) -> Option<String> {
    changed
        .find(|path| {
            path.ends_with(".rs")
                && tree
                    .files
                    .get(*path)
                    .is_some_and(|t| syn::parse_file(t).is_err())
        })
        .cloned()
}

/// The family × lint table: for each family, each lint's `changed/inputs` (inputs the family
/// rewrote that have verdicts of the lint, and how many of them changed), then the totals.
pub fn table(outcomes: &[Outcome], families: &[&'static dyn Family]) -> String {
    let lints: BTreeSet<&str> = outcomes
        .iter()
        .flat_map(|o| o.lints.iter().map(String::as_str))
        .collect();
    let mut out = String::from("| family | inputs rewritten | changed |");
    for lint in &lints {
        out.push_str(&format!(" {lint} |"));
    }
    out.push_str("\n| --- | --- | --- |");
    out.push_str(&" --- |".repeat(lints.len()));
    out.push('\n');
    for family in families {
        let rows: Vec<&Outcome> = outcomes
            .iter()
            .filter(|o| o.family == family.name() && o.sites > 0)
            .collect();
        let changed = rows.iter().filter(|o| !o.diff.is_empty()).count();
        out.push_str(&format!(
            "| {} | {} | {changed} |",
            family.name(),
            rows.len()
        ));
        for lint in &lints {
            let with: Vec<&&Outcome> = rows.iter().filter(|o| o.lints.contains(*lint)).collect();
            let moved = with.iter().filter(|o| o.lint_changed(lint)).count();
            if with.is_empty() {
                out.push_str(" |");
            } else {
                out.push_str(&format!(" {moved}/{} |", with.len()));
            }
        }
        out.push('\n');
    }
    out
}

/// Every verdict that moved, input by input, for a reader.
pub fn report(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        if let Some(e) = &o.error {
            out.push_str(&format!("{} × {}: ERROR {e}\n", o.input, o.family));
        }
        if o.diff.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{} × {}: {} changed\n",
            o.input,
            o.family,
            o.changed()
        ));
        for (verdict, n) in &o.diff {
            let sign = if *n > 0 { "+" } else { "-" };
            out.push_str(&format!("  {sign}{} {}\n", n.unsigned_abs(), verdict.text));
        }
    }
    out
}

/// A scratch folder for the written trees.
pub fn work_dir(label: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mcp-lint-metamorph-{}-{label}", std::process::id()))
}
