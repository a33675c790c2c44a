// Evidence verification cost in wasm: software backend vs WebCrypto, with the cost of one
// WebCrypto ECDSA P-384 verify measured in the same run as the yardstick.
//
//   bash pkg-config/build.sh && node tests/bench/evidence.mjs
//
// Target (issue 4): WebCrypto total ≤ 1.3 × (ECDSA verifications) × (one WebCrypto verify).
import { readFileSync } from 'node:fs';
import { prepareEvidence, runSignatureChecks } from '../../pkg/index.js';

const root = new URL('../fixtures/nvidia/evidence/', import.meta.url);
const text = (p) => readFileSync(new URL(p, root), 'utf8');
const NOW = 1_790_000_000;
const N931 = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';

const serialized = (file) => {
  const items = JSON.parse(text(`serialized/${file}`));
  return {
    nonce: items[0].nonce, arch: items[0].arch, now: NOW,
    devices: items.map((i) => ({ evidence: i.evidence, certificate: i.certificate })),
  };
};
const workloads = {
  'hopper x1': [{
    nonce: N931, arch: 'HOPPER', now: NOW,
    devices: [{
      evidence: Buffer.from(text('hopper/nvtrust_hopper_550.90.07_report.hex').trim(), 'hex').toString('base64'),
      certificate: text('hopper/nvtrust_hopper_550.90.07_certchain.pem'),
    }],
  }],
  '8 GPU + 4 switch': [serialized('nvtrust_ppcie_gpu_evidence_8gpu.json'), serialized('nvtrust_ppcie_switch_evidence_4sw.json')],
};

async function time(fn, minMs = 1500) {
  for (let i = 0; i < 3; i++) await fn(); // warm-up
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs || runs < 5) { await fn(); runs++; }
  return (performance.now() - start) / runs;
}

async function webcrypto(batches) {
  for (const options of batches) {
    const batch = prepareEvidence(options);
    const results = batch.finish(await runSignatureChecks(batch.signatureChecks()));
    batch.free();
    if (!results.every((r) => r.ok)) throw new Error('verification failed');
  }
}

function software(batches) {
  for (const options of batches) {
    const batch = prepareEvidence(options);
    const results = batch.verify();
    batch.free();
    if (!results.every((r) => r.ok)) throw new Error('verification failed');
  }
}

// Yardstick: one WebCrypto verify (key import included, as the batch does per distinct key),
// awaited one at a time.
const probe = prepareEvidence(workloads['hopper x1'][0]);
const [check] = probe.signatureChecks();
probe.free();
const subtle = globalThis.crypto.subtle;
const oneVerify = await time(async () => {
  const key = await subtle.importKey('raw', check.publicKey, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
  if (!(await subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, key, check.signature, check.message))) throw new Error('bad');
});

console.log(`node ${process.version}; one WebCrypto P-384 verify: ${oneVerify.toFixed(3)} ms`);
console.log('workload            checks  wasm-soft ms  wasm-webcrypto ms  budget ms (1.3 x checks x verify)  within');
for (const [name, batches] of Object.entries(workloads)) {
  const checks = batches.reduce((n, o) => { const b = prepareEvidence(o); const c = b.signatureChecks().length; b.free(); return n + c; }, 0);
  const soft = await time(() => software(batches));
  const web = await time(() => webcrypto(batches));
  const budget = 1.3 * checks * oneVerify;
  console.log(`${name.padEnd(18)} ${String(checks).padStart(7)}  ${soft.toFixed(2).padStart(12)}  ${web.toFixed(2).padStart(17)}  ${budget.toFixed(2).padStart(34)}  ${web <= budget ? 'yes' : 'NO'}`);
}
