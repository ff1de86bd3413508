#!/usr/bin/env bash
# Builds Vitrine's web page into OUT_DIR, a folder of static files any web server can
# host (GitHub Pages, itch.io, `python3 -m http.server`): index.html, vitrine.js (the
# wasm-bindgen glue, an ES module), vitrine_bg.wasm and the icon; and the engines only
# some maps need, each a module the page fetches when a map first asks for it
# (vitrine_engines.js, which loads them; vitrine_script.js + vitrine_script_bg.wasm: Boa,
# for a script map's game.js; vitrine_ktx2.js + vitrine_ktx2_bg.wasm: the KTX2 ground
# transcoder). The engines are built one cargo run each: built with the page, their
# core features would be the page's too.
#
#   web/build.sh OUT_DIR          optimised for size (the `web` profile, then wasm-opt -O2)
#   web/build.sh --dev OUT_DIR    a quicker debug build
#   web/build.sh --test OUT_DIR   what the browser tests load: optimised without LTO or
#                                 wasm-opt (the `web-test` profile), quick to build and
#                                 near the published page's speed
#
# Needs the wasm32 target (rustup target add wasm32-unknown-unknown). Installs the
# wasm-bindgen CLI at the crate's locked version when missing (web/wasm-tools.sh); runs
# wasm-opt when Debian's binaryen is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=web
out=""
for arg in "$@"; do
  case "$arg" in
    --dev) profile=dev ;;
    --test) profile=web-test ;;
    -*) echo "web/build.sh: unknown option $arg" >&2; exit 2 ;;
    *) out="$arg" ;;
  esac
done
[ -n "$out" ] || { echo "usage: web/build.sh [--dev] OUT_DIR" >&2; exit 2; }

source web/wasm-tools.sh
cargo build -p vitrine-web --lib --target wasm32-unknown-unknown --profile "$profile"
dir="$profile"
[ "$profile" = dev ] && dir=debug
mkdir -p "$out"
OPTIMISE=$([ "$profile" = web ] && echo 1 || echo 0) \
  wasm_bind "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$dir/vitrine_web.wasm" "$out" vitrine
for engine in script ktx2; do
  cargo build -p "vitrine-$engine" --lib --target wasm32-unknown-unknown --profile "$profile"
  OPTIMISE=$([ "$profile" = web ] && echo 1 || echo 0) \
    wasm_bind "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$dir/vitrine_$engine.wasm" "$out" "vitrine_$engine"
done
cp web/vitrine_engines.js "$out/vitrine_engines.js"
cp web/index.html "$out/index.html"
cp assets/icon/vitrine-256.png "$out/icon.png"
# Sizes: KiB on disk, MiB gzip -9 (what a server sends compressed).
size() {
  echo "$(du -k "$out/$1" | cut -f1) KiB, $(gzip -9c "$out/$1" | wc -c | awk '{printf "%.2f", $1/1048576}') MiB gzipped"
}
echo "web: built $out (vitrine_bg.wasm: $(size vitrine_bg.wasm); fetched when a map needs them: vitrine_script_bg.wasm: $(size vitrine_script_bg.wasm), vitrine_ktx2_bg.wasm: $(size vitrine_ktx2_bg.wasm))"
