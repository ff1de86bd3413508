#!/usr/bin/env bash
# Benchmark of the animation export, end to end through `vitrine render` (load, render
# every frame offscreen, encode on a second thread, write): the synthetic PangYa puppet's
# 60-frame clip (30 fps) at 512×512, per format (GIF dithered and not, APNG, WebP
# lossless and lossy, PNG sequence). Then a 240-frame turntable of the same
# clip, to show that peak memory does not grow with the frame count (frames are
# streamed to the encoder, not kept).
#
# Usage: benches/animation_export.sh   (env: VITRINE_BIN, default target/release/vitrine;
# VITRINE_SHARED, default ../shared). Build first: cargo build --release.
# Prints one line per run: format, frames, seconds, frames/s, output size, peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${VITRINE_BIN:-target/release/vitrine}"
shared="${VITRINE_SHARED:-../shared}"
model="$shared/corpus/synthetic/pet/puppet_v13.pet"
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release)" >&2; exit 1; }
[ -f "$model" ] || { echo "no $model (the shared corpus)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$out}"

run() { # label, output name, extra args...
  local label=$1 name=$2
  shift 2
  /usr/bin/time -f "%M" -o "$out/rss" "$bin" render "$model" -o "$out/$name" --size 512x512 \
    "$@" 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
  local summary
  summary=$(grep -E "frames/s\)$" "$out/log")
  local frames secs fps bytes
  frames=$(sed -E 's/.*: ([0-9]+) frames,.*/\1/' <<<"$summary")
  secs=$(sed -E 's/.* in ([0-9.]+) s .*/\1/' <<<"$summary")
  fps=$(sed -E 's/.*\(([0-9.]+) frames\/s\)$/\1/' <<<"$summary")
  bytes=$(sed -E 's/.*\(([0-9]+) bytes\).*/\1/' <<<"$summary")
  printf "%-26s %4s frames  %6s s  %6s frames/s  %8.2f MB  peak RSS %5d MB\n" \
    "$label" "$frames" "$secs" "$fps" "$(bc -l <<<"$bytes/1000000")" "$(( $(cat "$out/rss") / 1024 ))"
}

for fmt in gif apng webp; do
  run "clip 60 frames $fmt" "clip.$fmt"
done
run "clip 60 frames gif no-dither" "clip-nd.gif" --no-dither
run "clip 60 frames webp q80" "clip-q.webp" --quality 80
mkdir -p "$out/seq"
run "clip 60 frames png sequence" "seq/{n}.png" --animate
for fmt in gif apng webp; do
  run "turntable 240 frames $fmt" "turn.$fmt" --turntable 8 --fps 30 --clip puppet_v13
done
