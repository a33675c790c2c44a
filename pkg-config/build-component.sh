#!/usr/bin/env bash
# Builds the WebAssembly Components into target/component/:
#   edgeattest-verifier.wasm  the `edgeattest:verifier` world (WIT: src/component/wit/), the lib
#                             with the `component` feature;
#   edgeattest-service.wasm   the attestation service as a `wasi:http` incoming handler
#                             (examples/wasi_http_service/, feature `component-service`).
# Idempotent: cargo and the timestamps below skip what is up to date.
#
#   bash pkg-config/build-component.sh [verifier|service]   # both by default;
#                                                           # EDGEATTEST_REBUILD=1: rerun wasm-opt and wrap
#
# Steps for each: the crate for wasm32-wasip2, linked as a core module (wasm-component-ld's
# --skip-wit-component, for the final crate only); npm's wasm-opt (binaryen 132, as
# pkg-config/build.sh) on it; then pkg-config/component-new.mjs wraps it into the component
# (the WIT comes from the custom sections wit-bindgen and the `wasip2` crate leave). wasm-opt
# on the core module takes ~28 % off the gzip size; a component cannot go through wasm-opt
# whole. The service builds in its own target folder: building an example also links the
# lib's cdylib, with that build's features, over the verifier's core module.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

which=${1:-all}
case $which in verifier | service | all) ;; *)
  echo "build-component: unknown component '$which' (verifier, service)" >&2
  exit 2
  ;;
esac
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  rustup target add wasm32-wasip2
fi
[ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/@bytecodealliance/jco-transpile ] || {
  echo "build-component: node_modules lacks binaryen or @bytecodealliance/jco-transpile; run npm ci" >&2
  exit 1
}

target_dir=${CARGO_TARGET_DIR:-$PWD/target}
out_dir=target/component
mkdir -p "$out_dir"

# wrap CORE OUT: wasm-opt on the core module, then the component around it.
wrap() {
  local core=$1 out=$2
  if [ -z "${EDGEATTEST_REBUILD:-}" ] && [ -f "$out" ] && [ "$out" -nt "$core" ] \
    && [ "$out" -nt pkg-config/component-new.mjs ] && [ "$out" -nt "$0" ]; then
    echo "build-component: $out is up to date"
    return
  fi
  local tmp
  tmp=$(mktemp -d "$out_dir/tmp.XXXXXX")
  # The flags of pkg-config/build.sh's wasm-opt step, plus the debug/producers sections dropped.
  wasm-opt -Oz --converge --low-memory-unused --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-multivalue "$core" -o "$tmp/core.wasm"
  node pkg-config/component-new.mjs "$tmp/core.wasm" "$tmp/component.wasm"
  mv "$tmp/component.wasm" "$out"
  rm -rf "$tmp"
  echo "build-component: $out ($(wc -c <"$out") B)"
}

if [[ $which != service ]]; then
  cargo rustc --release --target wasm32-wasip2 --lib --crate-type cdylib \
    --no-default-features --features std,component -- -C link-arg=--skip-wit-component
  wrap "$target_dir/wasm32-wasip2/release/edgeattest.wasm" "$out_dir/edgeattest-verifier.wasm"
fi
if [[ $which != verifier ]]; then
  CARGO_TARGET_DIR="$target_dir/component-service" cargo rustc --release --target wasm32-wasip2 \
    --example wasi_http_service --no-default-features --features component-service \
    -- -C link-arg=--skip-wit-component
  wrap "$target_dir/component-service/wasm32-wasip2/release/examples/wasi_http_service.wasm" \
    "$out_dir/edgeattest-service.wasm"
fi
