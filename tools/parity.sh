#!/bin/bash
# parity.sh - the parity sweep: Vitrine's frame of every view captured from the game
# (tests/parity/, tools/parity_capture.sh) measured against the game's, and the report
# regenerated: docs/parity.md, docs/parity/*.png, tests/parity/figures.json (the figures
# the gate, tests/cli/parity_gate.rs, holds Vitrine to). Run it before a rendering
# change and after it; commit figures.json with a change that draws better.
#
# usage: tools/parity.sh [ID...]   (IDs: only these captures; the report is not rewritten)
#
# environment:
#   VITRINE   the program to draw with (default: target/debug/vitrine, built first)
#   WZ_DATA   folder with mp.wz (default /usr/share/games/warzone2100)
#   CORPUS    the shared corpus (default ../shared/corpus/wz2100)
# needs: cargo, the game's data (apt-get install warzone2100), a GPU adapter (lavapipe).
set -eu
cd "$(dirname "$0")/.."
WZ_DATA=${WZ_DATA:-/usr/share/games/warzone2100}
CORPUS=${CORPUS:-../shared/corpus/wz2100}
if [ -z "${VITRINE:-}" ]; then
	cargo build --quiet --bin vitrine
	VITRINE=${CARGO_TARGET_DIR:-target}/debug/vitrine
fi
[ -f "$WZ_DATA/mp.wz" ] || { echo "parity: no mp.wz in $WZ_DATA (set WZ_DATA)" >&2; exit 2; }
exec cargo run --quiet --example parity -- "$VITRINE" "$WZ_DATA" "$CORPUS" "$@"
