//! UI tests: each `ui-tests/<lint>/<case>.rs` is linted as the `src/main.rs` of a scratch
//! crate (see `common::ui_case` for the header lines that configure it), and the full output
//! (stdout, the stderr summary, the exit code) must equal `<case>.stdout`. Re-write the
//! expectations with `MCP_LINT_BLESS=1`.

mod common;

use std::path::Path;

fn run_case(case: &Path) -> Result<(), String> {
    let (dir, args) = common::ui_case::scratch(case)?;
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = common::mcp_lint(&dir, &arg_refs);
    let _ = std::fs::remove_dir_all(&dir);
    let actual = format!(
        "{}{}exit code: {}\n",
        common::text(&output.stdout),
        common::text(&output.stderr),
        output.status.code().unwrap_or(-1)
    );
    let expected_path = case.with_extension("stdout");
    if std::env::var_os("MCP_LINT_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).map_err(|_| {
        format!(
            "{}: no expected output; run with MCP_LINT_BLESS=1 to write it",
            expected_path.display()
        )
    })?;
    if expected != actual {
        return Err(format!(
            "{}: output differs\n--- expected\n{expected}\n--- actual\n{actual}",
            case.display()
        ));
    }
    Ok(())
}

#[test]
fn ui() {
    let cases = common::ui_case::all();
    assert!(!cases.is_empty(), "no ui-test cases found");
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c).err()).collect();
    println!("{} ui cases, {} failed", cases.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_lint_has_a_doc_and_ui_tests() {
    let root = common::repo();
    for lint in mcp_lint::lints::ALL {
        let doc = root.join("lints").join(format!("{}.md", lint.name()));
        let text = std::fs::read_to_string(&doc).expect("lint doc exists");
        assert!(
            text.contains("## What it does"),
            "{} lacks sections",
            doc.display()
        );
        let dir = root.join("ui-tests").join(lint.name());
        let cases = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
                    .count()
            })
            .unwrap_or(0);
        assert!(cases >= 2, "{} needs ui-test cases", dir.display());
    }
}
