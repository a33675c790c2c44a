#!/usr/bin/env bash
# Builds the release npm package into pkg/ and the edge worker bundle into target/worker/.
#
#   bash pkg-config/build.sh
#
# pkg/ = wasm-bindgen output (--target web) + the hand-written entry modules in src/js/ +
# pkg-config/npm/package.json. target/worker/ = www/ (worker and page) + pkg/ + site.js, a
# generated module holding the page's files so that workerd serves them without a file system.
set -euo pipefail
cd "$(dirname "$0")/.."
# node_modules/.bin first: wasm-pack takes the first wasm-opt on PATH, and it must be npm's.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack --out-name edgeattest >/dev/null
# The client module (`edgeattest/client`): attest requests and tokens only.
wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack-client --out-name edgeattest -- --no-default-features --features std >/dev/null

rm -rf pkg
mkdir -p pkg
cp target/wasm-pack/edgeattest.js target/wasm-pack/edgeattest.d.ts \
   target/wasm-pack/edgeattest_bg.wasm target/wasm-pack/edgeattest_bg.wasm.d.ts pkg/
# The glue's own refusals (wrong class instance, `new` without constructor) get codes.
node pkg-config/harden-glue.mjs pkg/edgeattest.js
cp src/js/*.js src/js/*.d.ts pkg/
mkdir -p pkg/client
cp target/wasm-pack-client/edgeattest.js target/wasm-pack-client/edgeattest.d.ts \
   target/wasm-pack-client/edgeattest_bg.wasm target/wasm-pack-client/edgeattest_bg.wasm.d.ts pkg/client/
node pkg-config/harden-glue.mjs pkg/client/edgeattest.js
cp src/js/index.js src/js/index.d.ts src/js/workerd.js src/js/workerd.d.ts \
   src/js/token.js src/js/token.d.ts src/js/jwks.js src/js/jwks.d.ts \
   src/js/client/api.js src/js/client/api.d.ts pkg/client/
cp pkg-config/npm/package.json README.md LICENSE pkg/

node pkg-config/bundle-worker.mjs
