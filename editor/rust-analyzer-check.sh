#!/bin/sh
# A check command for rust-analyzer that keeps cargo's diagnostics and adds mcp-lint's: it
# runs `cargo check` (or `cargo clippy`) and then `cargo mcp-lint`, both with
# `--message-format=json`, and prints both streams of cargo JSON messages on stdout.
#
#   "rust-analyzer.check.overrideCommand": ["sh", "/path/to/rust-analyzer-check.sh", "clippy"]
#
# The first argument is cargo's command (`check` or `clippy`; default `check`); the others
# go to both commands (`--features x`, `-p server`; mcp-lint accepts cargo's flags). Needs
# `cargo-mcp-lint` on PATH (`cargo install --path .` in mcp-lint's repository).
# Exits with the first command's status, or mcp-lint's when the first succeeded.
command=${1:-check}
[ "$#" -gt 0 ] && shift
cargo "$command" --workspace --all-targets --message-format=json "$@"
status=$?
cargo mcp-lint --workspace --message-format=json "$@"
lint=$?
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
exit "$lint"
