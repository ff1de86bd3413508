#!/usr/bin/env bash
# Proves the release artefacts themselves (what packaging/release.sh wrote), never the
# build tree:
#
#   tarball  unpacked into a folder whose name has spaces: --version, info, check, render,
#            publish (which must take the page beside the program) and the thumbnailer's
#            own Exec line, on the demo model it carries and a corpus model
#   .deb     dpkg-deb -I / -c: every file the package promises and its Depends
#   web zip  served by `python3 -m http.server` on 127.0.0.1: headless Chromium opens a
#            model in it (packaging/check_web.mjs)
#   chroot   with --chroot (root, network, debootstrap): the .deb installed by apt into a
#            clean Debian bookworm (minbase), and the same commands run there
#   SHA256SUMS matches
#
#   packaging/check.sh [--chroot] DIST_DIR
#
# Needs: tar, dpkg-deb, python3, node and Debian's chromium (the browser test installs
# playwright-core with `npm ci` in web/ when missing), a Vulkan driver for render
# (Mesa's lavapipe works). Each step prints "ok: …"; the first failure ends the script
# with exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
chroot=0
dist=""
for arg in "$@"; do
  case "$arg" in
    --chroot) chroot=1 ;;
    -*) echo "check.sh: unknown option $arg" >&2; exit 2 ;;
    *) dist="$(realpath "$arg")" ;;
  esac
done
[ -n "$dist" ] || { echo "usage: packaging/check.sh [--chroot] DIST_DIR" >&2; exit 2; }

