// Two builds of the package side by side: the token benchmark (tests/bench/token-bench-core.mjs)
// run on build A and build B in alternating rounds in one Node process (A B A B ...), each
// round beside jose, so that a binding change (issue 19: smaller conversion code) can show it
// costs no speed on the hot paths. Prints each case's median ratio to jose per build, and B/A.
//
//   node tests/bench/binding-ab.mjs A_PKG_DIR B_PKG_DIR [--ms 300] [--rounds 8]
//
// A_PKG_DIR and B_PKG_DIR are copies of pkg/ (after `bash pkg-config/build.sh`), e.g. the
// one built before a change and the one after.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as jose from 'jose';
import { runTokenBench } from './token-bench-core.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const [dirA, dirB] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dirA || !dirB) {
  console.error('usage: node tests/bench/binding-ab.mjs A_PKG_DIR B_PKG_DIR [--ms 300] [--rounds 8]');
  process.exit(2);
}
const ms = option('--ms', 300);
const rounds = option('--rounds', 8);

const repo = new URL('../../', import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/nvidia/nras/teep/${name}`, repo), 'utf8'));
const response = read('v3_8gpu_success_20260629_response.json');
const recorded = {
  response,
  jwks: read('v3_8gpu_success_20260629_jwks.json'),
  nonce: read('v3_8gpu_success_20260629_request.json').nonce,
  iat: JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url')).iat,
};

const load = (dir) => import(pathToFileURL(resolve(dir, 'index.js')).href);
const builds = [['A', await load(dirA)], ['B', await load(dirB)]];
// Per round and build, each of our rows as a ratio to the case's jose row of the same call
// (its yardstick, measured beside it), so that load changes between calls cancel.
const samples = new Map(); // "case|impl|build" -> [ours/jose per round]
for (let round = 0; round < rounds; round++) {
  for (const [name, lib] of builds) {
    const rows = await runTokenBench(lib, jose, recorded, { ms });
    for (const row of rows) {
      const yardstick = rows.find((r) => r.case === row.case && r.impl.startsWith('jose'));
      if (!yardstick || row.impl.startsWith('jose')) continue;
      const key = `${row.case}|${row.impl}|${name}`;
      samples.set(key, [...(samples.get(key) ?? []), row.opsPerSec / yardstick.opsPerSec]);
    }
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(`Node ${process.version}, ${rounds} rounds A B, ${ms} ms per case; ops/s as a ratio to jose`);
console.log('in the same call (higher is faster); B/A above 1: B faster\n');
console.log('| case | implementation | A / jose | B / jose | B/A |');
console.log('|---|---|---:|---:|---:|');
for (const key of samples.keys()) {
  if (!key.endsWith('|A')) continue;
  const [c, impl] = key.split('|');
  const a = median(samples.get(key));
  const b = median(samples.get(`${c}|${impl}|B`));
  console.log(`| ${c} | ${impl} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(3)} |`);
}
