# Sourced by web/build.sh and web/tests/build_probe.sh (from the repository root): the
# wasm-bindgen CLI at exactly the `wasm-bindgen` crate's version in Cargo.lock (the two
# must match), installed from crates.io into Cargo's own bin folder when missing (kept
# between clones: the install compiles for minutes), and `wasm-opt` from Debian's
# binaryen when it is installed.

wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

# Prints the path of a wasm-bindgen CLI of the locked version, installing it if needed.
wasm_bindgen_cli() {
  local version
  version="$(wasm_bindgen_version)"
  [ -n "$version" ] || { echo "web: no wasm-bindgen in Cargo.lock" >&2; return 1; }
  if command -v wasm-bindgen >/dev/null 2>&1 &&
    [ "$(wasm-bindgen --version | awk '{print $2}')" = "$version" ]; then
    command -v wasm-bindgen
    return
  fi
  local bin="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
  if [ ! -x "$bin" ] || [ "$("$bin" --version | awk '{print $2}')" != "$version" ]; then
    echo "web: installing wasm-bindgen-cli $version (once; it compiles for a few minutes)" >&2
    # --locked first; a registry that lacks one of the CLI's locked dependencies gets it
    # resolved anew (the CLI's own version stays exact).
    cargo install wasm-bindgen-cli --version "=$version" --locked >&2 ||
      cargo install wasm-bindgen-cli --version "=$version" >&2
  fi
  echo "$bin"
}

# wasm_bind IN.wasm OUT_DIR NAME: the JavaScript glue and the .wasm for `--target web`
# (an ES module the page imports); with OPTIMISE=1 (the default) without the name
# section, then `wasm-opt -O2` when a binaryen new enough is installed.
wasm_bind() {
  local input="$1" out="$2" name="$3" cli
  cli="$(wasm_bindgen_cli)"
  local strip=()
  # An optimised page drops the function names (2.2 MiB of the .wasm, 0.5 MiB gzipped):
  # a panic's message still reaches the console, without the Rust names of its frames.
  [ "${OPTIMISE:-1}" = 1 ] && strip=(--remove-name-section --remove-producers-section)
  "$cli" --target web --no-typescript "${strip[@]}" --out-dir "$out" --out-name "$name" "$input"
  if [ "${OPTIMISE:-1}" = 1 ]; then
    local opt_version
    opt_version="$(wasm-opt --version 2>/dev/null | grep -o '[0-9]\+' | head -1)"
    if [ -n "$opt_version" ] && [ "$opt_version" -lt 116 ]; then
      # Debian 12's binaryen 108 rewrites wasm-bindgen's externref table into one the
      # browser refuses ("WebAssembly.Table.set(): Argument 1 is invalid"): not used.
      echo "web: wasm-opt $opt_version is too old for wasm-bindgen's output; the .wasm is not optimised" >&2
    elif command -v wasm-opt >/dev/null 2>&1; then
      # The features rustc's wasm32 target emits by default.
      wasm-opt -O2 --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-reference-types --enable-multivalue \
        "$out/${name}_bg.wasm" -o "$out/${name}_bg.wasm.opt"
      mv "$out/${name}_bg.wasm.opt" "$out/${name}_bg.wasm"
    else
      echo "web: wasm-opt not found (apt-get install binaryen): the .wasm is not optimised" >&2
    fi
  fi
}
