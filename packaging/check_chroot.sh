#!/usr/bin/env bash
# packaging/check.sh --chroot: installs the .deb into a clean Debian bookworm root as a
# user would (`apt-get install ./vitrine_….deb`, Depends and Recommends from Debian's
# mirror), then runs there: --version, info, check, render (Mesa's lavapipe, which the
# Recommends brought), publish (the page the package installed under
# /usr/share/vitrine/web, found without --page) and the installed thumbnailer's own Exec
# line writing a PNG.
#
#   packaging/check_chroot.sh DEB VERSION
#   packaging/check_chroot.sh --prepare DIR    only the debootstrap, into DIR (CI starts it
#                                              early, beside its builds: it waits on the
#                                              network, not the CPU)
#   VITRINE_CHROOT_ROOT=DIR packaging/check_chroot.sh DEB VERSION
#                                              uses DIR, made by --prepare, as the clean root
#
# Needs root, debootstrap (apt-get install debootstrap) and a Debian mirror
# ($DEBIAN_MIRROR, default the one this machine's apt uses, else http://deb.debian.org/debian). The root is made in a
# temporary folder and removed afterwards.
set -euo pipefail
# The mirror: $DEBIAN_MIRROR, else the one this machine's apt uses (a CI image may point at
# its own), else Debian's.
host_mirror() {
  { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's|^URIs: *\([^ ]*/debian\)/*$|\1|p'
    grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | awk '$2 ~ /\/debian\/?$/ { print $2 }'
  } | awk 'NR == 1' || true
}
mirror="${DEBIAN_MIRROR:-$(host_mirror)}"
mirror="${mirror:-http://deb.debian.org/debian}"
[ "$(id -u)" = 0 ] || { echo "check_chroot.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "check_chroot.sh: apt-get install debootstrap" >&2; exit 1; }

# debootstrap ROOT LOG: a clean bookworm (minbase) at ROOT.
bootstrap() {
  debootstrap --variant=minbase bookworm "$1" "$mirror" > "$2" 2>&1
}
if [ "${1:-}" = --prepare ]; then
  [ $# -eq 2 ] || { echo "usage: check_chroot.sh --prepare DIR" >&2; exit 2; }
  mkdir -p "$(dirname "$2")"
  bootstrap "$2" "$2.log" || { tail -20 "$2.log" >&2; exit 1; }
  exit 0
fi
deb="$(realpath "$1")"
version="$2"
ok() { echo "ok (chroot): $*"; }
fail() { echo "FAILED (chroot): $*" >&2; exit 1; }

work="$(mktemp -d)"
root="${VITRINE_CHROOT_ROOT:-$work/root}"
cleanup() {
  for m in sys dev/pts dev proc; do umount "$root/$m" 2>/dev/null || umount -l "$root/$m" 2>/dev/null || true; done
  # --one-file-system: a mount left behind (the host's /dev) is never descended into.
  rm -rf --one-file-system "$work"
  [ -z "${VITRINE_CHROOT_ROOT:-}" ] || rm -rf --one-file-system "$VITRINE_CHROOT_ROOT"
}
trap cleanup EXIT

t0=$(date +%s)
if [ -n "${VITRINE_CHROOT_ROOT:-}" ]; then
  [ -x "$root/usr/bin/apt-get" ] || fail "VITRINE_CHROOT_ROOT=$root is not a prepared root (check_chroot.sh --prepare)"
  ok "the clean root prepared beforehand at $root"
else
  bootstrap "$root" "$work/debootstrap.log" || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
  ok "debootstrap bookworm minbase in $(( $(date +%s) - t0 )) s"
fi

mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --bind /sys "$root/sys"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

t0=$(date +%s)
in_root apt-get update -q > "$work/apt.log" 2>&1 || { tail "$work/apt.log" >&2; fail "apt-get update"; }
in_root /usr/bin/env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q "/tmp/$(basename "$deb")" >> "$work/apt.log" 2>&1 ||
  { tail -30 "$work/apt.log" >&2; fail "apt-get install ./$(basename "$deb")"; }
ok "apt-get install ./$(basename "$deb") in $(( $(date +%s) - t0 )) s ($(grep -c '^Setting up' "$work/apt.log") packages set up)"

# The commands, inside the root, on the installed demo model.
in_root /bin/sh -eu -c '
  demo=/usr/share/vitrine/assets/demo/tank.pie
  cd /tmp
  vitrine --version | grep -qx "vitrine '"$version"' (commit [0-9a-f]*, built [0-9-]*)"
  vitrine --version
  vitrine info "$demo" | grep -q tank.pie
  vitrine check "$demo"
  vitrine render "$demo" -o /tmp/demo.png --size 160x120
  vitrine publish "$demo" -o /tmp/site --no-thumbnails
  cmp /tmp/site/view.html /usr/share/vitrine/web/index.html
  cmp /tmp/site/vitrine_bg.wasm /usr/share/vitrine/web/vitrine_bg.wasm
  cmp /tmp/site/vitrine_script_bg.wasm /usr/share/vitrine/web/vitrine_script_bg.wasm
  cmp /tmp/site/vitrine_ktx2_bg.wasm /usr/share/vitrine/web/vitrine_ktx2_bg.wasm
  exec_line="$(sed -n "s/^Exec=//p" /usr/share/thumbnailers/vitrine.thumbnailer)"
  test "$exec_line" = "vitrine thumbnail %i %o %s"
  cp "$demo" "/tmp/a tank.pie"
  cp -r /usr/share/vitrine/assets/demo/texpages /tmp/texpages
  eval "$(echo "$exec_line" | sed "s|%i|\"/tmp/a tank.pie\"|; s|%o|\"/tmp/thumb out.png\"|; s|%s|128|")"
  test -s "/tmp/thumb out.png"
  test -f /usr/share/mime/packages/vitrine.xml
  man -w vitrine >/dev/null 2>&1 || test -f /usr/share/man/man1/vitrine.1.gz
' || fail "the commands inside the root"
for png in "$root/tmp/demo.png:160:120" "$root/tmp/thumb out.png:128:128"; do
  IFS=: read -r f w h <<< "$png"
  python3 - "$f" "$w" "$h" <<'EOF' || fail "$f is not a ${w}×${h} PNG"
import struct, sys
data = open(sys.argv[1], "rb").read(32)
assert data[:8] == b"\x89PNG\r\n\x1a\n"
assert struct.unpack(">II", data[16:24]) == (int(sys.argv[2]), int(sys.argv[3]))
EOF
done
ok "--version, info, check, render, publish (the installed page) and the thumbnailer's Exec line"
