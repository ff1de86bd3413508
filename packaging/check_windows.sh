#!/usr/bin/env bash
# Proves the Windows zip itself (what packaging/release.sh wrote) under Debian's Wine:
#
#   contents   vitrine.exe (stripped, GUI subsystem: no console window on a double-click,
#              the icon and the version resource naming this version), web/, assets/demo/,
#              licences, README.txt with Windows line ends
#   commands   --version, info, check (text and JSON), convert and export from a folder whose
#              name has spaces: their output byte-identical to the Linux program's (the
#              Linux tarball's, from the same DIST_DIR), and render (Wine's Vulkan on
#              Mesa's lavapipe) pixel-identical to the Linux render
#   window     the window under Xvfb (tests/xvfb_smoke.sh): the demo model drawn, a few
#              frames, exit code 0
#
#   packaging/check_windows.sh DIST_DIR
#
# WINEPREFIX, when set to a prefix made beforehand (`wineboot -i`; CI makes it early), is used
# as it is; else one is made in a temporary folder.
#
# Two things are Wine's, not the program's: Debian's Wine 8.0 has no bcryptprimitives.dll
# (Rust's std imports its ProcessPrng; Wine 8.13 added it), so a stand-in built here from
# packaging/windows/wine/ is put beside a copy of the program for this check only; and under
# Wine the DirectX 12 backend fails in Wine's shader compiler, so WGPU_BACKEND=vulkan is set
# (on Windows the program keeps wgpu's default backends).
# Needs: wine (wine64), mingw-w64, unzip, xvfb-run, ImageMagick, Mesa's lavapipe.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
[ $# -eq 1 ] || { echo "usage: packaging/check_windows.sh DIST_DIR" >&2; exit 2; }
dist="$(realpath "$1")"
ok() { echo "ok (windows): $*"; }
fail() { echo "FAILED (windows): $*" >&2; exit 1; }
for tool in wine winepath xvfb-run x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump x86_64-w64-mingw32-windres unzip compare; do
  command -v "$tool" >/dev/null || fail "needs $tool (apt-get install wine wine64 mingw-w64 unzip imagemagick)"
done
started=$(date +%s)
version="$(packaging/version.sh)"
zip="$dist/vitrine-$version-x86_64-windows.zip"
tarball="$dist/vitrine-$version-x86_64-linux.tar.gz"
for f in "$zip" "$tarball"; do
  [ -f "$f" ] || fail "$f missing (run packaging/release.sh)"
done

work="$(mktemp -d)"
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

tar -xzf "$tarball" -C "$work"
linux="$work/vitrine-$version-x86_64-linux/vitrine"

# --- What the zip holds.
top="$work/Vitrine for Windows (unzipped)"
mkdir -p "$top"
unzip -q "$zip" -d "$top"
dir="$top/vitrine-$version-x86_64-windows"
for f in vitrine.exe vitrine.com web/index.html web/vitrine.js web/vitrine_bg.wasm web/icon.png \
  web/vitrine_engines.js web/vitrine_script.js web/vitrine_script_bg.wasm \
  web/vitrine_ktx2.js web/vitrine_ktx2_bg.wasm \
  assets/demo/tank.pie LICENSE LICENSE-MIT LICENSE-APACHE README.txt CHANGELOG.md; do
  [ -e "$dir/$f" ] || fail "zip: no $f"
done
grep -q $'\r$' "$dir/README.txt" || fail "README.txt has Unix line ends (Notepad of old shows one line)"
pe="$(x86_64-w64-mingw32-objdump -p "$dir/vitrine.exe")"
grep -q "^Subsystem.*(Windows GUI)" <<<"$pe" || fail "vitrine.exe is not a GUI-subsystem program: $(grep Subsystem <<<"$pe")"
sections="$(x86_64-w64-mingw32-objdump -h "$dir/vitrine.exe")"
! grep -q "\.debug" <<<"$sections" || fail "vitrine.exe is not stripped"
rc="$(x86_64-w64-mingw32-windres -i "$dir/vitrine.exe" -O rc 2>/dev/null)" || fail "windres cannot read vitrine.exe's resources"
grep -q "ICON" <<<"$rc" || fail "vitrine.exe has no icon"
grep -q "VALUE \"ProductVersion\", \"$version (" <<<"$rc" || fail "vitrine.exe's version resource does not name $version"
grep -q "VALUE \"ProductName\", \"Vitrine\"" <<<"$rc" || fail "vitrine.exe's version resource has no product name"
com_pe="$(x86_64-w64-mingw32-objdump -p "$dir/vitrine.com")"
grep -q "^Subsystem.*(Windows CUI)" <<<"$com_pe" || fail "vitrine.com is not a console program"
ok "zip holds vitrine.exe (stripped, GUI subsystem, icon, version $version), vitrine.com (console), web/, assets/demo/, licences, README.txt"

# --- Wine, with the stand-in DLL beside a copy of the program (never in the zip).
export WINEPREFIX="${WINEPREFIX:-$work/wineprefix}" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  wineboot -i >/dev/null 2>&1 || fail "wineboot"
fi
run="$work/run with spaces"
cp -r "$dir" "$run"
x86_64-w64-mingw32-gcc -O2 -shared -o "$run/bcryptprimitives.dll" \
  packaging/windows/wine/bcryptprimitives.c packaging/windows/wine/bcryptprimitives.def -ladvapi32
win() { (cd "$run" && WGPU_BACKEND=vulkan wine ./vitrine.exe "$@"); }
win_run="$(winepath -w "$run" 2>/dev/null)"
[ -n "$win_run" ] || fail "winepath -w $run"
win_run="${win_run%\\}"
lin() { (cd "$run" && "$linux" "$@"); }

# Same command, same folder: stdout and exit code must match the Linux program's.
same() {
  local name="$1"
  shift
  local lrc=0 wrc=0
  lin "$@" >"$work/$name.linux" 2>"$work/$name.linux.err" || lrc=$?
  win "$@" >"$work/$name.windows" 2>"$work/$name.windows.err" || wrc=$?
  [ "$lrc" = "$wrc" ] || fail "$name: exit $wrc under Wine, $lrc on Linux: $(head -5 "$work/$name.windows.err")"
  # Absolute paths (where a texture was found) compared in the Linux form (unix_paths.py).
  python3 packaging/windows/wine/unix_paths.py "$work/$name.windows" "$run" "$win_run"
  cmp -s "$work/$name.linux" "$work/$name.windows" ||
    fail "$name: output differs from Linux: $(diff "$work/$name.linux" "$work/$name.windows" | head -10)"
  ok "$name: same output as Linux ($(wc -c <"$work/$name.windows") bytes, exit $wrc)"
}
same version --version
grep -qx "vitrine $version (commit [0-9a-f]*, built [0-9-]*)" "$work/version.windows" ||
  fail "--version: $(cat "$work/version.windows")"
same info info assets/demo/tank.pie
same info-json info --json assets/demo/tank.pie
same check check assets/demo/tank.pie
same check-json check --json assets/demo/tank.pie
corpus="$root/../shared/corpus"
if [ -d "$corpus/wz2100/data/base" ]; then
  cp -r "$corpus/wz2100/data/base" "$run/base"
  same check-corpus check --json base/components/bodies/drlbod01.pie --data base
  cp "$corpus/blender/drmbod13.glb" "$run/drmbod13.glb"
  same convert convert drmbod13.glb -o out-convert.pie --dry-run
fi
# vitrine.com, as a terminal runs `vitrine …`: the output and exit code of vitrine.exe.
com_rc=0
(cd "$run" && wine ./vitrine.com --version) >"$work/com.out" 2>/dev/null || com_rc=$?
[ "$com_rc" = 0 ] && cmp -s "$work/com.out" "$work/version.linux" ||
  fail "vitrine.com --version: exit $com_rc, $(head -3 "$work/com.out")"
lrc=0
lin check no-such-model.pie >/dev/null 2>&1 || lrc=$?
com_rc=0
(cd "$run" && wine ./vitrine.com check no-such-model.pie) >/dev/null 2>&1 || com_rc=$?
[ "$lrc" != 0 ] && [ "$com_rc" = "$lrc" ] || fail "vitrine.com check on a missing file: exit $com_rc, Linux $lrc"
ok "vitrine.com passes on vitrine.exe's output and its exit code ($com_rc for a missing file)"

# Files written: the same bytes, every file of them (an OBJ's .mtl and pages too), each
# program writing into a folder of its own under the same names.
written() {
  local name="$1" out="$2"
  shift 2
  rm -rf "$run/out-linux" "$run/out-windows"
  mkdir -p "$run/out-linux" "$run/out-windows"
  lin "$@" -o "out-linux/$out" >/dev/null 2>&1 || fail "$name on Linux"
  win "$@" -o "out-windows/$out" >/dev/null 2>"$work/$name.err" || fail "$name under Wine: $(head -5 "$work/$name.err")"
  diff -r "$run/out-linux" "$run/out-windows" >"$work/$name.diff" ||
    fail "$name: what it wrote differs from Linux's: $(head -5 "$work/$name.diff")"
  ok "$name: $(ls "$run/out-windows" | tr '\n' ' ')byte-identical to Linux's ($(du -cb "$run"/out-windows/* | tail -1 | cut -f1) bytes)"
}
written export-glb tank.glb export assets/demo/tank.pie
written export-obj tank.obj export assets/demo/tank.pie
written convert-pie tank4.pie convert assets/demo/tank.pie --pie 4
[ -f "$run/drmbod13.glb" ] && written convert-glb drmbod13.pie convert drmbod13.glb

# render: Wine's Vulkan driver over Mesa's lavapipe, the same pixels as Linux.
lin render assets/demo/tank.pie -o linux.png --size 320x240 >/dev/null 2>&1 || fail "render on Linux"
# (Wine's Vulkan goes through its X11 driver, so under Wine even a windowless render needs a
# display: Xvfb's. On Windows it needs none. The Wine session the commands above started has
# none, so it is ended first: the next one starts on the display it is given.)
wineserver -k >/dev/null 2>&1 || true
(cd "$run" && WGPU_BACKEND=vulkan xvfb-run -a wine ./vitrine.exe render assets/demo/tank.pie \
  -o windows.png --size 320x240) >/dev/null 2>"$work/render.err" ||
  fail "render under Wine: $(head -5 "$work/render.err")"
diff_px="$(compare -metric AE "$run/linux.png" "$run/windows.png" null: 2>&1 || true)"
[ "$diff_px" = 0 ] || fail "render: $diff_px pixels differ from the Linux render"
ok "render: 320×240, pixel-identical to Linux's"

# --- The window under Xvfb: the demo drawn, then it closes itself with exit code 0.
wineserver -k >/dev/null 2>&1 || true
wrapper="$work/vitrine-under-wine"
printf '#!/bin/sh\ncd "%s" && WGPU_BACKEND=vulkan exec wine ./vitrine.exe "$@"\n' "$run" >"$wrapper"
chmod +x "$wrapper"
VITRINE_BIN="$wrapper" VITRINE_SMOKE_OUT="$work/smoke" VITRINE_EXIT_AFTER_FRAMES=40 \
  tests/xvfb_smoke.sh || { tail -20 "$work/smoke/vitrine.log" >&2 || true; fail "the window under Wine"; }
ok "the window under Xvfb drew the demo and closed with exit code 0"
echo "windows: all checks passed in $(( $(date +%s) - started )) s"
