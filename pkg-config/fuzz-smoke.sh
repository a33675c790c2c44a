#!/usr/bin/env bash
# Fuzz smoke: builds the cargo-fuzz crate (tests/fuzz) and runs every target for a few
# seconds from its committed seed corpus. Any crash, panic, timeout or out-of-memory fails.
#
#   bash pkg-config/fuzz-smoke.sh               # FUZZ_SECONDS=5 per target
#   FUZZ_SECONDS=600 bash pkg-config/fuzz-smoke.sh json_parse   # a long run of one target
#
# cargo-fuzz needs libFuzzer's -Z instrumentation flags, which stable rustc accepts only with
# RUSTC_BOOTSTRAP=1 (no nightly toolchain is available here). No sanitizer: the crate forbids
# unsafe code, and the build and the runs are ~2x faster without ASan. Debug assertions and
# overflow checks are on (cargo-fuzz's default). New inputs go to a scratch directory, never
# into the committed corpus; a failing input is kept in target/fuzz-artifacts/<target>/.
# Prints "# pass N" / "# fail M" (one per target) and a closing "N passed, M failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
SECONDS_PER_TARGET=${FUZZ_SECONDS:-5}
TARGET_DIR=${FUZZ_TARGET_DIR:-$PWD/target/fuzz}
ARTIFACTS=$PWD/target/fuzz-artifacts

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked --version 0.13.2 || { echo "cargo-fuzz unavailable"; echo "0 passed, 1 failed"; exit 1; }
fi

if ! RUSTC_BOOTSTRAP=1 cargo fuzz build --fuzz-dir tests/fuzz --sanitizer none \
    --target-dir "$TARGET_DIR"; then
  echo "fuzz build failed"; echo "# pass 0"; echo "# fail 1"; echo "0 passed, 1 failed"; exit 1
fi
BIN="$TARGET_DIR/$(rustc -vV | sed -n 's/^host: //p')/release"

if (($# > 0)); then targets=("$@"); else
  mapfile -t targets < <(ls tests/fuzz/fuzz_targets | sed 's/\.rs$//')
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "$ARTIFACTS/$t"
  log="$scratch/$t.log"
  if "$BIN/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$t/" \
      "$scratch/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    printf 'fuzz %-20s ok     %8s runs in %ss\n' "$t" "${runs:-?}" "$SECONDS_PER_TARGET"
    passed=$((passed + 1))
  else
    printf 'fuzz %-20s FAILED (input kept in %s)\n' "$t" "target/fuzz-artifacts/$t/"
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "$log" | head -n 8 | sed 's/^/    | /'
    failed=$((failed + 1))
  fi
done
echo "# pass $passed"
echo "# fail $failed"
echo "$passed passed, $failed failed"
((failed == 0))
