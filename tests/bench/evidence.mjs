// Evidence verification in wasm with WebCrypto signatures, against the strict yardstick: the
// same distinct ECDSA P-384/SHA-384 verifications run by bare parallel crypto.subtle.verify
// with every key imported beforehand (outside the timed region). Workload and yardstick
// alternate in one run (A, B, A, B, ... rounds); medians of the rounds and their ratio are
// reported. The software backend (`batch.verify()`) is a third arm of the same rounds.
//
//   bash pkg-config/build.sh && node tests/bench/evidence.mjs
//
// Environment: BENCH_ROUNDS (default 21), BENCH_ROUND_MS (target length of one arm's round,
// default 120), BENCH_SOFTWARE=0 skips the software arm, EDGEATTEST_PKG another pkg/ dir,
// EDGEATTEST_PKG_BASE a second pkg/ dir whose WebCrypto path is one more arm of the same
// rounds (a change's before and after, each beside the yardstick of the same run).
// Target (issue 19, item 3): wasm-webcrypto <= 1.2 x yardstick.
// One machine-readable line per result: `BENCH <name> <ms> <yardstick ms> <ratio>`.
import { readFileSync } from 'node:fs';
import { localEntry, median, measure } from './support.mjs';

const { prepareEvidence, runSignatureChecks } = await localEntry(process.env.EDGEATTEST_PKG);
const base = process.env.EDGEATTEST_PKG_BASE && (await localEntry(process.env.EDGEATTEST_PKG_BASE));

const root = new URL('../fixtures/nvidia/evidence/', import.meta.url);
const text = (p) => readFileSync(new URL(p, root), 'utf8');
const NOW = 1_790_000_000;
const N931 = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 120);
const SOFTWARE = process.env.BENCH_SOFTWARE !== '0';

const serialized = (file) => {
  const items = JSON.parse(text(`serialized/${file}`));
  return {
    nonce: items[0].nonce, arch: items[0].arch, now: NOW,
    devices: items.map((i) => ({ evidence: i.evidence, certificate: i.certificate })),
  };
};
// One request per batch: the GPUs and the switches of a node are two requests.
const workloads = {
  'hopper-x1': [{
    nonce: N931, arch: 'HOPPER', now: NOW,
    devices: [{
      evidence: Buffer.from(text('hopper/nvtrust_hopper_550.90.07_report.hex').trim(), 'hex').toString('base64'),
      certificate: text('hopper/nvtrust_hopper_550.90.07_certchain.pem'),
    }],
  }],
  '8gpu-4switch': [serialized('nvtrust_ppcie_gpu_evidence_8gpu.json'), serialized('nvtrust_ppcie_switch_evidence_4sw.json')],
};

const subtle = globalThis.crypto.subtle;
const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };
const ES384 = { name: 'ECDSA', hash: 'SHA-384' };

const allOk = (results) => {
  if (!results.every((r) => r.ok)) throw new Error(`verification failed: ${JSON.stringify(results.find((r) => !r.ok))}`);
};

// A: the package's WebCrypto path, the batches of the workload in parallel (as a host serving
// both requests would): parse, path building, checks handed to WebCrypto, finish.
const webcrypto = (batches, pkg = { prepareEvidence, runSignatureChecks }) => async () => {
  await Promise.all(batches.map(async (options) => {
    const batch = pkg.prepareEvidence(options);
    try {
      allOk(batch.finish(await pkg.runSignatureChecks(batch.signatureChecks())));
    } finally {
      batch.free();
    }
  }));
};

// B: the same distinct verifications, keys imported before timing, all in parallel.
async function yardstick(batches) {
  const checks = batches.flatMap((options) => {
    const batch = prepareEvidence(options);
    const list = batch.signatureChecks();
    batch.free();
    return list;
  });
  const keys = new Map();
  const imported = await Promise.all(checks.map(async (c) => {
    const id = Buffer.from(c.publicKey).toString('hex');
    if (!keys.has(id)) keys.set(id, subtle.importKey('raw', c.publicKey, ECDSA_P384, false, ['verify']));
    return keys.get(id);
  }));
  const run = async () => {
    const verdicts = await Promise.all(checks.map((c, i) => subtle.verify(ES384, imported[i], c.signature, c.message)));
    if (!verdicts.every(Boolean)) throw new Error('yardstick verify failed');
  };
  return { run, checks: checks.length, keys: keys.size };
}

// C: the software backend (P-384 in wasm).
const software = (batches) => async () => {
  for (const options of batches) {
    const batch = prepareEvidence(options);
    try {
      allOk(batch.verify());
    } finally {
      batch.free();
    }
  }
};



/** Calls per round so that one round of `fn` lasts about ROUND_MS. */
async function calibrate(fn) {
  for (let i = 0; i < 5; i++) await fn(); // warm-up (JIT, key cache, wasm tier-up)
  const once = await measure(fn, 5);
  return Math.max(1, Math.round(ROUND_MS / Math.max(once, 0.01)));
}

/** Alternating rounds over the arms; the median ms per call of each. */
async function alternate(arms) {
  const counts = [];
  for (const arm of arms) counts.push(await calibrate(arm.fn));
  const samples = arms.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, arm] of arms.entries()) samples[i].push(await measure(arm.fn, counts[i]));
  }
  return samples.map(median);
}

console.log(`node ${process.version}; ${ROUNDS} alternating rounds of ~${ROUND_MS} ms per arm; medians`);
console.log('workload       checks keys  yardstick ms  wasm-webcrypto ms  ratio  wasm-software ms  ratio');
for (const [name, batches] of Object.entries(workloads)) {
  const strict = await yardstick(batches);
  const arms = [{ fn: strict.run }, { fn: webcrypto(batches) }];
  if (base) arms.push({ fn: webcrypto(batches, base) });
  if (SOFTWARE) arms.push({ fn: software(batches) });
  const medians = await alternate(arms);
  const [yard, web] = medians;
  const before = base ? medians[2] : undefined;
  const soft = medians[base ? 3 : 2];
  const ratio = web / yard;
  const softCols = SOFTWARE ? `${soft.toFixed(2).padStart(16)}  ${(soft / yard).toFixed(2).padStart(5)}` : '';
  console.log(`${name.padEnd(14)} ${String(strict.checks).padStart(6)} ${String(strict.keys).padStart(4)}  ${yard.toFixed(3).padStart(12)}  ${web.toFixed(3).padStart(17)}  ${ratio.toFixed(2).padStart(5)}  ${softCols}`);
  console.log(`BENCH evidence.webcrypto.${name} ${web.toFixed(3)} ${yard.toFixed(3)} ${ratio.toFixed(3)}`);
  if (base) console.log(`BENCH evidence.webcrypto-base.${name} ${before.toFixed(3)} ${yard.toFixed(3)} ${(before / yard).toFixed(3)}`);
  if (SOFTWARE) console.log(`BENCH evidence.software.${name} ${soft.toFixed(3)} ${yard.toFixed(3)} ${(soft / yard).toFixed(3)}`);
}
