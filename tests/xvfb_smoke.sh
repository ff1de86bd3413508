#!/usr/bin/env bash
# Smoke test of the real window: starts `vitrine` (the demo model) under Xvfb, captures
# the X screen with ImageMagick's `import` and checks that the 3D view shows a model:
# in a 400×400 box at the centre of the view, at least 15 % of the pixels must differ
# from the view's background (sampled at the right edge of the view, level with its centre, which the framed
# model never reaches since it fills at most 90 % of the view's shorter side). An empty
# view, an error banner instead of a model or a black window all fail it. The app must
# then close itself (VITRINE_EXIT_AFTER_FRAMES) with exit code 0.
#
# Usage: tests/xvfb_smoke.sh [MODEL]   (env: VITRINE_BIN, default $CARGO_TARGET_DIR or
# target/debug/vitrine; VITRINE_SMOKE_OUT, folder for screen.png, default a temp dir)
# Needs: xvfb-run (xvfb, xauth), imagemagick, Mesa (lavapipe).
set -euo pipefail
cd "$(dirname "$0")/.."

# Screen and layout: the window opens at its default 1280×800 at the origin; the side
# panel is at most 640 points wide (crates/app/src/layout.rs) and the menu bar ~24 tall, so the
# box is inside the view whatever the panel's width, and over the model's middle (the
# model is framed at the view's centre, about 40 points right of this box's centre for
# the default panel width).
W=1280 H=800
VIEW_X0=640 VIEW_Y0=30
CX=$(( (VIEW_X0 + W) / 2 )) CY=$(( (VIEW_Y0 + H) / 2 ))

if [ "${1:-}" != "--inner" ]; then
  for tool in xvfb-run import convert; do
    command -v "$tool" >/dev/null || { echo "xvfb_smoke: $tool is not installed" >&2; exit 1; }
  done
  exec timeout 180 xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$0" --inner "$@"
fi
shift

bin="${VITRINE_BIN:-${CARGO_TARGET_DIR:-target}/debug/vitrine}"
[ -x "$bin" ] || { echo "xvfb_smoke: no binary at $bin (run cargo build/test first)" >&2; exit 1; }
out="${VITRINE_SMOKE_OUT:-$(mktemp -d)}"
mkdir -p "$out"
cfg="$(mktemp -d)"                  # fresh settings: default window size and background
export VITRINE_CONFIG_DIR="$cfg"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$cfg}"
export VITRINE_EXIT_AFTER_FRAMES="${VITRINE_EXIT_AFTER_FRAMES:-100}"   # ≥ 5 s at 50 ms/frame

"$bin" "$@" >"$out/vitrine.log" 2>&1 &
pid=$!

passed=0 fraction=0 bg=unknown
for _ in $(seq 1 100); do
  sleep 0.5
  kill -0 "$pid" 2>/dev/null || break
  import -window root "$out/screen.png" 2>/dev/null || continue
  bg=$(convert "$out/screen.png" -format "%[pixel:p{$((W - 8)),$CY}]" info:)
  fraction=$(convert "$out/screen.png" -crop "400x400+$((CX - 200))+$((CY - 200))" +repage \
    -fuzz 4% -fill black -opaque "$bg" -fill white +opaque black -format "%[fx:mean]" info:)
  if awk -v f="$fraction" 'BEGIN { exit !(f > 0.15) }'; then
    passed=1
    break
  fi
done

rc=0
wait "$pid" || rc=$?
echo "xvfb_smoke: screen capture $out/screen.png; model pixels in the view's centre: $fraction; app exit code $rc"
if [ "$passed" != 1 ]; then
  echo "xvfb_smoke: FAILED: the 3D view looks empty (background $bg)" >&2
  tail -n 30 "$out/vitrine.log" >&2
  exit 1
fi
if [ "$rc" != 0 ]; then
  echo "xvfb_smoke: FAILED: the app exited with $rc" >&2
  tail -n 30 "$out/vitrine.log" >&2
  exit 1
fi
rm -rf "$cfg"
echo "xvfb_smoke: ok"
