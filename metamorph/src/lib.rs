//! The metamorphic check of mcp-lint.
//!
//! A verdict of the linter must not change when code is renamed, re-exported, reordered,
//! extracted into a helper or registered another way. This crate rewrites a server's source
//! in ways that keep what it means ([`families`]), runs the linter on both, puts each finding
//! of the rewritten program back at the input position it stands for ([`edit`]) and compares
//! ([`verdicts`], [`check`]). Today's known differences are pinned in a ratchet file
//! ([`ratchet`]); the project's tests fail when a new one appears.
//!
//! It knows mcp-lint only through its command line and its documented JSON outputs.

pub mod edit;
pub mod families;
pub mod names;
pub mod syntax;
pub mod tree;

pub use edit::{Origin, Rewrite};
pub use families::Family;
pub use tree::Tree;
