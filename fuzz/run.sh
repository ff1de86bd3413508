#!/usr/bin/env bash
# Runs one fuzz target with its committed seeds plus the shared corpus beside the
# checkout (../shared/corpus, read at run time, never committed):
#   fuzz/run.sh TARGET [cargo-fuzz options --] [libFuzzer options]
# e.g. fuzz/run.sh pie -s none -- -runs=10000000
#      fuzz/run.sh pet_group -- -max_total_time=600          (AddressSanitizer)
# New interesting inputs go to fuzz/corpus/TARGET (ignored by git); crashes to
# fuzz/artifacts/TARGET. A finding, once fixed, is copied to fuzz/regressions/TARGET,
# where `cargo test -p vitrine-core --test core fuzz_regressions::` replays it on every CI run.
set -euo pipefail
cd "$(dirname "$0")"
target="$1"
shift
fuzz_opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do fuzz_opts+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
shared="${VITRINE_SHARED:-../../shared}/corpus"
extra="$(mktemp -d)"
trap 'rm -rf "$extra"' EXIT
n=0
link() { for f in "$@"; do [ -f "$f" ] && n=$((n + 1)) && ln -s "$(readlink -f "$f")" "$extra/$n-${f##*/}"; done; true; }
part() { printf "\\x$(printf %02x "$1")"; cat "$2"; }
case "$target" in
  pie) max=65536; [ -d "$shared/wz2100" ] && link $(find "$shared/wz2100" -iname '*.pie') ;;
  pmf) max=65536; link "$shared"/synthetic/pmf/*.pmf "$shared"/synthetic/bad/pmf_* ;;
  pet) max=131072; link "$shared"/synthetic/pet/*.pet "$shared"/synthetic/bad/pet_* ;;
  tpm) max=65536; link "$shared"/synthetic/tpm/*.tpm "$shared"/synthetic/bad/tpm_* ;;
  pet_group)
    max=262144
    p="$shared/synthetic/pet"
    if [ -f "$p/kuma_skel.bpet" ]; then
      # Parts joined as vitrine::formats::fuzzing::split_parts reads them: a kind byte
      # (0 .bpet, 1 .mpet, 2 .apet) before each, "VTRNPART" between them.
      { part 0 "$p/kuma_skel.bpet"; printf VTRNPART; part 1 "$p/kuma_body.mpet"
        printf VTRNPART; part 2 "$p/kuma_motion.apet"; } > "$extra/kuma_trio"
      { part 1 "$p/kuma_body.mpet"; printf VTRNPART; part 0 "$p/kuma_skel.bpet"; } > "$extra/kuma_pair"
      { part 2 "$p/kuma_motion.apet"; } > "$extra/kuma_apet_alone"
    fi ;;
  archive) max=262144 ;;
  gltf) max=1048576; link "$shared"/blender/*.glb ;;
  obj) max=65536; link "$shared"/blender/*.obj ;;
  check)
    # One byte picking the format (0 PIE, 1 PMF, 2 PET, 3 TPM; see
    # vitrine::check::fuzzing::format_of) before the file.
    max=131072
    i=0
    for f in $(find "$shared/wz2100" -iname '*.pie' 2>/dev/null | head -200); do
      i=$((i + 1)); { printf '\x00'; cat "$f"; } > "$extra/pie-$i"; done
    for k in 1:pmf 2:pet 3:tpm; do
      for f in "$shared/synthetic/${k#*:}"/*."${k#*:}"; do
        [ -f "$f" ] && { printf "\\x0${k%%:*}"; cat "$f"; } > "$extra/${k#*:}-${f##*/}"; done
    done ;;
  map)
    # A selector byte (vitrine::map::fuzzing::run: 0 game.map, 1 ttypes.ttp) before each
    # skirmish map's files of the corpus's mp.wz.
    max=262144
    wz="$shared/wz2100/archives/mp.wz"
    if [ -f "$wz" ] && command -v unzip > /dev/null; then
      for e in $(unzip -Z1 "$wz" 'multiplay/maps/*/game.map' 'multiplay/maps/*/ttypes.ttp'); do
        n=${e#multiplay/maps/}; n=${n%%/*}
        case "$e" in *game.map) b='\x00' ;; *) b='\x01' ;; esac
        { printf "$b"; unzip -p "$wz" "$e"; } > "$extra/$n-${e##*/}"
      done
    fi ;;
  *) echo "unknown target $target (pie pmf pet pet_group tpm archive gltf obj check map)" >&2; exit 2 ;;
esac
mkdir -p "corpus/$target"
cargo +nightly fuzz run "${fuzz_opts[@]}" "$target" "corpus/$target" "seeds/$target" "$extra" \
  -- -max_len="$max" "$@"
