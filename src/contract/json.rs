//! `--format json` and `--write`: the versioned contract, pretty-printed, one trailing
//! newline. Tools and paths are sorted, so the same code always gives the same text.

use super::model::Contract;

pub fn render(contract: &Contract) -> Result<String, String> {
    serde_json::to_string_pretty(contract)
        .map(|mut text| {
            text.push('\n');
            text
        })
        .map_err(|e| format!("cannot write the contract as JSON: {e}"))
}
