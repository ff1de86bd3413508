#!/usr/bin/env bash
# Size and time of `vitrine publish`: the site of the corpus's mp.wz over the base game's
# data folder (../shared/corpus/wz2100), against what a reader would otherwise fetch —
# mp.wz plus every texture page of data/base. Prints site.wz's size, its texture pages
# against base's, the thumbnails, the whole site less the web viewer, and the time.
#
# Usage: benches/publish_site.sh [--thumbnails] [--links]   (env: VITRINE_BIN, default
# target/release/vitrine; VITRINE_SHARED, default ../shared). Build first:
# cargo build --release. The web page is not needed (a stand-in page is given) except
# for --links, which also times links into the site from navigation to the drawn model
# in headless Chromium (web/tests/bench_links.mjs, 5 rounds) with the page built by
# `web/build.sh target/web` (or VITRINE_WEB_PAGE=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${VITRINE_BIN:-target/release/vitrine}"
shared="${VITRINE_SHARED:-../shared}"
wz="$shared/corpus/wz2100"
thumbs="--no-thumbnails"
links=""
for arg in "$@"; do
  case "$arg" in
    --thumbnails) thumbs="" ;;
    --links) links=1 ;;
    *) echo "benches/publish_site.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release)" >&2; exit 1; }
[ -f "$wz/archives/mp.wz" ] || { echo "no $wz/archives/mp.wz (the shared corpus)" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
page="$out/page"
if [ -n "$links" ]; then
  page="${VITRINE_WEB_PAGE:-target/web}"
  [ -f "$page/vitrine_bg.wasm" ] || { echo "no page at $page (web/build.sh target/web)" >&2; exit 1; }
else
  mkdir -p "$page"
  for f in index.html vitrine.js vitrine_bg.wasm icon.png vitrine_engines.js vitrine_script.js \
    vitrine_script_bg.wasm vitrine_ktx2.js vitrine_ktx2_bg.wasm; do echo x > "$page/$f"; done
fi
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$bin" publish "$wz/archives/mp.wz" --data "$wz/data/base" -o "$out/site" --page "$page" $thumbs 2>&1 \
  | grep -E "^published|problems" || true
end=$(date +%s.%N)
kib() { du -k --apparent-size -c "$@" | tail -1 | cut -f1; }
mib() { python3 -c "print(f'{$1 / 1024:.1f} MiB')"; }
site_wz=$(kib "$out/site/site.wz")
mp=$(kib "$wz/archives/mp.wz")
pages=$(kib "$wz/data/base/texpages")
npages=$(ls "$wz/data/base/texpages" | wc -l)
in_site=$(python3 -c "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); p=[i for i in z.infolist() if i.filename.startswith('texpages/')]; print(len(p), sum(i.file_size for i in p)//1024)" "$out/site/site.wz")
echo "site.wz:            $(mib "$site_wz") ($site_wz KiB)"
echo "  its texture pages: ${in_site% *} of $npages base pages, ${in_site#* } KiB of $pages KiB"
echo "mp.wz + base pages: $(mib $((mp + pages))) ($mp + $pages KiB)"
echo "site.wz / (mp.wz + base pages): $(python3 -c "print(f'{$site_wz / ($mp + $pages):.0%}')")"
if [ -d "$out/site/thumbs" ] && [ -n "$(ls "$out/site/thumbs")" ]; then
  echo "thumbs/:            $(ls "$out/site/thumbs" | wc -l) PNGs, $(mib "$(kib "$out/site/thumbs")")"
fi
echo "site without the viewer: $(mib "$(kib "$out/site/site.wz" "$out/site/index.html" "$out/site/site.json" "$out/site/thumbs")")"
echo "time: $(python3 -c "print(f'{$end - $start:.1f} s')") ($(nproc) cores)"
if [ -n "$links" ]; then
  echo
  node web/tests/bench_links.mjs "$out/site" 5
fi
