#!/usr/bin/env bash
# Prints the version of the release: Cargo.toml's [workspace.package] version (what
# `vitrine --version` prints and every artefact's name carries). release.sh and the
# checks name the artefacts with it; exits 1 when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(awk '/^\[workspace.package\]/ { f = 1 } f && /^version *=/ { gsub(/[" ]/, "", $0); sub(/version=/, ""); print; exit }' Cargo.toml)"
[ -n "$version" ] || { echo "no version in Cargo.toml's [workspace.package]" >&2; exit 1; }
echo "$version"
