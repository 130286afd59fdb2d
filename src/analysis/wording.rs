//! What a message's words say: a failure announced, an SQL statement, a message about an
//! unknown tool, about the `tools/call` request itself, or about the tool's arguments. Word
//! lists are evidence only for text no `Err` explains; they live here, in one room, as the
//! model of the wording the engine reads.

/// Lower-case prefixes of messages that announce a failure.
const FAILURE_PREFIXES: &[&str] = &[
    "error:",
    "error -",
    "error ",
    "failed to ",
    "failed:",
    "failure:",
    "could not ",
    "couldn't ",
    "unable to ",
];

/// Lower-case prefixes of an empty search's answer: "could not find any match" says what the
/// search found (nothing), which is a result, while "could not find the file" is a failure.
const EMPTY_RESULT_PREFIXES: &[&str] = &[
    "could not find any ",
    "couldn't find any ",
    "unable to find any ",
];

/// Whether a message announces a failure: it starts so (`Error: ..`, `Failed to ..`), or, as
/// markdown, its first heading says so (`# Error`) or the first line after its headings
/// does, emphasis aside (`# Report\n\n**Error:** no match`).
pub fn is_failure_text(text: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    if announces_failure(&t) {
        return true;
    }
    for line in t.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some(heading) = line.strip_prefix('#') else {
            return announces_failure(line.trim_start_matches(['*', '_', '>', ' ']));
        };
        let heading = heading.trim_start_matches(['#', ' ']);
        if matches!(heading, "error" | "failed" | "failure") || announces_failure(heading) {
            return true;
        }
    }
    false
}

/// Whether text is an SQL statement (`SELECT ..`, `INSERT INTO ..`): the server's queries,
/// which an error sent to the model should not carry.
pub fn is_sql(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let (Some(first), second) = (words.next(), words.next()) else {
        return false;
    };
    // Keywords in one case, as queries are written: `Select a file from ..` is prose.
    let upper = first.bytes().all(|b| b.is_ascii_uppercase());
    if !upper && !first.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let word = |w: &str| {
        if upper {
            w.to_string()
        } else {
            w.to_ascii_lowercase()
        }
    };
    let has = |w: &str| text.contains(&format!(" {} ", word(w)));
    let then = |w: &str| second == Some(word(w).as_str());
    match first.to_ascii_uppercase().as_str() {
        "SELECT" | "WITH" => has("FROM"),
        "INSERT" | "REPLACE" => then("INTO"),
        "DELETE" => then("FROM"),
        "UPDATE" => has("SET"),
        "CREATE" | "DROP" | "ALTER" => {
            then("TABLE") || then("INDEX") || then("VIEW") || then("UNIQUE")
        }
        _ => false,
    }
}

fn announces_failure(t: &str) -> bool {
    FAILURE_PREFIXES.iter().any(|p| t.starts_with(p))
        && !EMPTY_RESULT_PREFIXES.iter().any(|p| t.starts_with(p))
}

/// A message about the tool itself being unknown ("unknown tool", "tool not found", "failed
/// to parse tool name").
pub fn mentions_unknown_tool(text: &str) -> bool {
    let t = text.to_lowercase();
    (t.contains("tool") || t.contains("method"))
        && [
            "not found",
            "unknown",
            "no such",
            "not exist",
            "tool name",
            "invalid tool",
            "unsupported tool",
        ]
        .iter()
        .any(|w| t.contains(w))
}

/// A message about the `tools/call` request itself rather than the tool's arguments: its
/// `params` object, the tool's name (`Missing params`, `tools/call requires 'name'`), or a
/// multi-round-trip request's `requestState`/`inputResponses` that do not match what the
/// server asked for (a protocol error by the spec).
pub fn mentions_request(text: &str) -> bool {
    let t = text.to_lowercase();
    names_the_request(text)
        || t.contains("'name'")
        || (t.contains("params") && !t.contains("argument"))
}

/// A message that can only be about the `tools/call` request: `tools/call`, the tool name,
/// a multi-round-trip request's `requestState`/`inputResponses`. Inside a tool's own code
/// (`'name'` is then one of its arguments) only these count.
pub fn names_the_request(text: &str) -> bool {
    let t = text.to_lowercase();
    let compact: String = t
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .collect();
    compact.contains("requeststate")
        || compact.contains("inputresponse")
        || t.contains("tools/call")
        || t.contains("tool name")
}

/// A message about the arguments ("missing argument", "`path` is required", "invalid ..").
pub fn mentions_arguments(text: &str) -> bool {
    let t = text.to_lowercase();
    [
        "argument",
        "parameter",
        "required",
        "missing",
        "invalid",
        "must be",
        "must not",
        "expected",
        "is empty",
        "cannot be empty",
        "out of range",
        "not allowed",
        "unsupported",
        "provided",
        "need ",
        "specify",
    ]
    .iter()
    .any(|w| t.contains(w))
}

#[cfg(test)]
mod tests {
    use super::is_failure_text;

    #[test]
    fn failure_announced_by_the_first_words() {
        assert!(is_failure_text("Error: no such file"));
        assert!(is_failure_text("  failed to connect"));
        assert!(!is_failure_text("Could not find any match"));
        assert!(!is_failure_text("3 errors were fixed"));
    }

    #[test]
    fn sql_statements() {
        use super::is_sql;
        assert!(is_sql("SELECT id, name FROM users WHERE id = ?"));
        assert!(is_sql("insert into notes (body) values (?1)"));
        assert!(is_sql("UPDATE t SET a = 1"));
        assert!(is_sql("CREATE TABLE IF NOT EXISTS t (id INTEGER)"));
        assert!(!is_sql("Select a file from the list"));
        assert!(!is_sql("update available"));
        assert!(!is_sql(""));
    }

    #[test]
    fn failure_announced_by_markdown() {
        assert!(is_failure_text("# Error\n\nthe index is gone"));
        assert!(is_failure_text("## Search\n\n**Error:** no valid seed"));
        assert!(is_failure_text("# Report\n> Failed to reach the server"));
        // Only the first line after the headings speaks for the whole text.
        assert!(!is_failure_text("# Log\n\nrun 1 ok\nError: run 2"));
        assert!(!is_failure_text("# Errors in the code base\n\n3 found"));
    }
}
