#!/usr/bin/env bash
# The window keeps drawing while a 45 MB PIE loads (issue 23): starts `vitrine` under
# Xvfb on a small model in a folder that also holds a generated 45 MB PIE (3 million
# points, as tests/resource_limits.rs makes its huge PIE), presses Page Down (the next
# model of the folder) and captures the screen twice while the big file loads. Both
# captures must show the previous model still drawn in the 3D view (as
# tests/xvfb_smoke.sh measures it); the window title must then name the big file.
#
# Usage: tests/xvfb_loading.sh   (env: VITRINE_BIN, default target/debug/vitrine;
# VITRINE_LOADING_OUT, folder for the captures, default a temp dir)
# Needs: xvfb-run, xdotool, imagemagick, python3, Mesa (lavapipe).
set -euo pipefail
cd "$(dirname "$0")/.."

W=1280 H=800
VIEW_X0=640 VIEW_Y0=30
CX=$(( (VIEW_X0 + W) / 2 )) CY=$(( (VIEW_Y0 + H) / 2 ))

if [ "${1:-}" != "--inner" ]; then
  for tool in xvfb-run xdotool import convert python3; do
    command -v "$tool" >/dev/null || { echo "xvfb_loading: $tool is not installed" >&2; exit 1; }
  done
  exec timeout 600 xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$0" --inner "$@"
fi
shift

bin="${VITRINE_BIN:-${CARGO_TARGET_DIR:-target}/debug/vitrine}"
[ -x "$bin" ] || { echo "xvfb_loading: no binary at $bin (run cargo build first)" >&2; exit 1; }
out="${VITRINE_LOADING_OUT:-$(mktemp -d)}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
export VITRINE_CONFIG_DIR="$work/cfg"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$work}"

models="$work/models"
mkdir -p "$models"
cp assets/demo/tank.pie "$models/a_tank.pie"
cp -r assets/demo/texpages "$models/"
python3 - "$models/b_big.pie" <<'PY'
import sys
line = "\t-12.5 7.25 3.5\n"
points = 45_000_000 // len(line)
with open(sys.argv[1], "w") as f:
    f.write("PIE 3\nTYPE 200\nTEXTURE 0 page-7.png 256 256\nLEVELS 1\nLEVEL 1\n")
    f.write(f"POINTS {points}\n\t0 0 0\n\t40 0 0\n\t0 40 0\n\t40 40 0\n")
    f.write(line * (points - 4))
    f.write("POLYGONS 2\n\t200 3 0 1 2 0 0 1 0 0 1\n\t200 3 1 3 2 0 0 1 0 0 1\n")
PY
echo "xvfb_loading: $(stat -c %s "$models/b_big.pie") bytes in b_big.pie"

"$bin" "$models/a_tank.pie" >"$out/vitrine.log" 2>&1 &
pid=$!

# The fraction of the view's centre box that is not the view's background.
drawn() {
  local bg
  bg=$(convert "$1" -format "%[pixel:p{$((W - 8)),$CY}]" info:)
  convert "$1" -crop "400x400+$((CX - 200))+$((CY - 200))" +repage \
    -fuzz 4% -fill black -opaque "$bg" -fill white +opaque black -format "%[fx:mean]" info:
}
shown() { awk -v f="$1" 'BEGIN { exit !(f > 0.15) }'; }

for _ in $(seq 1 120); do
  sleep 0.5
  kill -0 "$pid" 2>/dev/null || { echo "xvfb_loading: vitrine exited" >&2; cat "$out/vitrine.log" >&2; exit 1; }
  import -window root "$out/before.png" 2>/dev/null || continue
  shown "$(drawn "$out/before.png")" && break
done
shown "$(drawn "$out/before.png")" || { echo "xvfb_loading: the small model never showed" >&2; exit 1; }

wid=$(xdotool search --name "a_tank.pie" | head -1)
xdotool windowfocus --sync "$wid"
xdotool mousemove $CX $CY
started=$(date +%s.%N)
xdotool key Next

# Captures while the big file loads: the progress line under the menu bar (the strip
# there no longer matches the capture before the key) and the title still naming the
# small model. The window may take a while to take the key on a loaded machine.
strip="1280x22+0+26"
fail=0 n=0
for _ in $(seq 1 120); do
  sleep 1
  import -window root "$out/capture.png"
  title=$(xdotool getwindowname "$wid")
  case "$title" in *b_big.pie*) break ;; esac
  diff=$(compare -metric AE -fuzz 4% <(convert "$out/before.png" -crop "$strip" +repage png:-) \
    <(convert "$out/capture.png" -crop "$strip" +repage png:-) null: 2>&1 || true)
  [ "${diff%%.*}" -gt 5000 ] 2>/dev/null || continue
  n=$((n + 1))
  mv "$out/capture.png" "$out/loading-$n.png"
  f=$(drawn "$out/loading-$n.png")
  echo "xvfb_loading: capture $n at $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s: view ${f} drawn, progress strip ${diff} pixels changed, title \"$title\""
  shown "$f" || { echo "xvfb_loading: capture $n shows no model in the view" >&2; fail=1; }
  [ "$n" -ge 2 ] && break
  sleep 2
done
[ "$n" -ge 2 ] || { echo "xvfb_loading: $n captures showed the loading line" >&2; fail=1; }

for _ in $(seq 1 600); do
  case "$(xdotool getwindowname "$wid")" in *b_big.pie*) break ;; esac
  sleep 0.5
done
title=$(xdotool getwindowname "$wid")
echo "xvfb_loading: loaded after $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s, title \"$title\""
import -window root "$out/loaded.png"
case "$title" in *b_big.pie*) ;; *) echo "xvfb_loading: the big file never opened" >&2; fail=1 ;; esac
echo "xvfb_loading: captures in $out"
exit $fail
