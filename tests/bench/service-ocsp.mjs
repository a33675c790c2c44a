// Live-trust benchmark: V4 attestations (claims 3.0) through the worker in workerd, with
// revocation checked and RIMs fetched from loopback sources (`openssl ocsp` as the test PKI's
// responder, a RIM service stand-in: tests/js/support/ocsp-responder.mjs), beside the same
// attestations with both sources off (the previous behaviour), in one run, alternating:
//   off    — no OCSP, RIMs held by the service (no fetch step);
//   warm   — every answer from the worker's cache (after a first request);
//   cold   — EDGEATTEST_FETCH_CACHE=off: every attestation asks the responder (6 answers for
//            1 GPU, 12 for 8 GPUs) and the RIM service again.
// 1 GPU (the test PKI's `good` device) and 8 GPUs of one node (`node_0` … `node_7`).
// Cold also reports its own work: its time less the time at least one of its fetches was
// outstanding at the sources (what faster sources would take away: here most of it is an
// `openssl ocsp` process per answer), and the number of fetch rounds the sources saw (disjoint
// spans of outstanding fetches: 2 at the least, since the RIMs' chains are asked about once
// the RIMs are read).
// Run after `bash pkg-config/build.sh`:  node tests/bench/service-ocsp.mjs [rounds=30]
// The last lines are machine-readable (pkg-config/bench.sh):
//   BENCH service-ocsp.<warm|cold>.<1gpu|8gpu> <median ms> <median ms with sources off> <ratio>
//   BENCH service-ocsp.cold-own.<1gpu|8gpu> <median ms not waiting on sources> <off> <ratio>
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildAttestRequest } from '../../pkg/index.js';
import { startWorker } from '../js/support/worker.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from '../js/support/ocsp-responder.mjs';

const rounds = Number(process.argv[2] ?? 30);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const responder = await startOcspResponder();
const rims = await startRimService();
const manifest = JSON.parse(readFileSync(new URL('../fixtures/generated/ocsp/rims/manifest.json', import.meta.url), 'utf8'));

function body(devices) {
  const nonce = Buffer.from(devices[0].evidence.slice(4, 36)).toString('hex');
  return JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: devices, claimsVersion: '3.0' }));
}
const bodies = {
  '1 GPU': body([await testDevice('good')]),
  '8 GPUs': body(await Promise.all(Array.from({ length: 8 }, (_, n) => testDevice(`node_${n}`)))),
};
const common = { EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'), EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'), EDGEATTEST_BUNDLED_RIMS: 'off' };
const documents = JSON.stringify(['driver', 'vbios'].map((kind) => ({
  name: `${manifest[kind]}.xml`, xml: readFileSync(new URL(`../fixtures/generated/ocsp/rims/${manifest[kind]}.xml`, import.meta.url), 'utf8'),
})));
const workers = {
  off: await startWorker({ bindings: { ...common, EDGEATTEST_RIM_DOCUMENTS: documents } }),
  warm: await startWorker({ bindings: { ...common, EDGEATTEST_OCSP_URL: responder.url, EDGEATTEST_RIM_SERVICE_URL: rims.url } }),
  cold: await startWorker({ bindings: { ...common, EDGEATTEST_OCSP_URL: responder.url, EDGEATTEST_RIM_SERVICE_URL: rims.url, EDGEATTEST_FETCH_CACHE: 'off' } }),
};
const times = {};
const own = {};
const roundsSeen = {};
// The time at least one span was open, and how many disjoint groups the spans form.
function union(spans) {
  let busy = 0;
  let groups = 0;
  let end = -Infinity;
  for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
    if (a > end) {
      groups += 1;
      busy += b - a;
      end = b;
    } else if (b > end) {
      busy += b - end;
      end = b;
    }
  }
  return { busy, groups };
}
try {
  const post = async (mode, name) => {
    const response = await fetch(`${workers[mode].origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[name] });
    const result = await response.json();
    const overall = JSON.parse(Buffer.from(result[0][1].split('.')[1], 'base64url'));
    if (mode !== 'off' && overall['x-nvidia-overall-att-result'] !== true) throw new Error(`${mode} ${name}: not a pass`);
  };
  for (const mode of Object.keys(workers)) for (const name of Object.keys(bodies)) for (let i = 0; i < 3; i++) await post(mode, name);
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(bodies)) {
      for (const mode of Object.keys(workers)) {
        responder.takeSpans();
        rims.takeSpans();
        const t = performance.now();
        await post(mode, name);
        const elapsed = performance.now() - t;
        (times[`${mode}|${name}`] ??= []).push(elapsed);
        if (mode === 'cold') {
          const { busy, groups } = union([...responder.takeSpans(), ...rims.takeSpans()]);
          (own[name] ??= []).push(elapsed - busy);
          (roundsSeen[name] ??= []).push(groups);
        }
      }
    }
  }
} finally {
  for (const worker of Object.values(workers)) await worker.stop();
  await responder.close();
  await rims.close();
}
const bench = [];
console.log('| sources | request | median ms | p99 ms | median / off |');
console.log('|---|---|---:|---:|---:|');
for (const name of Object.keys(bodies)) {
  const off = quantile([...times[`off|${name}`]].sort((a, b) => a - b), 0.5);
  for (const mode of Object.keys(workers)) {
    const sorted = [...times[`${mode}|${name}`]].sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    console.log(`| ${mode} | ${name} | ${median.toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} | ${(median / off).toFixed(2)} |`);
    if (mode !== 'off') bench.push(`BENCH service-ocsp.${mode}.${name.replace(/\s+/g, '').toLowerCase()} ${median.toFixed(1)}ms ${off.toFixed(1)}ms ${(median / off).toFixed(2)}`);
  }
  const mine = quantile([...own[name]].sort((a, b) => a - b), 0.5);
  const groups = quantile([...roundsSeen[name]].sort((a, b) => a - b), 0.5);
  console.log(`| cold, not waiting on sources | ${name} | ${mine.toFixed(1)} | | ${(mine / off).toFixed(2)} (fetch rounds: ${groups}) |`);
  bench.push(`BENCH service-ocsp.cold-own.${name.replace(/\s+/g, '').toLowerCase()} ${mine.toFixed(1)}ms ${off.toFixed(1)}ms ${(mine / off).toFixed(2)}`);
}
console.log('');
for (const line of bench) console.log(line);
