// Resilient fetching benchmark: V4 attestations (claims 3.0, the test PKI's `good` GPU)
// through the worker in workerd with every answer fetched (EDGEATTEST_FETCH_CACHE=off: 6 OCSP
// answers and 2 RIMs per attestation, from loopback sources: tests/js/support/ocsp-responder.mjs),
// in one run, alternating:
//   removed   — the live responder and RIM service only;
//   dead-first — a dead source (a loopback port nothing listens on: connection refused) first
//                in each list, the live ones as its mirrors (EDGEATTEST_*_MIRRORS).
// The first attestation of dead-first pays the refused connections until the source's breaker
// opens; after that the dead source is skipped (and tried again each 30 s). Also reported: the
// first attestation of each worker.
// Run after `bash pkg-config/build.sh`:  node tests/bench/fetch-sources.mjs [rounds=30]
// The last line is machine-readable (pkg-config/bench.sh):
//   BENCH fetch.dead-first <median ms> <median ms with it removed> <ratio>
import { performance } from 'node:perf_hooks';
import { buildAttestRequest } from '../../pkg/index.js';
import { startWorker } from '../js/support/worker.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from '../js/support/ocsp-responder.mjs';
import { closedPort } from '../js/support/flaky-source.mjs';

const rounds = Number(process.argv[2] ?? 30);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];


const responder = await startOcspResponder();
const rims = await startRimService();
const device = await testDevice('good');
const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
const body = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' }));
const dead = `http://127.0.0.1:${await closedPort()}/`;
const common = {
  EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
  EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
  EDGEATTEST_BUNDLED_RIMS: 'off',
  EDGEATTEST_FETCH_CACHE: 'off',
};
const workers = {
  removed: await startWorker({ bindings: { ...common, EDGEATTEST_OCSP_URL: responder.url, EDGEATTEST_RIM_SERVICE_URL: rims.url } }),
  'dead-first': await startWorker({
    bindings: { ...common, EDGEATTEST_OCSP_URL: dead, EDGEATTEST_OCSP_MIRRORS: responder.url, EDGEATTEST_RIM_SERVICE_URL: dead, EDGEATTEST_RIM_MIRRORS: rims.url },
  }),
};
const times = {};
const first = {};
try {
  const post = async (mode) => {
    const t = performance.now();
    const response = await fetch(`${workers[mode].origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const result = await response.json();
    const ms = performance.now() - t;
    const overall = JSON.parse(Buffer.from(result[0][1].split('.')[1], 'base64url'));
    if (overall['x-nvidia-overall-att-result'] !== true) throw new Error(`${mode}: not a pass`);
    return ms;
  };
  for (const mode of Object.keys(workers)) first[mode] = await post(mode);
  for (const mode of Object.keys(workers)) for (let i = 0; i < 3; i++) await post(mode);
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 ? Object.keys(workers).reverse() : Object.keys(workers)) {
      (times[mode] ??= []).push(await post(mode));
    }
  }
} finally {
  for (const worker of Object.values(workers)) await worker.stop();
  await responder.close();
  await rims.close();
}
const removed = quantile([...times.removed].sort((a, b) => a - b), 0.5);
console.log('| sources | first attestation ms | median ms | p99 ms | median / removed |');
console.log('|---|---:|---:|---:|---:|');
for (const mode of Object.keys(workers)) {
  const sorted = [...times[mode]].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  console.log(`| ${mode} | ${first[mode].toFixed(1)} | ${median.toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} | ${(median / removed).toFixed(2)} |`);
}
const deadFirst = quantile([...times['dead-first']].sort((a, b) => a - b), 0.5);
console.log('');
console.log(`BENCH fetch.dead-first.first ${first['dead-first'].toFixed(1)}ms ${first.removed.toFixed(1)}ms ${(first['dead-first'] / first.removed).toFixed(2)}`);
console.log(`BENCH fetch.dead-first ${deadFirst.toFixed(1)}ms ${removed.toFixed(1)}ms ${(deadFirst / removed).toFixed(2)}`);
