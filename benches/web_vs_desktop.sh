#!/usr/bin/env bash
# The page against the desktop window, in the same run (docs/performance.md ▸ The web page):
# - the page (web/tests/bench.mjs on a page built with the `web` profile): its transfer
#   size, navigation → demo model ready, frames/s while orbiting the demo model, on WebGPU
#   and WebGL2 in headless Chromium (SwiftShader);
# - the desktop window (release build, under Xvfb on Mesa's lavapipe, at the page's
#   viewport size, 1024×700): process start → the first frame that shows the demo model,
#   and frames/s while orbiting it with the left button held — both read from the
#   window's frame log (RUST_LOG=vitrine::frames=debug: one line a frame, with what it
#   shows).
#
#   benches/web_vs_desktop.sh [ROUNDS] [SECONDS]     (defaults: 5 rounds, 5 s of orbit)
#
# Env: VITRINE_WEB_PAGE=DIR uses a page already built (else web/build.sh builds one into
# target/web-bench: minutes from a cold target); VITRINE_BIN=FILE a release binary
# already built. Needs what the browser tests need, plus
# xvfb-run and xdotool.
set -euo pipefail
cd "$(dirname "$0")/.."
W=1024 H=700

if [ "${1:-}" = "--desktop" ]; then
  # Under Xvfb (below): the desktop window's figures.
  bin="$2" rounds="$3" seconds="$4"
  cfg="$(mktemp -d)"
  export VITRINE_CONFIG_DIR="$cfg" XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$cfg}"
  printf '{"window_size":[%d,%d]}\n' "$W" "$H" >"$cfg/settings.json"
  ms() { date +%s%3N; }
  # The frame log's time stamps (env_logger, UTC, milliseconds) as epoch milliseconds.
  stamp_ms() { date -u -d "$(echo "$1" | sed -E 's/^\[([^ ]+)Z.*/\1/; s/T/ /')" +%s%3N; }
  ready=()
  for _ in $(seq 1 "$rounds"); do
    log="$cfg/start.log"
    t0=$(ms)
    RUST_LOG=vitrine::frames=debug VITRINE_EXIT_AFTER_FRAMES=200 "$bin" assets/demo/tank.pie 2>"$log" &
    pid=$!
    for _ in $(seq 1 300); do
      grep -q "showing tank.pie" "$log" && break
      sleep 0.05
    done
    line="$(grep -m1 "showing tank.pie" "$log")" || { echo "desktop: the model never showed" >&2; exit 1; }
    ready+=("$(( $(stamp_ms "$line") - t0 ))")
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  sorted="$(printf '%s\n' "${ready[@]}" | sort -n)"
  median="$(echo "$sorted" | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')"

  # Orbit: the left button held in the view, the mouse circling for `seconds`.
  log="$cfg/orbit.log"
  RUST_LOG=vitrine::frames=debug "$bin" assets/demo/tank.pie 2>"$log" &
  pid=$!
  id="$(xdotool search --sync --onlyvisible --name "Vitrine" | head -1)"
  for _ in $(seq 1 300); do grep -q "showing tank.pie" "$log" && break; sleep 0.05; done
  sleep 1
  cx=740 cy=320
  xdotool windowfocus "$id" mousemove --window "$id" $((cx + 100)) "$cy"
  sleep 0.5
  before="$(grep -c "frame interval" "$log")"
  t0=$(ms)
  xdotool mousedown 1
  step=0
  while [ $(( $(ms) - t0 )) -lt $(( seconds * 1000 )) ]; do
    x="$(awk -v s="$step" -v c="$cx" 'BEGIN { printf "%d", c + 100 * cos(s / 40 * 6.2832) }')"
    y="$(awk -v s="$step" -v c="$cy" 'BEGIN { printf "%d", c + 60 * sin(s / 40 * 6.2832) }')"
    xdotool mousemove --window "$id" "$x" "$y"
    step=$((step + 1))
  done
  t1=$(ms)
  xdotool mouseup 1
  after="$(grep -c "frame interval" "$log")"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  fps="$(awk -v n=$((after - before)) -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", n / (t / 1000) }')"

  # mp.wz over data/base (a data root, as the page's dropped base.wz): start → the
  # gallery with no thumbnail pending (a fresh thumbnail cache: every one drawn).
  gallery="no corpus: mp.wz not measured"
  wz="../shared/corpus/wz2100/archives/mp.wz"
  if [ -f "$wz" ]; then
    printf '{"window_size":[%d,%d],"data_roots":["%s"]}\n' "$W" "$H" \
      "$(cd ../shared/corpus/wz2100/data/base && pwd)" >"$cfg/settings.json"
    log="$cfg/gallery.log"
    g0=$(ms)
    RUST_LOG=vitrine::frames=debug "$bin" "$wz" 2>"$log" &
    pid=$!
    line=""
    for _ in $(seq 1 1200); do
      # The first frame with none pending after one with some.
      line="$(awk '/ [1-9][0-9]* thumbnails pending, showing a gallery/ { some = 1 }
        some && / 0 thumbnails pending, showing a gallery/ { print; exit }' "$log")"
      [ -n "$line" ] && break
      sleep 0.05
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [ -n "$line" ] && gallery="mp.wz → gallery with every thumbnail: $(( $(stamp_ms "$line") - g0 )) ms"
  fi
  echo "desktop (lavapipe, ${W}×${H}): start → demo model shown: median ${median} ms ($(echo "${ready[@]}" | sed 's/ /, /g') ms); orbiting: ${fps} frames/s ($((after - before)) frames in $(( (t1 - t0) / 1000 )) s, ${step} mouse moves); ${gallery}"
  exit 0
fi

rounds="${1:-5}" seconds="${2:-5}"
page="${VITRINE_WEB_PAGE:-}"
if [ -z "$page" ]; then
  page="${CARGO_TARGET_DIR:-target}/web-bench"
  web/build.sh "$page" >&2
fi
bin="${VITRINE_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --bin vitrine >&2
  bin="$(pwd)/${CARGO_TARGET_DIR:-target}/release/vitrine"
  [ "${CARGO_TARGET_DIR:-}" != "${CARGO_TARGET_DIR#/}" ] && bin="$CARGO_TARGET_DIR/release/vitrine"
fi

echo "## $(date -u +%H:%M) UTC, load $(cut -d' ' -f1 /proc/loadavg)"
node web/tests/bench.mjs "$page" "$rounds" "$seconds"
xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$0" --desktop "$bin" "$rounds" "$seconds"
