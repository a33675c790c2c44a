#!/usr/bin/env bash
# Runs every test of edgeattest, nothing skipped, and ends with one line:
#   summary: N passed, M failed
# A stage that runs a test runner contributes that runner's counts; a check stage (fmt,
# clippy, builds, size budget) counts as one test. Logs: target/test-logs/<stage>.log.
#
#   bash pkg-config/test.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash pkg-config/setup.sh || { echo "summary: 0 passed, 1 failed"; exit 1; }

export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# The wasm-bindgen runner takes the first of GECKODRIVER, CHROMEDRIVER set (then PATH): the
# Chromium stage has CHROMEDRIVER only, the Firefox stage GECKODRIVER only.
export CHROMEDRIVER=/usr/bin/chromedriver
unset GECKODRIVER
GECKODRIVER_BIN="${CARGO_HOME:-$HOME/.cargo}/bin/geckodriver"
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/pkg-config/webdriver.json"
# One bound for a whole browser run (the shared suites take 75–90 s on a loaded 2-core machine).
export WASM_BINDGEN_TEST_TIMEOUT=400
LOGS=target/test-logs
mkdir -p "$LOGS" tests/artifacts
passed=0 failed=0 stage_failures=()

# count LOG: prints "P F" from cargo/libtest and node --test summaries in LOG.
count() {
  awk '
    /^test result: / { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed/) p += $(i-1); if ($(i) ~ /^failed/) f += $(i-1) } }
    /^# pass / { p += $3 } /^# fail / { f += $3 }
    END { printf "%d %d\n", p, f }' "$1"
}

# stage NAME KIND CMD...: KIND is "tests" (count the runner's results) or "check" (one test).
stage() {
  local name=$1 kind=$2; shift 2
  local log="$LOGS/$name.log" start=$SECONDS status p f
  "$@" >"$log" 2>&1
  status=$?
  if [[ $kind == tests ]]; then
    read -r p f < <(count "$log")
    # A runner that failed without reporting a failure (e.g. did not compile) is one failure.
    if ((status != 0 && f == 0)); then f=1; fi
    if ((status == 0 && p == 0)); then f=$((f + 1)); echo "  (no tests ran)" >>"$log"; fi
  else
    if ((status == 0)); then p=1 f=0; else p=0 f=1; fi
  fi
  passed=$((passed + p)) failed=$((failed + f))
  local verdict=ok; ((f > 0)) && { verdict=FAILED; stage_failures+=("$name"); }
  printf '%-22s %-6s %4d passed %3d failed  %4ds\n' "$name" "$verdict" "$p" "$f" $((SECONDS - start))
  if ((f > 0)); then tail -n 40 "$log" | sed 's/^/    | /'; fi
}

nostd() {
  RUSTFLAGS='--cfg sha2_backend="soft"' CARGO_TARGET_DIR=target/nostd \
    cargo rustc --quiet --lib --no-default-features --target x86_64-unknown-none --crate-type rlib
}

stage fmt            check cargo fmt --check
# `rego` (regorus) is not a default feature: the default features drive the service's wasm
# build. The native stages turn it on, so the one dependency build serves them all; and `ts`,
# the TypeScript generator, so that a stale generated fragment fails (tests/it/ts_generated.rs).
stage clippy-native  check cargo clippy --all-targets --features rego,ts -- -D warnings
# The full binding and the Rego one together: regorus is checked for wasm32 once.
stage clippy-wasm    check cargo clippy --all-targets --target wasm32-unknown-unknown --features js-rego -- -D warnings
stage clippy-local   check cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features std,js-verifier -- -D warnings
stage clippy-default check cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features std -- -D warnings
# Both components: the verifier world (the lib) and the wasi:http service (the example).
stage clippy-component check cargo clippy --target wasm32-wasip2 --no-default-features \
  --features std,component,component-service --lib --example wasi_http_service -- -D warnings
stage native-tests   tests cargo test --all-targets --features rego,ts
# Veraison's own EAR library (ear 0.6.0 / 0.5.0, pkg-config/ear-interop, built by setup.sh)
# reads our EARs and signs EARs ours reads; required here (the native stage skips it when absent).
stage ear-interop    tests env EDGEATTEST_EAR_INTEROP_REQUIRED=1 cargo test --test it --features rego,ts ear::interop
stage doc-tests      tests cargo test --doc --features rego
stage docs           check env RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps --quiet --features rego
stage no-std-build   check nostd
stage wasm-node      tests wasm-pack test --node -- --test wasm_node
stage wasm-chromium  tests wasm-pack test --headless --chrome -- --test wasm_browser
stage wasm-firefox   tests env -u CHROMEDRIVER GECKODRIVER="$GECKODRIVER_BIN" \
  wasm-pack test --headless --firefox -- --test wasm_browser
# Every release output: the npm package and both components (target/dist/).
stage release-build  check bash pkg-config/release.sh
stage wasm-size      check node pkg-config/size-report.mjs
stage js-node        tests node --test --test-concurrency=1 tests/js/
stage fuzz-smoke     tests env FUZZ_SECONDS="${FUZZ_SECONDS:-3}" bash pkg-config/fuzz-smoke.sh

echo "summary: $passed passed, $failed failed"
((failed == 0)) || { echo "failed stages: ${stage_failures[*]}"; exit 1; }
