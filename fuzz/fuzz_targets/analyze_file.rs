//! The whole analysis of one file (parse, model, facts, every lint), as the `src/main.rs` of an
//! rmcp server crate.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mcp_lint::analyze_text(text);
    }
});
