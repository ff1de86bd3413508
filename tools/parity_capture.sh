#!/bin/bash
# parity_capture.sh - take the real game's frames that Vitrine is measured against
# (docs/parity.md): for each map, one launch of Warzone 2100 4.3.3 that shows several
# camera views in turn, each view's frame saved as tests/parity/<id>/<view>.png beside
# tests/parity/<id>/capture.json (the map, its seed, each view's camera, the game's
# version and config). Not run by CI: it needs the game, Xvfb and about a minute a map.
#
# usage: tools/parity_capture.sh [MAP...]
#   MAP  a skirmish level of mp.wz (Sk-Rush), or a map package (.wz, as the map database
#        ships them: level.json at its root); default: every level of mp.wz and the
#        sample of ../shared/corpus/wz2100/mapdb-2p listed in tests/parity/mapdb-sample.txt
#
# Each launch is set up as tools/side_by_side.sh sets up its one (read it first): a
# 640x480 window on Xvfb drawn by Mesa's software OpenGL, a skirmish with every slot an
# AI that does nothing, fog off and every other setting the game's default (shadows on),
# and an extra script that gives player N colour N, hides the interface and the minimap
# and builds a satellite uplink for player 0 in the map corner farthest from its start
# (so that the whole map is seen). 640x480 sees what 1024x768 sees (the game scales the
# world with the window's height), at 40 % of the pixels. The extra script then shows:
#   start   the game's own start view: its camera over player 0's HQ (or start);
#   p1      the same camera moved (centreView) over player 1's HQ (or start position);
#   middle  the camera over the map's middle, zoomed out as far as the game lets a player
#           (cameraZoom 5000: MAXDISTANCE).
# one after another by the wall clock (PARITY_FIRST_STEP, PARITY_STEP seconds; the
# game's own clock runs faster than it under --autogame), logging "PARITY view N {...}";
# parity_shoot.sh waits for each line, then for the screen to move on and settle, and
# takes it (ImageMagick import). A capture whose next view began before it was taken is
# refused. About 100 s a map on 2 busy cores. The frames in tests/parity/ were taken
# with cameraZoom easing (since made instant), so their `middle` views are left out.
#
# environment:
#   WZ_BIN, WZ_DATA   the game and its data folder (default /usr/games/warzone2100,
#                     /usr/share/games/warzone2100)
#   PARITY_OUT        output folder (default tests/parity)
#   PARITY_CORPUS     the map database's packages (default ../shared/corpus/wz2100/mapdb-2p)
#   PARITY_KEEP=1     keep the work folder (the game's log, its config)
# needs: bash, python3, xvfb-run, xdotool, ImageMagick (import, convert), timeout, setsid.
# exit status: 0 every map captured, 1 some failed (named on stderr), 2 setup error.

set -u
export LC_ALL=C
WZ_BIN=${WZ_BIN:-/usr/games/warzone2100}
WZ_DATA=${WZ_DATA:-/usr/share/games/warzone2100}
OUT=${PARITY_OUT:-tests/parity}
CORPUS=${PARITY_CORPUS:-../shared/corpus/wz2100/mapdb-2p}
HERE=$(cd "$(dirname "$0")" && pwd)

die() { echo "parity_capture: $*" >&2; exit 2; }
for c in python3 xvfb-run xdotool import convert timeout setsid; do
	command -v "$c" >/dev/null || die "$c is needed"
done
[ -x "$WZ_BIN" ] || die "game not found: $WZ_BIN"
[ -f "$WZ_DATA/mp.wz" ] || die "mp.wz not found in $WZ_DATA"
mkdir -p "$OUT" || die "cannot create $OUT"
if [ $# -eq 0 ]; then
	mapfile -t levels < <(python3 "$HERE/parity_capture.py" levels "$WZ_DATA/mp.wz") || die "cannot list mp.wz"
	set -- "${levels[@]}"
	if [ -f "$OUT/mapdb-sample.txt" ]; then
		while read -r name; do
			case $name in '' | '#'*) continue ;; esac
			set -- "$@" "$CORPUS/$name.wz"
		done <"$OUT/mapdb-sample.txt"
	fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/parity_capture.XXXXXX") || die "mktemp failed"
cleanup() {
	if [ "${PARITY_KEEP:-0}" = 1 ]; then echo "parity_capture: work folder kept: $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

failed=0
for MAP in "$@"; do
	T0=$(date +%s)
	L=$WORK/$(basename "$MAP" .wz)
	mkdir -p "$L/cfg" || die "cannot create $L"
	# the config folder: settings, the idle AI, the extra script; prints the map's id
	if ! ID=$(python3 "$HERE/parity_capture.py" setup "$MAP" "$WZ_DATA/mp.wz" "$L/cfg"); then
		failed=1
		continue
	fi
	if ! xvfb-run -a -s "-screen 0 640x480x24" "$HERE/parity_shoot.sh" "$L/cfg" "$L/game.log" "$L" "$WZ_BIN"; then
		echo "parity_capture: $MAP: the game gave no pictures (log: $L/game.log)" >&2
		grep -v '^info' "$L/game.log" | tail -n 15 >&2
		failed=1
		continue
	fi
	if ! python3 "$HERE/parity_capture.py" store "$MAP" "$L" "$OUT/$ID" "$WZ_BIN"; then
		failed=1
		continue
	fi
	echo "parity_capture: $ID: $(($(date +%s) - T0)) s" >&2
done
exit $failed
