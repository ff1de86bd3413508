#!/usr/bin/env bash
# A Warzone 2100 map from nothing to its first frame, on the page and in the window
# (docs/performance.md ▸ Maps), with the installed game's mp.wz and base.wz:
# - the page: web/tests/bench_map.mjs (navigation → the first frame once the map is
#   ready; mp.wz by ?url=, base.wz by &data=, read with HTTP ranges);
# - the desktop window under Xvfb (Mesa's lavapipe, 1024×700): process start → the first
#   frame that shows the map, read from the window's frame log
#   (RUST_LOG=vitrine::frames=debug), the map's data roots the detected installation.
#
#   benches/map_first_frame.sh [MAP] [ROUNDS]   (default 8c-concreteplayground, 3 rounds)
#
# Env: VITRINE_WEB_PAGE=DIR a built page (web/build.sh; else the page is not measured);
# VITRINE_BIN=FILE the program (default: the debug build of CARGO_TARGET_DIR or target);
# WZ_DATA the game's data folder (default /usr/share/games/warzone2100). Needs xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/.."
W=1024 H=700
map="${1:-8c-concreteplayground}" rounds="${2:-3}"
data="${WZ_DATA:-/usr/share/games/warzone2100}"

if [ "${3:-}" = "--desktop" ]; then
  bin="$4"
  cfg="$(mktemp -d)"
  export VITRINE_CONFIG_DIR="$cfg" XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$cfg}" XDG_CACHE_HOME="$cfg"
  printf '{"window_size":[%d,%d]}\n' "$W" "$H" >"$cfg/settings.json"
  ms() { date +%s%3N; }
  stamp_ms() { date -u -d "$(echo "$1" | sed -E 's/^\[([^ ]+)Z.*/\1/; s/T/ /')" +%s%3N; }
  times=()
  for _ in $(seq 1 "$rounds"); do
    log="$cfg/start.log"
    t0=$(ms)
    RUST_LOG=vitrine::frames=debug "$bin" "$data/mp.wz!/multiplay/maps/$map/game.map" 2>"$log" &
    pid=$!
    for _ in $(seq 1 2400); do
      grep -q "showing game.map" "$log" && break
      sleep 0.05
    done
    line="$(grep -m1 "showing game.map" "$log")" || { echo "desktop: the map never showed" >&2; exit 1; }
    times+=("$(( $(stamp_ms "$line") - t0 ))")
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  median="$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
  echo "desktop (lavapipe, ${W}×${H}, $(basename "$bin")): start → first frame of $map: median ${median} ms ($(echo "${times[@]}" | sed 's/ /, /g') ms)"
  exit 0
fi

bin="${VITRINE_BIN:-${CARGO_TARGET_DIR:-$(pwd)/target}/debug/vitrine}"
echo "## $(date -u +%H:%M) UTC, load $(cut -d' ' -f1 /proc/loadavg)"
if [ -n "${VITRINE_WEB_PAGE:-}" ]; then
  node web/tests/bench_map.mjs "$VITRINE_WEB_PAGE" "$map" "$rounds"
fi
xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$0" "$map" "$rounds" --desktop "$bin"
