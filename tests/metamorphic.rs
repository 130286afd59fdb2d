//! The metamorphic check: every ui-test input and the bundled example are rewritten by each
//! meaning-preserving family of `metamorph/`, and the linter's verdicts (findings and the
//! contract, put back at input positions) must not change — except for the pairs listed in
//! `tests/metamorphic/ratchet.txt`, which may change exactly as much as listed. A pair that
//! changes and is not listed fails the test; so does a listed pair that now changes less (then
//! shorten the list: `MCP_LINT_BLESS=1 cargo test --test metamorphic`). The family × lint
//! table is printed (`-- --nocapture`) and written to `target/metamorph/table.md`, every moved
//! verdict to `target/metamorph/report.txt`.

mod common;

use std::path::PathBuf;

use mcp_lint_metamorph::{Input, Linter, Ratchet, Tree, check, families};

fn ratchet_path() -> PathBuf {
    common::repo().join("tests/metamorphic/ratchet.txt")
}

/// Every ui-test as the crate the ui test lints, and the example.
fn inputs() -> Vec<Input> {
    let root = common::repo();
    let mut inputs = Vec::new();
    for case in common::ui_case::all() {
        let (dir, args) = common::ui_case::scratch(&case).expect("scratch crate");
        let tree = Tree::read(&dir).expect("read the scratch crate");
        let _ = std::fs::remove_dir_all(&dir);
        // The ui test's own flags, without the path and the colour it adds.
        let args = args
            .into_iter()
            .skip_while(|a| a == "." || a == "--color" || a == "never")
            .collect();
        let name = case
            .strip_prefix(&root)
            .unwrap_or(&case)
            .display()
            .to_string();
        inputs.push(Input { name, tree, args });
    }
    let example = root.join("example/notes-server");
    inputs.push(Input {
        name: "example/notes-server".into(),
        tree: Tree::read(&example).expect("read the example"),
        args: Vec::new(),
    });
    inputs
}

#[test]
fn verdicts_survive_meaning_preserving_rewrites() {
    let linter =
        Linter::new(std::path::Path::new(env!("CARGO_BIN_EXE_mcp-lint"))).expect("the linter runs");
    let families = families::all();
    let inputs = inputs();
    let work = check::work_dir("test");
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let outcomes = check::run(&linter, &inputs, &families, &work, threads);
    let _ = std::fs::remove_dir_all(&work);

    let table = check::table(&outcomes, &families);
    let report = check::report(&outcomes);
    let out_dir = common::repo().join("target/metamorph");
    let _ = std::fs::create_dir_all(&out_dir);
    let _ = std::fs::write(out_dir.join("table.md"), &table);
    let _ = std::fs::write(out_dir.join("report.txt"), &report);
    println!("{table}");

    let errors: Vec<String> = outcomes
        .iter()
        .filter_map(|o| {
            o.error
                .as_ref()
                .map(|e| format!("{} × {}: {e}", o.input, o.family))
        })
        .collect();
    assert!(
        errors.is_empty(),
        "the harness failed:\n{}",
        errors.join("\n")
    );
    // A family that finds nothing to rewrite in any input tests nothing.
    for family in &families {
        assert!(
            outcomes
                .iter()
                .any(|o| o.family == family.name() && o.sites > 0),
            "the family {} rewrote no input",
            family.name()
        );
    }

    if std::env::var_os("MCP_LINT_BLESS").is_some() {
        std::fs::write(ratchet_path(), Ratchet::of(&outcomes).render()).expect("write ratchet");
        return;
    }
    let listed = std::fs::read_to_string(ratchet_path()).expect("the ratchet file exists");
    let problems = Ratchet::parse(&listed)
        .expect("the ratchet file parses")
        .compare(&outcomes);
    assert!(
        problems.is_empty(),
        "the verdicts under rewrites differ from tests/metamorphic/ratchet.txt:\n{}\n\n\
         (new or worse: a verdict depends on spelling — see target/metamorph/report.txt; \
         better: shorten the list with MCP_LINT_BLESS=1 cargo test --test metamorphic)",
        problems.join("\n")
    );
}
