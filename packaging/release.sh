#!/usr/bin/env bash
# Builds every Linux and web artefact of a release into dist/ (or the folder given):
#
#   vitrine-VERSION-x86_64-linux.tar.gz   the stripped program, the web page in web/ beside
#                                         it (what `vitrine publish` copies), the demo model,
#                                         share/ (desktop entry, MIME types, icon,
#                                         thumbnailer, man page, completions), licences,
#                                         README.txt
#   vitrine_VERSION_amd64.deb             the same for Debian and Ubuntu (cargo-deb; the
#                                         file list is Cargo.toml's [package.metadata.deb])
#   vitrine-VERSION-x86_64-windows.zip    vitrine.exe (cross-compiled with mingw-w64, stripped,
#                                         icon and version resource, no console window on a
#                                         double-click), vitrine.com (what a terminal runs:
#                                         waits for vitrine.exe, passes its exit code), web/
#                                         and assets/demo/ beside them, licences, README.txt
#   vitrine-web-VERSION.zip               the page alone, for any static host
#   SHA256SUMS
#
#   packaging/release.sh [DIST_DIR]
#
# Each thing is built once: the program for Linux and for Windows (`cargo build --release`,
# the second with `--target x86_64-pc-windows-gnu`), the page (web/build.sh, the `web`
# profile), and from the program the man page and completions.
# Needs Rust with the wasm32-unknown-unknown and x86_64-pc-windows-gnu targets, `strip`,
# `zip`, `sha256sum`, `dpkg-deb` and `dpkg-shlibdeps`, mingw-w64 (Debian: apt-get install
# binutils zip coreutils dpkg-dev mingw-w64); installs wasm-bindgen-cli (web/wasm-tools.sh)
# and cargo-deb (into TARGET/tools) when missing.
# Works in a fresh clone; CARGO_TARGET_DIR is honoured.
#
# Two settings for CI, which proves the packaging on every change and has no time for
# optimised builds (about 40 minutes of CPU for the two programs and the page on its two
# cores): VITRINE_RELEASE_PROFILE (default `release`) builds both programs with another
# cargo profile — CI gives `dev`, reusing the program its tests built — and
# VITRINE_RELEASE_PAGE=DIR copies a page already built (CI: the one its browser tests
# load) instead of building one with the `web` profile. Releases use neither. And
# VITRINE_RELEASE_WINDOWS_TARGET_DIR (default: the target folder) lets CI build the
# Windows program beforehand, beside its tests' cargo runs, in a folder of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
dist="$(realpath -m "${1:-dist}")"
target="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
export CARGO_TARGET_DIR="$target"
profile="${VITRINE_RELEASE_PROFILE:-release}"
pdir="$profile"
[ "$profile" = dev ] && pdir=debug
page_from="${VITRINE_RELEASE_PAGE:-}"
# A proof build (any profile but `release`: CI's) is compressed fast: its archives are
# unpacked and thrown away, never shipped.
gz=-9n zipc=-9 debc=()
[ "$profile" = release ] || { gz=-1n zipc=-1 debc=(--fast); }

say() { echo "release: $*" >&2; }
need() {
  command -v "$1" >/dev/null 2>&1 || { say "needs $1: $2"; exit 1; }
}
need strip "apt-get install binutils"
need zip "apt-get install zip"
need sha256sum "apt-get install coreutils"
need dpkg-deb "apt-get install dpkg (cargo-deb builds the .deb with it)"
need dpkg-shlibdeps "apt-get install dpkg-dev (the .deb's Depends on the libraries the program links)"
need gzip "apt-get install gzip"
need x86_64-w64-mingw32-gcc "apt-get install mingw-w64 (the Windows program's linker and windres)"
for t in wasm32-unknown-unknown x86_64-pc-windows-gnu; do
  rustup target list --installed 2>/dev/null | grep -qx "$t" || {
    say "needs the $t target: rustup target add $t"
    exit 1
  }
done

version="$(packaging/version.sh)"
# The archives date every file at the commit (not exported: given to cargo it would
# change the program's build date and so rebuild the crates that print it).
stamp="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
say "vitrine $version into $dist"
# `--version` names the commit the build saw (build.rs): uncommitted changes are not in it.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  say "warning: the tree has uncommitted changes; --version will name commit $(git rev-parse --short HEAD) without them"
fi

# cargo-deb (packaging/cargo-deb.sh: on PATH, or kept in TARGET/tools).
cargo_deb="$(packaging/cargo-deb.sh "$target")"

# 1. The program and the page.
cargo build --profile "$profile" --locked --bin vitrine
exe="$target/$pdir/vitrine"
package="$target/$pdir/package"
rm -rf "$package"
mkdir -p "$package/completions"
if [ -n "$page_from" ]; then
  [ -f "$page_from/index.html" ] && [ -f "$page_from/vitrine_bg.wasm" ] &&
    [ -f "$page_from/vitrine_script_bg.wasm" ] && [ -f "$page_from/vitrine_ktx2_bg.wasm" ] ||
    { say "VITRINE_RELEASE_PAGE=$page_from holds no built page"; exit 1; }
  cp -r "$page_from" "$package/web"
