#!/usr/bin/env bash
# Builds the release npm package into pkg/ and the edge worker bundle into target/worker/,
# when one of their inputs changed since the last build.
#
#   bash pkg-config/build.sh                      # EDGEATTEST_REBUILD=1: build even if nothing changed
#
# pkg/ = four wasm modules, each wasm-bindgen output (--target web) beside the hand-written
# entry modules in src/js/: pkg/ the default `edgeattest` (no binding feature: requests,
# tokens, policies, EAR), pkg/local/ `edgeattest/local` (`js-verifier`: plus evidence,
# chains, RIMs, OCSP), pkg/service/ `edgeattest/service` (every binding), pkg/rego/
# `edgeattest/rego` (`js-rego`: Rego policies, regorus) — plus pkg-config/npm/package.json.
# target/worker/ = the worker's modules (www/worker*.js, the
# generated www/rims.js), pkg/, and assets/: the files Workers static assets serve (the page
# at assets/ui/, the API reference at assets/docs/), see pkg-config/bundle-worker.mjs.
#
# Incremental: a SHA-256 over the inputs (names and contents of the files below, and the tool
# versions) is kept in target/build-stamp; when it matches and both outputs exist, nothing is
# built. Concurrent runs: a build holds target/build.lock (flock), so a second one waits; it
# builds into target/build-tmp.*/ and renames each output into place, so that a reader of
# pkg/ or target/worker/ (a test, a running server) never sees a half-written directory.
# Then target/npm/edgeattest-<version>.tgz (npm pack of pkg/) and target/api-docs/ (typedoc).
set -euo pipefail
cd "$(dirname "$0")/.."
# node_modules/.bin first: wasm-pack takes the first wasm-opt on PATH, and it must be npm's.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

mkdir -p target
exec 9>target/build.lock
if ! flock -n 9; then
  echo "build: another build holds target/build.lock; waiting for it to finish" >&2
  flock 9
fi

