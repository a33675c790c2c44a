#!/usr/bin/env bash
# Runs every benchmark of edgeattest and prints ONE table: each figure beside its peer or
# yardstick measured in the same run, the ratio, the target where issue 19 names one, and
# pass/fail. Benchmarks are not tests: this is not part of pkg-config/test.sh, and a figure off
# its target does not fail the command (a benchmark that crashes does).
#
#   bash pkg-config/bench.sh              # everything: 16 min on the shared 2-core machine
#   bash pkg-config/bench.sh cold token   # only the benchmarks whose name contains a word
#   bash pkg-config/bench.sh --list       # the benchmarks it would run
#
# What it runs, after `bash pkg-config/build.sh` (incremental: nothing is rebuilt when nothing
# changed, so running it twice does the same work twice and nothing more):
#   - sizes: `node pkg-config/size-report.mjs` (the wasm modules against their budgets, and
#     against issue 19's size targets: 300 KB gzip for the default module, the one every page
#     load pays, and 175 KB for the client API, which the default module is since local
#     verification moved to `edgeattest/local`'s module; the service is the edge worker's;
#     issue 38's: 300 KiB for the local module, 250 KiB as the stretch);
#   - Rust: `cargo bench --bench NAME` for every [[bench]] in Cargo.toml (tests/bench/*.rs);
#     rim.rs runs its Python peer (tests/bench/rim_peer.py, lxml + cryptography) itself;
#   - Node: every tests/bench/*.mjs but the modules other scripts load (*-core.mjs,
#     *-child.mjs, support.mjs) and the A/B tools that compare two builds given to them (*-ab.mjs).
# Logs: target/bench/<name>.log (replaced each run); the table also goes to
# target/bench/table.md.
#
# The contract with the benchmarks: each prints, besides its own report, one line per figure
#   BENCH <name> <ours> <yardstick> <ratio> [target]
# - name: no spaces (e.g. cold-start-node, token.verify.node);
# - ours, yardstick: a number, optionally with its unit glued on (74.1ms, 812ops/s, 216200B),
#   or `-` when there is none; the yardstick is measured in the same run, alternating;
#   a figure without a unit is taken in the unit of a target that has one;
# - ratio: ours / yardstick, a plain number (a trailing `x` is allowed), or `-`;
# - target (optional): `<=N` or `>=N` on the ratio, or `<=Nms` (a unit glued on) on `ours`.
# A benchmark that prints no BENCH line shows up in the table as such, and one that exits
# non-zero as failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

LOGS=target/bench
rust_benches() { awk '/^\[\[bench\]\]/ { b = 1; next } b && /^name *=/ { gsub(/[" ]/, "", $3); print $3; b = 0 }' Cargo.toml; }
node_benches() {
  local f
  for f in tests/bench/*.mjs; do
    case $f in *-core.mjs | *-child.mjs | *-ab.mjs | */support.mjs) continue ;; esac
    basename "$f" .mjs
  done
}
all=(size)
while read -r name; do all+=("rust:$name"); done < <(rust_benches)
while read -r name; do all+=("node:$name"); done < <(node_benches)

