//! Inputs the fuzzer found (fuzz/regressions/) and hostile inputs, through the same in-memory
//! entry point the fuzzer uses: none may panic, and the hostile ones get the diagnostic meant
//! for them.

mod common;

use mcp_lint::analyze_text;

#[test]
fn fuzz_regressions_and_ui_inputs_do_not_panic() {
    let mut inputs = Vec::new();
    for dir in [
        common::repo().join("fuzz/regressions"),
        common::repo().join("ui-tests"),
    ] {
        let mut stack = vec![dir];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    inputs.push(path);
                }
            }
        }
    }
    assert!(inputs.len() > 40, "inputs: {}", inputs.len());
    for input in inputs {
        let bytes = std::fs::read(&input).expect("read");
        let findings = analyze_text(&String::from_utf8_lossy(&bytes));
        assert!(
            findings.iter().all(|f| f.lint != "internal_error"),
            "{}: internal error",
            input.display()
        );
    }
}

#[test]
fn hostile_inputs() {
    let deep = format!(
        "fn main() {{ {}0{} }}",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let findings = analyze_text(&deep);
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].lint, "analysis_incomplete");
    assert!(findings[0].message.contains("this item was not analysed"));

    for text in [
        "",
        "\u{feff}fn main() {}",
        "#!/usr/bin/env run-cargo-script\nfn main() { println!(\"x\"); }",
        "fn main() { \"unterminated }",
        "macro_rules! m { ($($t:tt)*) => { $($t)* } } m! { fn f() { x.unwrap() } }",
        &"fn f() {}\n".repeat(20_000),
        "impl rmcp::ServerHandler for S { async fn call_tool(&self) -> Result<CallToolResult, rmcp::ErrorData> { match name { _ => loop {} } } }",
    ] {
        let findings = analyze_text(text);
        assert!(
            findings.iter().all(|f| f.lint != "internal_error"),
            "{text:.60}"
        );
    }
}
