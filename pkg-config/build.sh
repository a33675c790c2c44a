#!/usr/bin/env bash
# Builds the release npm package into pkg/ and the edge worker bundle into target/worker/.
#
#   bash pkg-config/build.sh
#
# pkg/ = wasm-bindgen output (--target web) + the hand-written entry modules in src/js/ +
# pkg-config/npm/package.json. target/worker/ = www/ (worker and page) + pkg/ + site.js, a
# generated module holding the page's files so that workerd serves them without a file system.
# Then target/npm/edgeattest-<version>.tgz (npm pack of pkg/) and target/api-docs/ (typedoc).
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
node pkg-config/portable-types.mjs pkg/edgeattest.d.ts
cp src/js/*.js src/js/*.d.ts pkg/
mkdir -p pkg/client
cp target/wasm-pack-client/edgeattest.js target/wasm-pack-client/edgeattest.d.ts \
   target/wasm-pack-client/edgeattest_bg.wasm target/wasm-pack-client/edgeattest_bg.wasm.d.ts pkg/client/
node pkg-config/harden-glue.mjs pkg/client/edgeattest.js
node pkg-config/portable-types.mjs pkg/client/edgeattest.d.ts
for name in index browser node workerd init token; do cp "src/js/$name.js" "src/js/$name.d.ts" pkg/client/; done
cp src/js/client/*.js src/js/client/*.d.ts pkg/client/
# The users' README (not the developers'), the licence, and the changelog and security policy
# when the repository has them.
cp pkg-config/npm/package.json LICENSE pkg/
cp pkg-config/npm/README.md pkg/README.md
for doc in CHANGELOG.md SECURITY.md; do if [ -f "$doc" ]; then cp "$doc" pkg/; fi; done

node pkg-config/bundle-worker.mjs

# The npm tarball users install (target/npm/edgeattest-<version>.tgz) and the API reference
# generated from the published types (target/api-docs/, served at /docs/).
rm -rf target/npm target/api-docs
mkdir -p target/npm
npm pack ./pkg --pack-destination target/npm --silent >/dev/null
typedoc --options pkg-config/typedoc.json --logLevel Warn
