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
#   vitrine-web-VERSION.zip               the page alone, for any static host
#   SHA256SUMS
#
#   packaging/release.sh [DIST_DIR]
#
# Each thing is built once: the program (`cargo build --release`), the page
# (web/build.sh, the `web` profile), and from the program the man page and completions.
# Needs Rust with the wasm32-unknown-unknown target, `strip`, `zip`, `sha256sum`,
# `dpkg-deb` and `dpkg-shlibdeps` (Debian: apt-get install binutils zip coreutils
# dpkg-dev); installs wasm-bindgen-cli (web/wasm-tools.sh) and cargo-deb (into
# TARGET/tools) when missing.
# Works in a fresh clone; CARGO_TARGET_DIR is honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
dist="$(realpath -m "${1:-dist}")"
target="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
export CARGO_TARGET_DIR="$target"

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
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || {
  say "needs the wasm32 target: rustup target add wasm32-unknown-unknown"
  exit 1
}

version="$(awk '/^\[workspace.package\]/ { f = 1 } f && /^version *=/ { gsub(/[" ]/, "", $0); sub(/version=/, ""); print; exit }' Cargo.toml)"
[ -n "$version" ] || { say "no version in Cargo.toml's [workspace.package]"; exit 1; }
# The archives date every file at the commit (not exported: given to cargo it would
# change the program's build date and so rebuild the crates that print it).
stamp="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
say "vitrine $version into $dist"
# `--version` names the commit the build saw (build.rs): uncommitted changes are not in it.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  say "warning: the tree has uncommitted changes; --version will name commit $(git rev-parse --short HEAD) without them"
fi

# cargo-deb, kept in the target folder between runs (MIT; compiles for a few minutes once).
cargo_deb="$(command -v cargo-deb || true)"
if [ -z "$cargo_deb" ]; then
  cargo_deb="$target/tools/bin/cargo-deb"
  if [ ! -x "$cargo_deb" ]; then
    say "installing cargo-deb into $target/tools (once)"
    CARGO_TARGET_DIR="$target/tools-build" cargo install cargo-deb --locked --root "$target/tools" >&2
  fi
fi

# 1. The program and the page.
cargo build --release --locked --bin vitrine
exe="$target/release/vitrine"
package="$target/release/package"
rm -rf "$package"
mkdir -p "$package/completions"
web/build.sh "$package/web"

# 2. From the program: the man page and the completions (the clap definition).
"$exe" manpage | gzip -9n > "$package/vitrine.1.gz"
"$exe" completions bash > "$package/completions/vitrine.bash"
"$exe" completions zsh > "$package/completions/_vitrine"
"$exe" completions fish > "$package/completions/vitrine.fish"

rm -rf "$dist"
mkdir -p "$dist"

# 3. The tarball.
name="vitrine-$version-x86_64-linux"
stage="$target/release/stage/$name"
rm -rf "$target/release/stage"
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
  -C "$target/release/stage" -cf - "$name" | gzip -9n > "$dist/$name.tar.gz"

# 4. The .deb (the program cargo built above, stripped by cargo-deb).
"$cargo_deb" --version >/dev/null 2>&1 || { say "$cargo_deb does not run"; exit 1; }
deb="$dist/vitrine_${version}_amd64.deb"
PATH="$(dirname "$cargo_deb"):$PATH" cargo deb --no-build --strip --locked -p vitrine --output "$deb" >&2

# 5. The page alone.
(cd "$package/web" && find . -type f -exec touch -d "@$stamp" {} + &&
  zip -X -q -r "$dist/vitrine-web-$version.zip" .)

# 6. Checksums.
(cd "$dist" && sha256sum -- *.tar.gz *.deb *.zip > SHA256SUMS)
say "done:"
(cd "$dist" && ls -l --block-size=K -- * >&2)
