#!/usr/bin/env bash
# Builds the attestation service as a WebAssembly Component, a `wasi:http` incoming handler
# (examples/wasi_http_service/, the `wasi:http/proxy` world), into
# target/component/edgeattest-service.wasm. Idempotent: cargo and the timestamps below skip
# what is up to date.
#
#   bash pkg-config/build-component-service.sh   # EDGEATTEST_REBUILD=1: rerun wasm-opt and wrap
#
# The steps of pkg-config/build-component.sh (a core module, npm's wasm-opt, then
# component-new.mjs with the WIT from the `wasip2` crate's custom sections), for the example
# and in its own target folder: building an example also links the lib's cdylib, with this
# build's features, over the verifier's core module (target/wasm32-wasip2/release/edgeattest.wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi
[ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/@bytecodealliance/jco-transpile ] || {
  echo "build-component-service: node_modules lacks binaryen or @bytecodealliance/jco-transpile; run npm ci" >&2
  exit 1
}

target_dir=${CARGO_TARGET_DIR:-$PWD/target}/component-service
core="$target_dir/wasm32-wasip2/release/examples/wasi_http_service.wasm"
out_dir=target/component
out="$out_dir/edgeattest-service.wasm"
mkdir -p "$out_dir"

CARGO_TARGET_DIR="$target_dir" cargo rustc --release --target wasm32-wasip2 \
  --example wasi_http_service --no-default-features --features component-service \
  -- -C link-arg=--skip-wit-component

if [ -z "${EDGEATTEST_REBUILD:-}" ] && [ -f "$out" ] && [ "$out" -nt "$core" ] \
  && [ "$out" -nt pkg-config/component-new.mjs ] && [ "$out" -nt "$0" ]; then
  echo "build-component-service: $out is up to date"
  exit 0
fi
tmp=$(mktemp -d "$out_dir/tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The flags of pkg-config/build-component.sh's wasm-opt step.
wasm-opt -Oz --converge --low-memory-unused --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-multivalue "$core" -o "$tmp/core.wasm"
node pkg-config/component-new.mjs "$tmp/core.wasm" "$tmp/component.wasm"
mv "$tmp/component.wasm" "$out"
echo "build-component-service: $out ($(wc -c <"$out") B)"
