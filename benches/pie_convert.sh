#!/usr/bin/env bash
# Benchmark of `vitrine convert`, end to end: every PIE of the shared corpus
# (../shared/corpus/wz2100/data, 855 models) → PIE 4 in a fresh folder: read, parse,
# resolve, write, read back and check with the `vitrine check` rules (texture pages
# looked up and their headers read), written through files::atomic. One thread per core.
# Then the same 855 models as glTF (`vitrine export` of the corpus, made once, not timed:
# `.glb` files with their pages packed inside) → PIE 4, the path a Blender export takes.
#
# Usage: benches/pie_convert.sh [RUNS]   (env: VITRINE_BIN, default target/release/vitrine;
# VITRINE_SHARED, default ../shared). Build first: cargo build --release.
# Prints each run's summary line and the median models/s.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${VITRINE_BIN:-target/release/vitrine}"
shared="${VITRINE_SHARED:-../shared}"
data="$shared/corpus/wz2100/data"
runs="${1:-5}"
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release)" >&2; exit 1; }
[ -d "$data" ] || { echo "no $data (the shared corpus)" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
rates=()
for i in $(seq "$runs"); do
  rm -rf "$out/pie4"
  line=$("$bin" convert "$data" -o "$out/pie4" --pie 4 2>&1 | grep -E "models/s\)" )
  echo "run $i: $line"
  rates+=("$(echo "$line" | sed -E 's/.*\(([0-9.]+) models\/s\).*/\1/')")
done
median() {
  printf '%s\n' "$@" | sort -n | awk -v cores="$(nproc)" '{a[NR]=$1} END {print a[int((NR+1)/2)] " models/s over " NR " runs, " cores " cores"}'
}
echo "PIE → PIE 4 median: $(median "${rates[@]}")"
"$bin" export "$data" -o "$out/gltf" >/dev/null 2>&1
grates=()
for i in $(seq "$runs"); do
  rm -rf "$out/fromgltf"
  # A model that cannot be written (the corpus's one empty propulsion placeholder has no
  # mesh in glTF) makes the exit code 1; the summary line still counts it.
  line=$("$bin" convert "$out/gltf" -o "$out/fromgltf" --pie 4 --data "$data/mp" --data "$data/base" 2>&1 | grep -E "models/s\)" || true)
  echo "glTF run $i: $line"
  grates+=("$(echo "$line" | sed -E 's/.*\(([0-9.]+) models\/s\).*/\1/')")
done
echo "glTF → PIE 4 median: $(median "${grates[@]}")"
