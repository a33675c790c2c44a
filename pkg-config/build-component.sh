#!/usr/bin/env bash
# Builds the `edgeattest:verifier` WebAssembly Component (WIT: src/component/wit/verifier.wit)
# into target/component/edgeattest-verifier.wasm. Idempotent: cargo and the timestamps below
# skip what is up to date.
#
#   bash pkg-config/build-component.sh        # EDGEATTEST_REBUILD=1: rerun wasm-opt and wrap
#
# Steps: the crate for wasm32-wasip2 with the `component` feature, linked as a core module
# (wasm-component-ld's --skip-wit-component, for the final crate only); npm's wasm-opt
# (binaryen 132, as pkg-config/build.sh) on it; then pkg-config/component-new.mjs wraps it
# into the component (the WIT comes from wit-bindgen's custom sections). wasm-opt on the core
# module takes ~28 % off the gzip size; a component cannot go through wasm-opt whole.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi
[ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/@bytecodealliance/jco-transpile ] || {
  echo "build-component: node_modules lacks binaryen or @bytecodealliance/jco-transpile; run npm ci" >&2
  exit 1
}

target_dir=${CARGO_TARGET_DIR:-$PWD/target}
core="$target_dir/wasm32-wasip2/release/edgeattest.wasm"
out_dir=target/component
out="$out_dir/edgeattest-verifier.wasm"
mkdir -p "$out_dir"

cargo rustc --release --target wasm32-wasip2 --lib --crate-type cdylib \
  --no-default-features --features std,component -- -C link-arg=--skip-wit-component

if [ -z "${EDGEATTEST_REBUILD:-}" ] && [ -f "$out" ] && [ "$out" -nt "$core" ] \
  && [ "$out" -nt pkg-config/component-new.mjs ] && [ "$out" -nt "$0" ]; then
  echo "build-component: $out is up to date"
  exit 0
fi
tmp=$(mktemp -d "$out_dir/tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The flags of pkg-config/build.sh's wasm-opt step, plus the debug/producers sections dropped.
wasm-opt -Oz --converge --low-memory-unused --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-multivalue "$core" -o "$tmp/core.wasm"
node pkg-config/component-new.mjs "$tmp/core.wasm" "$tmp/component.wasm"
mv "$tmp/component.wasm" "$out"
echo "build-component: $out ($(wc -c <"$out") B)"
