//! Reading a Cargo.toml: dependencies, `panic = "abort"` settings, mcp-lint configuration.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mcp_lint::workspace::read_manifest_text(text, &mcp_lint::lints::CODES);
    }
});