else
  web/build.sh "$package/web"
fi

# 2. From the program: the man page and the completions (the clap definition).
"$exe" manpage | gzip -9n > "$package/vitrine.1.gz"
"$exe" completions bash > "$package/completions/vitrine.bash"
"$exe" completions zsh > "$package/completions/_vitrine"
"$exe" completions fish > "$package/completions/vitrine.fish"

rm -rf "$dist"
mkdir -p "$dist"

# 3. The tarball.
name="vitrine-$version-x86_64-linux"
stage="$target/$pdir/stage/$name"
rm -rf "$target/$pdir/stage"
mkdir -p "$stage/share/applications" "$stage/share/mime/packages" \
  "$stage/share/icons/hicolor/256x256/apps" "$stage/share/thumbnailers" \
  "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/vendor-completions" "$stage/share/fish/vendor_completions.d" \
  "$stage/assets"
strip -o "$stage/vitrine" "$exe"
cp -r "$package/web" "$stage/web"
cp -r assets/demo "$stage/assets/demo"
cp packaging/linux/vitrine.desktop "$stage/share/applications/"
cp packaging/linux/vitrine-mime.xml "$stage/share/mime/packages/vitrine.xml"
cp assets/icon/vitrine-256.png "$stage/share/icons/hicolor/256x256/apps/vitrine.png"
cp packaging/linux/vitrine.thumbnailer "$stage/share/thumbnailers/"
cp "$package/vitrine.1.gz" "$stage/share/man/man1/"
cp "$package/completions/vitrine.bash" "$stage/share/bash-completion/completions/vitrine"
cp "$package/completions/_vitrine" "$stage/share/zsh/vendor-completions/"
cp "$package/completions/vitrine.fish" "$stage/share/fish/vendor_completions.d/"
cp LICENSE LICENSE-MIT LICENSE-APACHE packaging/CHANGELOG.md "$stage/"
sed "s/@VERSION@/$version/g" packaging/linux/README.txt > "$stage/README.txt"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" \
  -C "$target/$pdir/stage" -cf - "$name" | gzip "$gz" > "$dist/$name.tar.gz"

# 4. The .deb (the program cargo built above, stripped by cargo-deb).
"$cargo_deb" --version >/dev/null 2>&1 || { say "$cargo_deb does not run"; exit 1; }
deb="$dist/vitrine_${version}_amd64.deb"
PATH="$(dirname "$cargo_deb"):$PATH" cargo deb --no-build --strip --locked --profile "$profile" "${debc[@]}" -p vitrine --output "$deb" >&2

# 5. The Windows zip: the program cross-compiled (mingw-w64), the page and the demo beside it.
win=x86_64-pc-windows-gnu
wtarget="$(realpath -m "${VITRINE_RELEASE_WINDOWS_TARGET_DIR:-$target}")"
CARGO_TARGET_DIR="$wtarget" cargo build --profile "$profile" --locked --target "$win" --bin vitrine
wname="vitrine-$version-x86_64-windows"
wstage="$target/$pdir/stage/$wname"
mkdir -p "$wstage/assets"
x86_64-w64-mingw32-strip -o "$wstage/vitrine.exe" "$wtarget/$win/$pdir/vitrine.exe"
# vitrine.com: the console front door a terminal picks before vitrine.exe (its own crate).
cargo build --release --locked --target "$win" --manifest-path packaging/windows/launcher/Cargo.toml
x86_64-w64-mingw32-strip -o "$wstage/vitrine.com" "$target/$win/release/vitrine-console.exe"
cp -r "$package/web" "$wstage/web"
cp -r assets/demo "$wstage/assets/demo"
cp LICENSE LICENSE-MIT LICENSE-APACHE packaging/CHANGELOG.md "$wstage/"
sed "s/@VERSION@/$version/g" packaging/windows/README.txt | sed 's/$/\r/' > "$wstage/README.txt"
(cd "$target/$pdir/stage" && find "$wname" -exec touch -h -d "@$stamp" {} + &&
  find "$wname" -type f | LC_ALL=C sort | zip -X -q "$zipc" "$dist/$wname.zip" -@)

# 6. The page alone.
(cd "$package/web" && find . -type f -exec touch -d "@$stamp" {} + &&
  zip -X -q -r "$dist/vitrine-web-$version.zip" .)

# 7. Checksums.
(cd "$dist" && sha256sum -- *.tar.gz *.deb *.zip > SHA256SUMS)
say "done:"
(cd "$dist" && ls -l --block-size=K -- * >&2)
