#!/usr/bin/env bash
# `vitrine render DIR` against f3d 4.0 on the same models, in the same run, alternating
# (f3d, vitrine) ROUNDS times so both see the same machine load; prints each rate and the
# ratio. f3d reads no Warzone 2100 format, so it renders Vitrine's glTF exports of the
# corpus (textured, team colour baked): the same models, a format f3d reads natively.
# Vitrine runs twice per round: with its default 4× MSAA, and with `--msaa 1`, which
# draws as f3d does by default (no anti-aliasing): the like-for-like ratio.
#
#   python3 -m venv /tmp/f3d && /tmp/f3d/bin/pip install 'f3d==4.0.*'
#   [VITRINE_BIN=FILE] benches/batch_vs_f3d.sh [F3D_PYTHON] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-/tmp/f3d/bin/python}
rounds=${2:-3}
corpus=../shared/corpus/wz2100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# VITRINE_BIN=FILE: the program to measure (else the release build, made here, in
# CARGO_TARGET_DIR or target).
v="${VITRINE_BIN:-}"
if [ -z "$v" ]; then
  cargo build --release -q
  v="${CARGO_TARGET_DIR:-target}/release/vitrine"
fi
"$v" export "$corpus" -o "$tmp/glb" >/dev/null 2>&1 || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(find "$tmp/glb" -name '*.glb' | wc -l) glTF files for f3d"
for r in $(seq "$rounds"); do
  rm -rf "$tmp/f3d" "$tmp/vit"
  read -r f3d_rate n secs failed < <("$py" benches/f3d_batch.py "$tmp/glb" "$tmp/f3d" 256 2>/dev/null | tail -1)
  rates=""
  for msaa in 4 1; do
    rm -rf "$tmp/vit"
    line=$("$v" render "$corpus" -o "$tmp/vit" --size 256x256 --msaa "$msaa" 2>&1 | grep 'models rendered')
    rate=$(sed -E 's/.*\(([0-9.]+) models\/s\).*/\1/' <<<"$line")
    ratio=$(python3 -c "print(f'{$rate / $f3d_rate:.1f}')")
    rates="$rates; vitrine --msaa $msaa: $rate models/s, ${ratio}x"
  done
  echo "round $r: f3d $f3d_rate models/s ($n in $secs s, $failed failed)$rates"
done
