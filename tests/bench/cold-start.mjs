// Cold start: the first verified token of a fresh process. Each round spawns one Node process
// per library, alternating (edgeattest, edgeattest/local, jose, edgeattest, ...); each
// imports its library, reads the recorded NRAS JWKS (32 keys) and verifies the recorded 1-GPU
// overall token (ES384) at its recorded time (tests/bench/cold-start-child.mjs). Reports the
// medians of: process start → verified (the figure of issue 19, target ≤ jose's); import →
// verified (what the library itself costs, without Node's own start-up); and the CPU time
// the process used until verified (all threads), which a loaded machine disturbs far less
// than wall time.
//
//   bash pkg-config/build.sh && node tests/bench/cold-start.mjs [--rounds 21] [--deno] [--before DIR]
//
// --deno: the same in Deno (target/tools/node_modules/.bin/deno), also alternating.
// --before DIR: also the pkg/ of another build (a copy taken before a change), in the same
// alternation, so that a change is measured against what it replaces in one run.
// The last lines are machine-readable (pkg-config/bench.sh collects them):
//   BENCH <name> <ours> <yardstick> <ratio> [target]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = new URL('../../', import.meta.url);
const path = (rel) => fileURLToPath(new URL(rel, repo));
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 21;
const withDeno = args.includes('--deno');

const fixture = 'tests/fixtures/nvidia/nras/teep/v3_1gpu_success_20260629';
const response = path(`${fixture}_response.json`);
const jwks = path(`${fixture}_jwks.json`);
const overall = JSON.parse(Buffer.from(JSON.parse(readFileSync(response, 'utf8'))[0][1].split('.')[1], 'base64url'));
const child = path('tests/bench/cold-start-child.mjs');
for (const built of ['pkg/node.js', 'pkg/local/node.js']) {
  if (!existsSync(path(built))) throw new Error(`${built} is missing: run bash pkg-config/build.sh first`);
}

const before = args.includes('--before') ? pathToFileURL(`${resolve(args[args.indexOf('--before') + 1])}/`).href : undefined;
const LIBS = ['edgeattest', 'local', 'jose', ...(before ? ['before', 'before-local'] : [])];
const LABEL = {
  edgeattest: 'edgeattest', local: 'edgeattest/local', jose: 'jose',
  before: 'edgeattest, --before', 'before-local': 'edgeattest/local, --before',
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function once(command, prefix, which) {
  const run = spawnSync(command, [...prefix, child, which, response, jwks, String(overall.iat)], {
    cwd: path('.'), encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', EDGEATTEST_BEFORE_PKG: before ?? '' },
  });
  const line = run.stdout.trim().split('\n').pop();
  if (run.status !== 0 || !line?.startsWith('{')) {
    throw new Error(`${command} ${which} failed (status ${run.status}): ${run.stderr || run.stdout}`);
  }
  return JSON.parse(line);
}

function measure(host, command, prefix) {
  for (const which of LIBS) once(command, prefix, which); // warm the OS file cache, not the process
  const samples = Object.fromEntries(LIBS.map((which) => [which, { total: [], library: [], cpu: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const which of LIBS) {
      const t = once(command, prefix, which);
      samples[which].total.push(t.verified);
      samples[which].library.push(t.verified - t.beforeImport);
      samples[which].cpu.push(t.cpu);
    }
  }
  const rows = LIBS.map((which) => ({
    which, total: median(samples[which].total), library: median(samples[which].library), cpu: median(samples[which].cpu),
  }));
  console.log(`\n## ${host}: first verified token, fresh process, median of ${rounds} alternating rounds`);
  console.log('| library | process start → verified (ms) | import → verified (ms) | CPU until verified (ms) |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${LABEL[r.which]} | ${r.total.toFixed(1)} | ${r.library.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
  return Object.fromEntries(rows.map((r) => [r.which, r]));
}

const bench = [];
const report = (name, ours, peer, target) => {
  bench.push(`BENCH ${name} ${ours.toFixed(1)}ms ${peer.toFixed(1)}ms ${(ours / peer).toFixed(2)}${target ? ` ${target}` : ''}`);
};

console.log(`cold start: Node ${process.version}, ${rounds} rounds, token ${fixture}_response.json [0][1] at iat ${overall.iat}`);
const node = measure(`Node ${process.version}`, process.execPath, []);
report('cold-start-node', node.edgeattest.total, node.jose.total, '<=1.00');
report('cold-start-node-local', node.local.total, node.jose.total, '<=1.00');
report('cold-start-node-import-to-verified', node.edgeattest.library, node.jose.library);
// CPU time: the same target, judged on the figure a loaded machine disturbs least.
report('cold-start-node-cpu', node.edgeattest.cpu, node.jose.cpu, '<=1.00');
report('cold-start-node-local-cpu', node.local.cpu, node.jose.cpu, '<=1.00');
if (before) {
  report('cold-start-node-vs-before', node.edgeattest.total, node.before.total);
  report('cold-start-node-cpu-vs-before', node.edgeattest.cpu, node.before.cpu);
  report('cold-start-node-local-cpu-vs-before', node.local.cpu, node['before-local'].cpu);
}

if (withDeno) {
  const deno = path('target/tools/node_modules/.bin/deno');
  if (!existsSync(deno)) {
    console.log(`\n(no Deno at ${deno}: run bash pkg-config/setup.sh; Deno skipped)`);
  } else {
    const version = spawnSync(deno, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
    const d = measure(version, deno, ['run', '--quiet', '--allow-read', '--allow-env']);
    report('cold-start-deno', d.edgeattest.total, d.jose.total);
    report('cold-start-deno-local', d.local.total, d.jose.total);
  }
}
console.log('');
for (const line of bench) console.log(line);