if [[ ${1:-} == --list ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
selected=()
for bench in "${all[@]}"; do
  if (($# == 0)); then selected+=("$bench"); continue; fi
  for word in "$@"; do
    if [[ $bench == *"$word"* ]]; then selected+=("$bench"); break; fi
  done
done
if ((${#selected[@]} == 0)); then echo "bench: no benchmark matches: $* (see --list)" >&2; exit 2; fi

started=$SECONDS
bash pkg-config/build.sh
bash pkg-config/build-component.sh
rm -rf "$LOGS"
mkdir -p "$LOGS"
echo "bench: ${#selected[@]} benchmarks; logs in $LOGS/"

# The size report's lines, as BENCH lines: each module against its budget (the size check of
# pkg-config/test.sh) and against issue 19's target.
size_bench() {
  local out status=0
  out=$(node pkg-config/size-report.mjs 2>&1) || status=$?
  echo "$out"
  # Over budget is a figure off target (FAIL in the table); no report at all is a failure.
  [[ $out == *"bytes gzip"* ]] || return "$((status ? status : 1))"
  node -e '
    const targets = {
      "pkg/edgeattest_bg.wasm": ["default", { issue19: 300_000, "issue19-client": 175_000 }],
      "pkg/local/edgeattest_bg.wasm": ["local", { issue38: 307_200, "issue38-stretch": 256_000 }],
      "pkg/service/edgeattest_bg.wasm": ["service", {}],
      "pkg/rego/edgeattest_bg.wasm": ["rego", {}],
      "target/component/edgeattest-verifier.wasm": ["component", {}],
      "target/component/edgeattest-service.wasm": ["service-component", {}],
    };
    for (const line of require("fs").readFileSync(0, "utf8").split("\n")) {
      const m = /^(\S+): (\d+) bytes raw, (\d+) bytes gzip -9 .* of the (\d+)-byte budget/.exec(line);
      if (!m) continue;
      const [, file, , gzip, budget] = m;
      const [name, named] = targets[file] ?? [file, {}];
      console.log(`BENCH size.${name}.gzip-vs-budget ${gzip}B ${budget}B ${(gzip / budget).toFixed(3)} <=1.00`);
      for (const [label, target] of Object.entries(named)) {
        console.log(`BENCH size.${name}.gzip-vs-${label} ${gzip}B ${target}B ${(gzip / target).toFixed(3)} <=1.00`);
      }
    }' <<<"$out"
}

# Arguments beyond a script's defaults: the cold start in Deno too (skipped without Deno).
declare -A NODE_ARGS=([cold-start]=--deno)
# Cargo features a Rust benchmark needs (its [[bench]]'s required-features).
declare -A RUST_ARGS=([rego]="--features rego")

failed=()
for bench in "${selected[@]}"; do
  kind=${bench%%:*} name=${bench#*:}
  log="$LOGS/${bench//:/-}.log"
  t=$SECONDS
  printf 'bench: %-28s ' "$bench"
  case $kind in
    size) cmd=(size_bench) ;;
    rust) cmd=(cargo bench --quiet ${RUST_ARGS[$name]:-} --bench "$name") ;;
    node) cmd=(node "tests/bench/$name.mjs" ${NODE_ARGS[$name]:-}) ;;
  esac
  if "${cmd[@]}" >"$log" 2>&1; then status=ok; else status="FAILED (exit $?)"; failed+=("$bench"); fi
  printf '%-18s %4ds  %d BENCH lines\n' "$status" $((SECONDS - t)) "$(grep -c '^BENCH ' "$log" || true)"
  echo "# ran: $bench, $status, $((SECONDS - t)) s" >>"$log"
done

# The table, from every log's BENCH lines.
node - "$LOGS" "${selected[@]}" <<'NODE' | tee "$LOGS/table.md"
const { readFileSync } = require('node:fs');
const [logs, ...benches] = process.argv.slice(2);
// Targets issues 19 and 38 name, for BENCH lines that carry none (the name is matched as a
// prefix; the first match decides).
const ISSUE_TARGETS = [
  ['evidence.webcrypto.', '<=1.15'],
  ['p384.software-verify.vs-native', '<=1.3'],
  ['p384.software-verify', '<=2.0ms'],
  ['worker-attest.', '<=1.10'],
  ['service-ocsp.warm.', '<=1.15'],
  ['service-ocsp.cold.', '<=3'],
];
const num = (text) => {
  const m = /^(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)([^\d]*)$/i.exec(text ?? '');
  return m ? { value: Number(m[1]), unit: m[2] } : undefined;
};
function verdict(ours, ratio, target) {
  const m = /^(<=|>=)(-?\d+(?:\.\d+)?)(.*)$/.exec(target ?? '');
  if (!m) return '';
  const [, op, limit, unit] = m;
  // A target with a unit judges `ours`, whose figure without a unit is taken in that unit.
  const mine = num(ours);
  const subject = unit ? (mine && (mine.unit === unit || mine.unit === '') ? mine.value : undefined) : num(ratio)?.value;
  if (subject === undefined) return '?';
  return (op === '<=' ? subject <= Number(limit) : subject >= Number(limit)) ? 'pass' : 'FAIL';
}
const rows = [];
const silent = [];
for (const bench of benches) {
  const text = readFileSync(`${logs}/${bench.replace(':', '-')}.log`, 'utf8');
  const lines = text.split('\n').filter((l) => l.startsWith('BENCH '));
  const status = /# ran: .*, (FAILED[^,]*),/.exec(text)?.[1];
  if (status) rows.push({ bench, name: '(benchmark failed)', ours: '-', yard: '-', ratio: '-', target: '', verdict: status });
  else if (!lines.length) silent.push(bench);
  for (const line of lines) {
    const [, name, ours = '-', yard = '-', rawRatio = '-', given] = line.trim().split(/\s+/);
    const ratio = rawRatio.replace(/x$/, '');
    const target = given ?? ISSUE_TARGETS.find(([prefix]) => name.startsWith(prefix))?.[1] ?? '';
    rows.push({ bench, name, ours, yard, ratio, target, verdict: verdict(ours, ratio, target) });
  }
}
console.log('\n| benchmark | figure | ours | peer / yardstick | ratio | target | verdict |');
console.log('|---|---|---:|---:|---:|---|---|');
for (const r of rows) console.log(`| ${r.bench} | ${r.name} | ${r.ours} | ${r.yard} | ${r.ratio} | ${r.target} | ${r.verdict} |`);
if (silent.length) console.log(`\nno BENCH line (see their logs): ${silent.join(', ')}`);
const fails = rows.filter((r) => r.verdict === 'FAIL').length;
const passes = rows.filter((r) => r.verdict === 'pass').length;
console.log(`\ntargets: ${passes} pass, ${fails} off target; ${rows.length} figures`);
NODE

echo "bench: done in $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
if ((${#failed[@]})); then
  echo "bench: failed to run: ${failed[*]}" >&2
  exit 1
fi
