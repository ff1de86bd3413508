#!/usr/bin/env bash
# Prints the path of a cargo-deb to build the .deb with: the one on PATH, else the one kept
# in TARGET/tools, installed there from crates.io (MIT; a few minutes, once) when missing.
# packaging/release.sh calls it; CI calls it early, beside its other builds.
#
#   packaging/cargo-deb.sh TARGET_DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: packaging/cargo-deb.sh TARGET_DIR" >&2; exit 2; }
if command -v cargo-deb >/dev/null 2>&1; then
  command -v cargo-deb
  exit 0
fi
target="$(realpath -m "$1")"
cargo_deb="$target/tools/bin/cargo-deb"
if [ ! -x "$cargo_deb" ]; then
  echo "release: installing cargo-deb into $target/tools (once)" >&2
  CARGO_TARGET_DIR="$target/tools-build" cargo install cargo-deb --version 3.8.0 --locked \
    --root "$target/tools" >&2
  rm -rf "$target/tools-build"
fi
echo "$cargo_deb"
