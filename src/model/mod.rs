//! What the code says, neutrally: each file lowered to an IR of items and fn bodies, with
//! names resolved through the file's imports. Nothing here knows an SDK or a lint.

mod cfg;
pub mod decls;
mod expand;
pub mod intern;
pub mod ir;
pub mod lower;
mod lower_expr;
mod lower_macro;
mod lower_select;
pub mod resolve;
mod scope;
pub mod span;

/// The module path of a file from its path relative to the package root.
pub fn module_of(relative: &std::path::Path) -> Vec<ir::Name> {
    let mut parts: Vec<ir::Name> = relative
        .iter()
        .map(|p| ir::Name::from(p.to_string_lossy()))
        .collect();
    if parts.first().is_some_and(|p| p == "src") {
        parts.remove(0);
    }
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        let crate_root = parts.is_empty() && matches!(stem, "lib" | "main");
        if stem != "mod" && !crate_root {
            parts.push(stem.into());
        }
    }
    parts
}
