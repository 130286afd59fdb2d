//! "Did you mean": the closest known name to a misspelled one.

/// Edits (insertions, deletions, substitutions) between `a` and `b`.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, when it is close enough to be a typo (a third of the
/// name's length, at least two edits) or one starts with the other (`warning` for `warn`),
/// ignoring case and `-` versus `_`.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let normal = |s: &str| s.to_lowercase().replace('-', "_");
    let wanted = normal(name);
    let limit = (wanted.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| {
            let candidate = normal(c);
            let prefix = wanted.len().min(candidate.len()) >= 3
                && (wanted.starts_with(&candidate) || candidate.starts_with(&wanted));
            let d = distance(&wanted, &candidate);
            (if prefix { d.min(limit) } else { d }, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// "; did you mean `X`?" for the closest candidate, or nothing.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_name_and_strangers_find_nothing() {
        let names = ["panic_in_tool", "error_escapes_tool", "io_error"];
        assert_eq!(closest("panic_in_tools", names), Some("panic_in_tool"));
        assert_eq!(closest("Panic-In-Tol", names), Some("panic_in_tool"));
        assert_eq!(closest("io_eror", names), Some("io_error"));
        assert_eq!(closest("formatting", names), None);
        assert_eq!(closest("warning", ["allow", "warn", "deny"]), Some("warn"));
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
    }
}
