#!/usr/bin/env bash
# Builds every release output and puts them side by side in target/dist/:
#   edgeattest-<version>.tgz              the npm package (pkg-config/build.sh)
#   edgeattest-verifier-<version>.wasm    the edgeattest:verifier component (build-component.sh)
#   edgeattest-service-<version>.wasm     the service as a wasi:http component (build-component.sh)
#   SHA256SUMS                            their digests (sha256sum -c SHA256SUMS)
# Idempotent: each build skips what is up to date.
#
#   bash pkg-config/release.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bash pkg-config/build.sh
bash pkg-config/build-component.sh

version=$(node -p 'require("./pkg-config/npm/package.json").version')
out=target/dist
tmp=$(mktemp -d target/dist.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "target/npm/edgeattest-$version.tgz" "$tmp/"
cp target/component/edgeattest-verifier.wasm "$tmp/edgeattest-verifier-$version.wasm"
cp target/component/edgeattest-service.wasm "$tmp/edgeattest-service-$version.wasm"
(cd "$tmp" && sha256sum -- *.tgz *.wasm >SHA256SUMS)
rm -rf "$out"
mv -T "$tmp" "$out"
trap - EXIT
echo "release: $out/"
(cd "$out" && ls -l -- *.tgz *.wasm | awk '{print "  " $5 " B  " $9}')
