//! The ratchet: the (input, family) pairs whose verdicts change today, with how many verdicts
//! change. The check fails when a pair that is not listed changes, when a listed one changes
//! more, and when one changes less (so the list is shortened in the same commit as the engine
//! change that earned it).

use std::collections::BTreeMap;

use crate::check::Outcome;

/// The listed pairs and their counts.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ratchet {
    pub pairs: BTreeMap<(String, String), usize>,
}

impl Ratchet {
    /// Reads `input family count` lines; `#` starts a comment.
    pub fn parse(text: &str) -> Result<Ratchet, String> {
        let mut pairs = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [input, family, count] = words[..] else {
                return Err(format!("line {}: expected `input family count`", n + 1));
            };
            let count = count
                .parse()
                .map_err(|_| format!("line {}: `{count}` is not a count", n + 1))?;
            pairs.insert((input.to_string(), family.to_string()), count);
        }
        Ok(Ratchet { pairs })
    }

    /// The ratchet of these outcomes.
    pub fn of(outcomes: &[Outcome]) -> Ratchet {
        let pairs = outcomes
            .iter()
            .filter(|o| o.changed() > 0)
            .map(|o| ((o.input.clone(), o.family.to_string()), o.changed()))
            .collect();
        Ratchet { pairs }
    }

    pub fn render(&self) -> String {
        let mut out = String::from(
            "# The metamorphic check's ratchet: each (input, family) pair whose verdicts change\n\
             # under a meaning-preserving rewrite today, and how many verdicts change. Written by\n\
             # `MCP_LINT_BLESS=1 cargo test --test metamorphic`; an engine change that generalises\n\
             # shortens it. A pair that is not here must not change.\n",
        );
        for ((input, family), count) in &self.pairs {
            out.push_str(&format!("{input} {family} {count}\n"));
        }
        out
    }

    /// What differs between the list and these outcomes, worst first.
    pub fn compare(&self, outcomes: &[Outcome]) -> Vec<String> {
        let now = Ratchet::of(outcomes);
        let mut worse = Vec::new();
        let mut better = Vec::new();
        for (pair, &count) in &now.pairs {
            match self.pairs.get(pair) {
                None => worse.push(format!(
                    "new: {} × {} changes {count} verdict(s)",
                    pair.0, pair.1
                )),
                Some(&listed) if count > listed => worse.push(format!(
                    "worse: {} × {} changes {count} verdict(s), {listed} listed",
                    pair.0, pair.1
                )),
                Some(&listed) if count < listed => better.push(format!(
                    "better: {} × {} changes {count} verdict(s), {listed} listed",
                    pair.0, pair.1
                )),
                Some(_) => {}
            }
        }
        for (pair, listed) in &self.pairs {
            if !now.pairs.contains_key(pair) {
                better.push(format!(
                    "better: {} × {} no longer changes ({listed} listed)",
                    pair.0, pair.1
                ));
            }
        }
        worse.extend(better);
        worse
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::Verdict;

    fn outcome(input: &str, family: &'static str, changed: isize) -> Outcome {
        let diff = (0..changed)
            .map(|i| {
                (
                    Verdict {
                        lint: "panic_in_tool".into(),
                        text: format!("v{i}"),
                    },
                    1,
                )
            })
            .collect();
        Outcome {
            input: input.into(),
            family,
            sites: 1,
            diff,
            lints: Default::default(),
            error: None,
        }
    }

    #[test]
    fn new_worse_better_and_gone_pairs_are_all_reported() {
        let listed = Ratchet::parse("# c\na f 2\nb f 1 # trailing\nc f 3\n").expect("parses");
        let now = [
            outcome("a", "f", 3),
            outcome("b", "f", 1),
            outcome("d", "f", 1),
        ];
        let problems = listed.compare(&now);
        assert_eq!(
            problems,
            [
                "worse: a × f changes 3 verdict(s), 2 listed",
                "new: d × f changes 1 verdict(s)",
                "better: c × f no longer changes (3 listed)",
            ]
        );
        assert!(Ratchet::of(&now).compare(&now).is_empty());
    }

    #[test]
    fn what_is_rendered_reads_back() {
        let r = Ratchet::of(&[outcome("ui-tests/x.rs", "rename_locals", 2)]);
        assert_eq!(Ratchet::parse(&r.render()), Ok(r));
        assert!(Ratchet::parse("a b").is_err());
        assert!(Ratchet::parse("a b c").is_err());
    }
}
