#!/usr/bin/env bash
# Regenerates std-methods.txt from the toolchain's HTML docs (`rustup component add rust-docs`).
set -euo pipefail
html="$(rustc --print sysroot)/share/doc/rust/html"
out="$(dirname "$0")/std-methods.txt"
{
  echo "# Method names of std, core and alloc (from the toolchain's HTML docs, metamorph/data/gen-std-methods.sh)."
  echo "# The item renames leave a crate's method alone when its name is here: a call \`.name(..)\` of"
  echo "# such a name may be a std method, and renaming it would change what the code means."
  for d in std core alloc; do
    grep -rhoE 'id="(ty)?method\.[a-zA-Z_0-9]+"' "$html/$d" || true
  done | sed -E 's/id="(ty)?method\.//; s/"//' | LC_ALL=C sort -u
} > "$out"
