// RIM benchmark in wasm (Node): parse + C14N + digest (prepareRim), full verification with
// the in-wasm software backend (verifyRim) and with WebCrypto (prepareRim + crypto.subtle),
// and the comparison; beside the Python peer of tests/bench/rim.rs (lxml + cryptography,
// tests/bench/rim_peer.py) when python3 has those modules, and prepare beside the native build
// of the same code (tests/bench/rim.rs --prepare-json), both run between our rounds (ours,
// native, peer, ours, ...; medians). Build pkg/ first (bash pkg-config/build.sh), then:
//
//   node tests/bench/rim_wasm.mjs [--rounds 3]
//
// EDGEATTEST_PKG: another pkg/ dir (to compare builds).
//
// The last lines are machine-readable (pkg-config/bench.sh):
//   BENCH rim.wasm.<doc>.<step> <ours µs> <peer µs> <ratio>
//   BENCH rim.wasm.<doc>.prepare-vs-native <ours µs> <native µs> <ratio> <=2
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { localEntry } from './support.mjs';

const { verifyRim, prepareRim, compareGpuRims } = await localEntry(process.env.EDGEATTEST_PKG);

const root = new URL('../fixtures/nvidia/', import.meta.url);
const text = (p) => readFileSync(new URL(p, root), 'utf8');
const NOW = 1704067200;
const options = { now: NOW };

async function measure(fn) {
  for (let i = 0; i < 3; i++) await fn();
  const samples = [];
  const start = performance.now();
  while (performance.now() - start < 1000 || samples.length < 10) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1] * 1000; // µs
}

async function webcrypto(xml) {
  const pending = prepareRim(xml, options);
  const verdicts = await Promise.all(pending.signatureChecks().map(async (c) => {
    const key = await crypto.subtle.importKey('raw', c.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, c.signature, c.message);
  }));
  return pending.finish(verdicts);
}

function blocks(path) {
  const raw = Buffer.from(text(path).trim(), 'hex');
  const r = raw.subarray(37);
  const len = r[5] | (r[6] << 8) | (r[7] << 16);
  const records = r.subarray(8, 8 + len);
  const out = {};
  for (let i = 0; i < records.length;) {
    const size = records[i + 2] | (records[i + 3] << 8);
    const valueSize = records[i + 5] | (records[i + 6] << 8);
    out[String(records[i])] = new Uint8Array(records.subarray(i + 7, i + 7 + valueSize));
    i += 4 + size;
  }
  return out;
}

const docs = [
  ['driver RIM', 'rims/nvtrust/Driver_RIM_test_no_gpu.swidtag'],
  ['VBIOS RIM', 'rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag'],
];
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/**
 * One round of the native build's `prepare_rim` (tests/bench/rim.rs, `--prepare-json`):
 * { 'driver RIM': µs, ... }, or why there is none (cargo builds the bench program first if needed).
 */
function native() {
  const run = spawnSync('cargo', ['bench', '--quiet', '--bench', 'rim', '--', '--prepare-json'], {
    encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname,
  });
  if (run.error) return `cargo not available (${run.error.message})`;
  if (run.status !== 0) return run.stderr.trim().split('\n').pop();
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

/** One run of the Python peer: { 'driver RIM': { prepare, verify }, ... } in µs, or a reason. */
function peer() {
  const run = spawnSync('python3', [new URL('rim_peer.py', import.meta.url).pathname, '--json'], { encoding: 'utf8' });
  if (run.error) return `python3 not available (${run.error.message})`;
  if (run.status !== 0) return run.stderr.trim().split('\n').pop();
  return JSON.parse(run.stdout);
}

const ours = {};
const theirs = {};
const natives = {};
let peerMissing;
let nativeMissing;
const add = (into, label, step, value) => ((into[label] ??= {})[step] ??= []).push(value);
for (let round = 0; round < rounds; round++) {
  for (const [label, path] of docs) {
    const xml = text(path);
    add(ours, label, 'prepare', await measure(() => prepareRim(xml, options)));
    add(ours, label, 'verify-software', await measure(() => verifyRim(xml, options)));
    add(ours, label, 'verify-webcrypto', await measure(() => webcrypto(xml)));
  }
  if (!nativeMissing) {
    const result = native();
    if (typeof result === 'string') nativeMissing = result;
    else for (const [label] of docs) (natives[label] ??= []).push(result[label]);
  }
  if (peerMissing) continue;
  const result = peer();
  if (typeof result === 'string') peerMissing = result;
  else for (const [label] of docs) for (const step of ['prepare', 'verify']) add(theirs, label, step, result[label][step]);
}

console.log(`edgeattest RIM benchmark (wasm in Node ${process.version}), median per call of ${rounds} rounds`);
for (const [label, path] of docs) {
  const m = (step) => median(ours[label][step]).toFixed(1).padStart(8);
  console.log(`  ${label.padEnd(11)} ${String(text(path).length).padStart(6)} B  parse+C14N+digest ${m('prepare')} µs   ` +
    `verify, wasm p384 ${m('verify-software')} µs   verify, WebCrypto ${m('verify-webcrypto')} µs`);
}
const driver = verifyRim(text(docs[0][1]), options);
const firmware = verifyRim(text(docs[1][1]), options);
const evidence = {
  measurements: blocks('evidence/hopper/gonvtrust_hopper_545.00_report.hex'),
  driverVersion: '545.00', vbiosVersion: '96.00.5E.00.01', nvdec0Status: 0x55,
};
const compare = await measure(() => {
  if (!compareGpuRims(driver, firmware, evidence).allMatch) throw new Error('mismatch');
});
console.log(`  compare driver+VBIOS (32 records)        ${compare.toFixed(1).padStart(8)} µs`);
if (peerMissing) console.log(`peer skipped: ${peerMissing}`);
else {
  console.log(`peer: Python lxml + cryptography (libxml2, OpenSSL), median per call of ${rounds} rounds`);
  for (const [label] of docs) {
    const m = (step) => median(theirs[label][step]).toFixed(1).padStart(8);
    console.log(`  ${label.padEnd(11)}          parse+C14N+digest ${m('prepare')} µs   full verify (4 ECDSA) ${m('verify')} µs`);
  }
}

if (nativeMissing) console.log(`native yardstick skipped: ${nativeMissing}`);
else {
  console.log(`native (tests/bench/rim.rs, release): median per call of ${rounds} rounds`);
  for (const [label] of docs) console.log(`  ${label.padEnd(11)}          parse+C14N+digest ${median(natives[label]).toFixed(1).padStart(8)} µs`);
}

console.log('');
for (const [label] of docs) {
  const doc = label.split(' ')[0].toLowerCase();
  for (const step of ['prepare', 'verify-software', 'verify-webcrypto']) {
    const mine = median(ours[label][step]);
    const peerSamples = theirs[label]?.[step.startsWith('verify') ? 'verify' : step];
    const yardstick = peerSamples ? median(peerSamples) : undefined;
    console.log(`BENCH rim.wasm.${doc}.${step} ${mine.toFixed(1)}us ${yardstick === undefined ? '- -' : `${yardstick.toFixed(1)}us ${(mine / yardstick).toFixed(2)}`}`);
  }
  // The same prepare in wasm against the native build, rounds alternating with ours.
  const mine = median(ours[label].prepare);
  const yardstick = natives[label] && median(natives[label]);
  console.log(`BENCH rim.wasm.${doc}.prepare-vs-native ${mine.toFixed(1)}us ${yardstick === undefined ? '- -' : `${yardstick.toFixed(1)}us ${(mine / yardstick).toFixed(2)}`} <=2`);
}