# The inputs: every file whose content reaches pkg/ or target/worker/. pkg-config/ counts but
# for the scripts that only run, serve or test the build (a change there needs no rebuild)
# and its dot files (pkg-config/.dev.vars, wrangler dev's secrets).
inputs_hash() {
  {
    find src www Cargo.toml Cargo.lock package-lock.json README.md LICENSE CHANGELOG.md SECURITY.md \
      tests/fixtures/nvidia/rims pkg-config -type f ! -path 'pkg-config/.*' \
      ! -path pkg-config/start.sh ! -path pkg-config/setup.sh ! -path pkg-config/test.sh \
      ! -path pkg-config/serve.mjs ! -path pkg-config/health-banner.mjs ! -path pkg-config/local-config.mjs \
      ! -path pkg-config/dev-certificate.mjs ! -path pkg-config/dev-vars.mjs \
      ! -path pkg-config/worker-options.mjs ! -path pkg-config/workerd-output.mjs ! -path pkg-config/wrangler.toml \
      ! -path pkg-config/fuzz-smoke.sh ! -path pkg-config/size-report.mjs ! -path pkg-config/bench.sh \
      ! -path pkg-config/requirements-test.txt ! -path pkg-config/webdriver.json \
      -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    rustc -V
    wasm-pack --version
    wasm-bindgen --version
    node --version
  } | sha256sum | cut -c1-16
}
# The API reference (target/api-docs/, made by typedoc) is served at /docs/ when it exists:
# its state is part of the stamp, taken when the bundle copies it (a build step may make it).
docs_hash() {
  if [[ -d target/api-docs ]]; then
    (cd target/api-docs && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16
  else
    echo none
  fi
}
sources=$(inputs_hash)
stamp="$sources docs:$(docs_hash)"
if [[ -z ${EDGEATTEST_REBUILD:-} && -d pkg && -d target/worker && "$(cat target/build-stamp 2>/dev/null)" == "$stamp" ]]; then
  echo "build: up to date (inputs $stamp); pkg/ and target/worker/ kept"
  exit 0
fi
echo "build: building (inputs $stamp); 8 steps, about 9 minutes on 2 cores from a cold target/, less after a small change"
started=$SECONDS

# step N WHAT: a line per step with the time the previous one took, so that a long first
# build shows where it is.
step_started=$SECONDS
step() {
  if (($1 > 1)); then echo "build:       done in $((SECONDS - step_started)) s"; fi
  step_started=$SECONDS
  echo "build: [$1/8] $2"
}

# Left by an interrupted build (we hold the lock: no build is using them).
rm -rf target/build-tmp.*
tmp=$(mktemp -d target/build-tmp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
PKG=$tmp/pkg

# The service module (`edgeattest/service`): every binding, what the edge worker loads.
step 1 "the service module (edgeattest/service: Rust → wasm, release, the longest step)"
wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack --out-name edgeattest >/dev/null
# The local verifier (`edgeattest/local`): the default API plus evidence, chains, RIMs, OCSP.
step 2 "the local verifier module (edgeattest/local)"
wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack-local --out-name edgeattest -- --no-default-features --features std,js-verifier >/dev/null
# The default module (`edgeattest`): attest requests, tokens, policies and EAR.
step 3 "the default module (edgeattest)"
wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack-default --out-name edgeattest -- --no-default-features --features std >/dev/null
# The Rego module (`edgeattest/rego`): appraiseRego alone, with regorus.
step 4 "the Rego module (edgeattest/rego, regorus)"
wasm-pack --quiet --log-level warn build --release --target web --no-pack \
  --out-dir target/wasm-pack-rego --out-name edgeattest -- --no-default-features --features std,js-rego >/dev/null

# module WASM_PACK_DIR DEST [--no-classes]: one module's glue, made to give coded errors and
# portable types.
module() {
  mkdir -p "$2"
  cp "$1"/edgeattest.js "$1"/edgeattest.d.ts "$1"/edgeattest_bg.wasm "$1"/edgeattest_bg.wasm.d.ts "$2"/
  # The glue's own refusals (wrong class instance, `new` without constructor) get codes.
  node pkg-config/harden-glue.mjs "$2"/edgeattest.js ${3:-}
  node pkg-config/portable-types.mjs "$2"/edgeattest.d.ts
}
step 5 "the package's entries (glue, types, JS modules) in pkg/"
# js_modules ENTRY DEST: the JS modules of src/js/ that ENTRY holds, copied to DEST. A module
# named after `=>` in a row of the entry table (src/wasm.rs; service.js, fetch.js, evidence.js,
# ocsp.js) goes where that row's binding module goes; every other one to each entry.
js_modules() {
  local file stem entries
  for file in src/js/*.js src/js/*.d.ts; do
    stem=${file##*/}
    stem=${stem%%.*}
    entries=$(sed -n "s/^ *\(pub \)\{0,1\}mod [a-z_]*: \([a-z ]*\) => \(.* \)\{0,1\}$stem\( .*\)\{0,1\};\$/ \2 /p" src/wasm.rs)
    if [[ -z $entries || $entries == *" $1 "* ]]; then cp "$file" "$2"/; fi
  done
}
module target/wasm-pack-default "$PKG"
js_modules default "$PKG"
module target/wasm-pack-local "$PKG"/local
js_modules local "$PKG"/local
cp src/js/local/*.js src/js/local/*.d.ts "$PKG"/local/
module target/wasm-pack "$PKG"/service
js_modules service "$PKG"/service
cp src/js/service/*.js src/js/service/*.d.ts "$PKG"/service/
module target/wasm-pack-rego "$PKG"/rego --no-classes
for name in index browser node workerd init error; do cp "src/js/$name.js" "src/js/$name.d.ts" "$PKG"/rego/; done
cp src/js/codes.d.ts "$PKG"/rego/
cp src/js/rego/*.js src/js/rego/*.d.ts "$PKG"/rego/
# The users' README (not the developers'), the licence, the changelog and the security policy.
cp pkg-config/npm/package.json LICENSE CHANGELOG.md SECURITY.md "$PKG"/
cp pkg-config/npm/README.md "$PKG"/README.md

# The npm tarball users install (target/npm/edgeattest-<version>.tgz) and the API reference
# generated from the published types (target/api-docs/, served at /docs/).
step 6 "the npm tarball (target/npm/)"
mkdir -p "$tmp/npm"
npm pack "./$PKG" --pack-destination "$tmp/npm" --silent >/dev/null
step 7 "the API reference (typedoc → target/api-docs/)"
rm -rf target/api-docs
node pkg-config/api-docs.mjs "$PKG" target/api-docs

# The bundle copies target/api-docs/ as it is now.
docs=$(docs_hash)
step 8 "the worker bundle (target/worker/)"
node pkg-config/bundle-worker.mjs "$PKG" "$tmp/worker"

# replace NEW DEST: DEST becomes NEW in one step. rename(2) cannot replace a non-empty
# directory, so an existing one is swapped with renameat2(RENAME_EXCHANGE) (Linux, through
# Python's ctypes); without it, two renames (a reader may find DEST missing for an instant).
replace() {
  local new=$1 dest=$2
  if [[ ! -e $dest ]]; then mv -T "$new" "$dest"; return; fi
  if ! python3 - "$new" "$dest" 2>/dev/null <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, os.fsencode(sys.argv[1]), AT_FDCWD, os.fsencode(sys.argv[2]), RENAME_EXCHANGE) != 0:
    sys.exit(1)
PY
  then
    mv -T "$dest" "$new.old" && mv -T "$new" "$dest" && mv -T "$new.old" "$new"
  fi
  rm -rf "$new"   # now the previous DEST
}
replace "$tmp/worker" target/worker
replace "$PKG" pkg
replace "$tmp/npm" target/npm
echo "$sources docs:$docs" >target/build-stamp
echo "build:       done in $((SECONDS - step_started)) s"
echo "build: built in $((SECONDS - started)) s; pkg/, target/worker/ and target/npm/ replaced"
