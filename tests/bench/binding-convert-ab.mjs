// The wasm side of verifying the recorded NRAS 8-GPU result with the WebCrypto backend, on two
// builds of pkg/ alternated in one Node process (A B A B ...): `prepareAttestationResultVerification`
// (options and result through the binding's reader), `checks()` (33 signature checks written
// back as objects of bytes) and `finish(verdicts)` (the claims and the appraisal written back).
// No signature is computed: what is measured is the core's parsing and the binding's
// conversions, which a binding change (issue 19) must not slow down. Synchronous, so rounds
// are short and many; prints each build's median ops/s and B/A.
//
//   node tests/bench/binding-convert-ab.mjs A_PKG_DIR B_PKG_DIR [--ms 200] [--rounds 15]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const [dirA, dirB] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dirA || !dirB) {
  console.error('usage: node tests/bench/binding-convert-ab.mjs A_PKG_DIR B_PKG_DIR [--ms 200] [--rounds 15]');
  process.exit(2);
}
const ms = option('--ms', 200);
const rounds = option('--rounds', 15);

const repo = new URL('../../', import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/nvidia/nras/teep/${name}`, repo), 'utf8'));
const response = read('v3_8gpu_success_20260629_response.json');
const jwks = read('v3_8gpu_success_20260629_jwks.json');
const nonce = read('v3_8gpu_success_20260629_request.json').nonce;
const iat = JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url')).iat;

async function load(dir) {
  const wasm = await import(pathToFileURL(resolve(dir, 'edgeattest.js')).href);
  wasm.initSync({ module: readFileSync(resolve(dir, 'edgeattest_bg.wasm')) });
  const keySet = new wasm.KeySet(jwks);
  const options = { now: iat, nonce };
  const once = () => {
    const verification = wasm.prepareAttestationResultVerification(response, keySet, options);
    const checks = verification.checks();
    const result = verification.finish(checks.map(() => true));
    if (!result) throw new Error('no result');
  };
  once();
  return once;
}

function rate(fn) {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    fn();
    count++;
    elapsed = performance.now() - start;
  }
  return (count * 1000) / elapsed;
}

const builds = [['A', await load(dirA)], ['B', await load(dirB)]];
for (const [, fn] of builds) for (let i = 0; i < 20; i++) fn();
const samples = { A: [], B: [] };
for (let round = 0; round < rounds; round++) {
  // Alternate which build goes first, so that neither always runs after the other.
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const [name, fn] of order) samples[name].push(rate(fn));
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const [a, b] = [median(samples.A), median(samples.B)];
console.log(`Node ${process.version}, ${rounds} rounds, ${ms} ms each, order alternating`);
console.log('| case | A ops/s | B ops/s | B/A |');
console.log('|---|---:|---:|---:|');
console.log(`| recorded 8-GPU result: prepare + checks + finish (wasm only) | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(3)} |`);
