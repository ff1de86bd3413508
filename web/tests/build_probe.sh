#!/usr/bin/env bash
# Builds the browser tests' probe (web/examples/render_probe.rs) into OUT_DIR with its
# page (web/tests/probe.html): the `web-test` profile the tests' page is built with
# (optimised, without LTO or wasm-opt) — it checks the renderer's browser path, not the
# page's size.
#   web/tests/build_probe.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:?usage: web/tests/build_probe.sh OUT_DIR}"
source web/wasm-tools.sh
cargo build -p vitrine-web --example render_probe --target wasm32-unknown-unknown --profile web-test
mkdir -p "$out"
OPTIMISE=0 wasm_bind "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web-test/examples/render_probe.wasm" "$out" probe
cp web/tests/probe.html "$out/index.html"
# The page's crate imports the engines' loader (web/src/engines.rs); the probe never asks
# for an engine, but its module does not start without the file.
cp web/vitrine_engines.js "$out/vitrine_engines.js"
# The demo model, served beside the probe.
rm -rf "$out/demo"
cp -r assets/demo "$out/demo"
echo "web: probe built into $out"
