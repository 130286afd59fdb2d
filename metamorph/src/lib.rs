//! The metamorphic check of mcp-lint.
//!
//! A verdict of the linter must not change when code is renamed, re-exported, reordered,
//! extracted into a helper or registered another way. This crate rewrites a server's source
//! in ways that keep what it means ([`families`]), runs the linter on both, puts each verdict
//! about the rewritten program back at the input position it stands for ([`edit`],
//! [`verdicts`]) and compares ([`check`]). Today's known differences are pinned in a ratchet
//! file ([`ratchet`]); the project's tests fail when a new one appears.
//!
//! It knows mcp-lint only through its command line and its documented JSON outputs.

pub mod check;
pub mod edit;
pub mod families;
pub mod names;
pub mod ratchet;
pub mod syntax;
pub mod tree;
pub mod verdicts;

pub use check::{Input, Outcome};
pub use edit::{Origin, Rewrite};
pub use families::Family;
pub use ratchet::Ratchet;
pub use tree::Tree;
pub use verdicts::Linter;