ok() { echo "ok: $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
started=$(date +%s)

version="$(packaging/version.sh)"
tarball="$dist/vitrine-$version-x86_64-linux.tar.gz"
deb="$dist/vitrine_${version}_amd64.deb"
webzip="$dist/vitrine-web-$version.zip"
for f in "$tarball" "$deb" "$webzip" "$dist/SHA256SUMS"; do
  [ -f "$f" ] || fail "$f missing (run packaging/release.sh)"
done
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"
ok "SHA256SUMS matches every artefact ($(wc -l < "$dist/SHA256SUMS") files)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
corpus="$root/../shared/corpus/wz2100/data/base"
corpus_model="$corpus/components/bodies/drlbod01.pie"

# The commands a user runs, with the program `$1` (a path or a name on PATH), its demo
# model `$2`, the page it must publish `$3` (compared with the site's view.html), in the
# scratch folder `$4`.
run_commands() {
  local exe="$1" demo="$2" page="$3" tmp="$4"
  "$exe" --version | grep -qx "vitrine $version (commit [0-9a-f]*, built [0-9-]*)" ||
    fail "$exe --version: $("$exe" --version)"
  ok "--version: $("$exe" --version)"
  "$exe" info "$demo" | grep -q "tank.pie" || fail "info $demo"
  ok "info on the demo model"
  "$exe" check "$demo" > "$tmp/check.txt" || fail "check $demo: $(cat "$tmp/check.txt")"
  ok "check on the demo model (exit 0)"
  "$exe" render "$demo" -o "$tmp/demo.png" --size 160x120 || fail "render $demo"
  file_is_png "$tmp/demo.png" 160 120
  ok "render wrote a 160×120 PNG"
  if [ -f "$corpus_model" ]; then
    "$exe" info --json "$corpus_model" | grep -q '"format"' || fail "info --json $corpus_model"
    "$exe" check "$corpus_model" --data "$corpus" > "$tmp/check2.txt" ||
      [ $? -eq 1 ] || fail "check $corpus_model: $(cat "$tmp/check2.txt")"
    "$exe" render "$corpus_model" --data "$corpus" -o "$tmp/body.png" --size 128x128 ||
      fail "render $corpus_model"
    file_is_png "$tmp/body.png" 128 128
    ok "info, check and render on the corpus body drlbod01.pie"
  fi
  env -u VITRINE_WEB_DIR "$exe" publish "$demo" -o "$tmp/site" --no-thumbnails > "$tmp/publish.txt" 2>&1 ||
    fail "publish: $(cat "$tmp/publish.txt")"
  cmp -s "$tmp/site/view.html" "$page/index.html" || fail "publish did not copy the page at $page"
  cmp -s "$tmp/site/vitrine_bg.wasm" "$page/vitrine_bg.wasm" || fail "publish: another .wasm"
  for f in vitrine_engines.js vitrine_script.js vitrine_script_bg.wasm vitrine_ktx2.js vitrine_ktx2_bg.wasm; do
    cmp -s "$tmp/site/$f" "$page/$f" || fail "publish: $f not copied from the page"
  done
  ok "publish found the page at $page"
}

# file_is_png FILE W H
file_is_png() {
  python3 - "$@" <<'EOF' || fail "$1 is not a $2×$3 PNG"
import struct, sys
data = open(sys.argv[1], "rb").read(32)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (int(sys.argv[2]), int(sys.argv[3])), (w, h)
EOF
}

# The thumbnailer's Exec line from THUMBNAILER_FILE, run as a file manager runs it
# (%i %o %s replaced), with `vitrine` found on PATH; checks the PNG.
thumbnail_exec() {
  local thumbnailer="$1" input="$2" out="$3"
  local exec
  exec="$(sed -n 's/^Exec=//p' "$thumbnailer")"
  [ "$exec" = "vitrine thumbnail %i %o %s" ] || fail "$thumbnailer: Exec=$exec"
  exec="${exec//%i/\"$input\"}"
  exec="${exec//%o/\"$out\"}"
  exec="${exec//%s/128}"
  eval "$exec" || fail "the thumbnailer's Exec line: $exec"
  file_is_png "$out" 128 128
}

# --- The tarball, from a folder whose name has spaces.
t0=$(date +%s)
unpacked="$work/Vitrine release (unpacked) here"
mkdir -p "$unpacked"
tar -xzf "$tarball" -C "$unpacked"
top="$unpacked/vitrine-$version-x86_64-linux"
for f in vitrine web/index.html web/vitrine.js web/vitrine_bg.wasm web/icon.png \
  web/vitrine_engines.js web/vitrine_script.js web/vitrine_script_bg.wasm \
  web/vitrine_ktx2.js web/vitrine_ktx2_bg.wasm \
  assets/demo/tank.pie share/applications/vitrine.desktop share/mime/packages/vitrine.xml \
  share/icons/hicolor/256x256/apps/vitrine.png share/thumbnailers/vitrine.thumbnailer \
  share/man/man1/vitrine.1.gz share/bash-completion/completions/vitrine \
  share/zsh/vendor-completions/_vitrine share/fish/vendor_completions.d/vitrine.fish \
  LICENSE LICENSE-MIT LICENSE-APACHE README.txt CHANGELOG.md; do
  [ -e "$top/$f" ] || fail "tarball: no $f"
done
file "$top/vitrine" | grep -q "stripped" && ! file "$top/vitrine" | grep -q "not stripped" ||
  fail "tarball: the program is not stripped: $(file "$top/vitrine")"
ok "tarball holds the program (stripped), page, demo, share/, licences and README"
(cd "$work" && run_commands "$top/vitrine" "$top/assets/demo/tank.pie" "$top/web" "$work")
PATH="$top:$PATH" thumbnail_exec "$top/share/thumbnailers/vitrine.thumbnailer" \
  "$top/assets/demo/tank.pie" "$work/thumb one.png"
ok "the tarball's thumbnailer Exec line wrote a 128×128 PNG"
echo "tarball: $(( $(date +%s) - t0 )) s"

# --- The .deb's metadata and contents.
info="$(dpkg-deb -I "$deb")"
contents="$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')"
echo "$info" | grep -q "^ Package: vitrine$" || fail ".deb: Package"
echo "$info" | grep -q "^ Version: $version$" || fail ".deb: Version"
echo "$info" | grep -q "^ Architecture: amd64$" || fail ".deb: Architecture"
depends="$(echo "$info" | sed -n 's/^ Depends: //p')"
for d in libc6 libvulkan1; do
  echo "$depends" | grep -qE "(^|, )$d( |,|$)" || fail ".deb: Depends lacks $d: $depends"
done
echo "$info" | sed -n 's/^ Recommends: //p' | grep -q "mesa-vulkan-drivers" ||
  fail ".deb: Recommends lacks mesa-vulkan-drivers"
for f in /usr/bin/vitrine /usr/share/vitrine/web/index.html /usr/share/vitrine/web/vitrine.js \
  /usr/share/vitrine/web/vitrine_bg.wasm /usr/share/vitrine/web/icon.png \
  /usr/share/vitrine/web/vitrine_engines.js /usr/share/vitrine/web/vitrine_script.js \
  /usr/share/vitrine/web/vitrine_script_bg.wasm /usr/share/vitrine/web/vitrine_ktx2.js \
  /usr/share/vitrine/web/vitrine_ktx2_bg.wasm \
  /usr/share/vitrine/assets/demo/tank.pie /usr/share/applications/vitrine.desktop \
  /usr/share/mime/packages/vitrine.xml /usr/share/icons/hicolor/256x256/apps/vitrine.png \
  /usr/share/thumbnailers/vitrine.thumbnailer /usr/share/man/man1/vitrine.1.gz \
  /usr/share/bash-completion/completions/vitrine /usr/share/zsh/vendor-completions/_vitrine \
  /usr/share/fish/vendor_completions.d/vitrine.fish /usr/share/doc/vitrine/copyright; do
  echo "$contents" | grep -qx "$f" || fail ".deb: no $f"
done
ok ".deb: Depends: $depends; every promised file is in it"
mkdir -p "$work/deb"
dpkg-deb -x "$deb" "$work/deb"
zcat "$work/deb/usr/share/man/man1/vitrine.1.gz" | grep -q '^\.SH "VITRINE THUMBNAIL"' ||
  fail ".deb: the man page has no thumbnail section"
ok ".deb: the man page covers the subcommands"

# --- The web zip in a browser.
t0=$(date +%s)
if [ ! -d web/node_modules/playwright-core ]; then
  (cd web && npm ci --no-audit --no-fund >&2)
fi
site="$work/web site"
mkdir -p "$site/models/texpages"
(cd "$site" && python3 -m zipfile -e "$webzip" .)
for f in index.html vitrine.js vitrine_bg.wasm icon.png vitrine_engines.js vitrine_script.js \
  vitrine_script_bg.wasm vitrine_ktx2.js vitrine_ktx2_bg.wasm; do
  [ -f "$site/$f" ] || fail "web zip: no $f"
done
cp "$top/assets/demo/tank.pie" "$site/models/served-tank.pie"
cp "$top"/assets/demo/texpages/* "$site/models/texpages/"
node packaging/check_web.mjs "$site" models/served-tank.pie || fail "the web zip in Chromium"
ok "the web zip, served on 127.0.0.1, opened models/served-tank.pie in headless Chromium"
echo "web: $(( $(date +%s) - t0 )) s"

# --- A clean Debian root, as a user installs the .deb.
if [ "$chroot" = 1 ]; then
  t0=$(date +%s)
  packaging/check_chroot.sh "$deb" "$version" || fail "the .deb in a clean Debian root"
  echo "chroot: $(( $(date +%s) - t0 )) s"
fi

echo "all checks passed in $(( $(date +%s) - started )) s"
