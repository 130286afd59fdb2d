#!/usr/bin/env bash
# Runs the fuzz targets for a bounded time (seconds per target, default 45), seeded with the
# ui-test inputs and the manifests of this repository: one file's whole analysis, manifest
# reading, --fix (every fix applied, diffed, re-parsed) and rendering in every format. A crash
# fails the script; its input is left in fuzz/artifacts/ — copy it to fuzz/regressions/ so
# tests/fuzz_regressions.rs keeps it.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-45}"
if cargo +nightly --version >/dev/null 2>&1; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
# The instrumented build compiles every dependency again; at opt-level 1 that takes about half
# as long as at cargo-fuzz's default 3, and a bounded run is spent mostly on the build.
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1}"
mkdir -p corpus/analyze_file corpus/manifest corpus/fix corpus/render
for rust_target in analyze_file fix render; do
  cp ../ui-tests/*/*.rs "corpus/$rust_target/" 2>/dev/null || true
  cp regressions/*.rs "corpus/$rust_target/" 2>/dev/null || true
done
cp ../Cargo.toml corpus/manifest/root.toml
cp Cargo.toml corpus/manifest/fuzz.toml
for target in analyze_file manifest fix render; do
  "${fuzz[@]}" run "$target" "corpus/$target" -- -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096
done
