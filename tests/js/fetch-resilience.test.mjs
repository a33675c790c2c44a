// Collateral that never strands a user, through the edge worker in workerd: each source of
// the test PKI's collateral (the loopback OCSP responder and RIM service) sits behind a
// misbehaving stand-in (support/flaky-source.mjs), first in the list, with a mirror second.
// The fault matrix — the first source down, slow, answering garbage or 5xx; every source down
// with and without stale-if-error; the breaker; a restart that keeps the Cache API copy —
// asserts the claims, the warnings, /health and the number of fetches of each source. The
// core's decisions themselves are tested in tests/it/service/fetch_attempts.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAttestRequest } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { startSourcePairs } from './support/flaky-source.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const OCSP_TIMEOUT_MS = 1500;

let responder;
let rims;
let device;
/** The stand-ins: ocsp[0] and rim[0] first in their lists, [1] the mirrors. */
let sources;
let ocsp;
let rim;

before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  device = await testDevice('good');
  sources = await startSourcePairs(responder.url, rims.url);
  ({ ocsp, rim } = sources);
});
after(async () => {
  await sources?.close();
  await responder?.close();
  await rims?.close();
});

/** A worker whose sources are the stand-ins, first then mirror. */
function startWith(bindings = {}, extra = {}) {
  return startWorker({
    settle: false,
    bindings: {
      ...sources.bindings,
      EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
      EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
      EDGEATTEST_OCSP_TIMEOUT_MS: String(OCSP_TIMEOUT_MS),
      EDGEATTEST_FETCH_CACHE: 'off',
      ...bindings,
    },
    ...extra,
  });
}

const modes = (first, mirror) => sources.modes(first, mirror);

/** One attestation: its claims, the time it took, and what each stand-in was asked. */
async function attest(worker) {
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
  const started = performance.now();
  const response = await fetch(`${worker.origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ms = performance.now() - started;
  assert.equal(response.status, 200);
  const result = await response.json();
  return {
    overall: payload(result[0][1]),
    gpu: payload(result[1]['GPU-0']),
    ms,
    asked: sources.asked(),
  };
}

const health = async (worker) => (await fetch(`${worker.origin}/health`)).json();
const sourceOf = (report, kind, stand) => sources.sourceOf(report, kind, stand);

for (const fault of ['down', 'garbage', 'http503']) {
  test(`the first source ${fault}, the mirror fine: the verdict the data supports, every fetch counted`, async () => {
    modes(fault);
    const worker = await startWith();
    try {
      const { overall, gpu, asked } = await attest(worker);
      assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(gpu));
      assert.equal(gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
      assert.equal(gpu['x-nvidia-gpu-driver-rim-fetched'], true);
      // (The test PKI's devices always carry the warning that their root is not NVIDIA's.)
      assert.doesNotMatch(gpu['x-nvidia-attestation-warning'], /kept|valid until/, 'a fresh answer from a mirror is no degradation');
      // The mirror answered every resource; the first source was asked at most once each
      // (a garbage or 4xx answer is final for it; a failure is not retried once the mirror answers).
      assert.ok(asked.rim[0] >= 1 && asked.rim[0] <= 2, JSON.stringify(asked));
      assert.equal(asked.rim[1], 2, JSON.stringify(asked));
      assert.ok(asked.ocsp[0] >= 1 && asked.ocsp[0] <= asked.ocsp[1], JSON.stringify(asked));
      const report = await health(worker);
      const first = sourceOf(report, 'ocsp', ocsp[0]);
      assert.equal(first.status, 'DOWN');
      assert.equal(first.failures, asked.ocsp[0]);
      assert.equal(sourceOf(report, 'ocsp', ocsp[1]).status, 'UP');
      assert.equal(sourceOf(report, 'rim', rim[1]).status, 'UP');
      assert.match(first.lastError, fault === 'http503' ? /HTTP 503/ : fault === 'garbage' ? /unusable answer/ : /unreachable/);
    } finally {
      await worker.stop();
    }
  });
}

test('the first responder slow: one timeout, then the mirror', async () => {
  modes('fine');
  ocsp[0].setMode('slow');
  const worker = await startWith();
  try {
    const { overall, ms, asked } = await attest(worker);
    assert.equal(overall['x-nvidia-overall-att-result'], true);
    assert.ok(ms >= OCSP_TIMEOUT_MS, `${ms} ms`);
    // Each OCSP fetch waits one timeout at most; the fetches run at once.
    assert.ok(ms < 4 * OCSP_TIMEOUT_MS + 5000, `${ms} ms`);
    assert.ok(asked.ocsp[1] >= 1);
    assert.match(sourceOf(await health(worker), 'ocsp', ocsp[0]).lastError, /timeout/);
  } finally {
    await worker.stop();
  }
});

test('the breaker: a dead first source is skipped once it failed three times in a row', async () => {
  modes('down');
  const worker = await startWith();
  try {
    const first = await attest(worker);
    assert.equal(first.overall['x-nvidia-overall-att-result'], true);
    const report = await health(worker);
    const dead = sourceOf(report, 'ocsp', ocsp[0]);
    assert.ok(dead.failures >= 3, JSON.stringify(dead));
    assert.equal(dead.breaker, 'open');
    assert.ok(dead.openForMs > 0 && dead.openForMs <= 30_000);
    // Open: the next attestation does not ask it at all.
    modes('down');
    const second = await attest(worker);
    assert.equal(second.overall['x-nvidia-overall-att-result'], true);
    assert.equal(second.asked.ocsp[0], 0, JSON.stringify(second.asked));
    assert.ok(second.asked.ocsp[1] >= 1);
  } finally {
    await worker.stop();
  }
});

test('every source down and nothing kept: the device fails with what to do', async () => {
  modes('down', 'down');
  const worker = await startWith();
  try {
    const { overall, gpu, asked } = await attest(worker);
    assert.equal(overall['x-nvidia-overall-att-result'], false);
    assert.ok([5001, 5008].includes(gpu['x-nvidia-error-details'].code), JSON.stringify(gpu['x-nvidia-error-details']));
    // Each source was asked again after a backoff, within the rounds the core allows.
    assert.ok(asked.rim[0] >= 2 && asked.rim[0] <= 6, JSON.stringify(asked));
    const report = await health(worker);
    assert.equal(report.overallStatus, 'DEGRADED');
    for (const source of report.sources) assert.equal(source.status, 'DOWN', JSON.stringify(source));
  } finally {
    await worker.stop();
  }
});

test('a restart keeps the Cache API copy; every source down, it stands in within stale-if-error and says so', async () => {
  const persist = await mkdtemp(join(tmpdir(), 'edgeattest-cache-'));
  try {
    // Fetched and cached now (the cache on, persisted as workerd's Cache API is), by a
    // deployment with stale-if-error: its verified OCSP answers are kept that long.
    modes('fine');
    const warm = await startWith({ EDGEATTEST_FETCH_CACHE: 'on', EDGEATTEST_OCSP_STALE_IF_ERROR: '7200' }, { cachePersist: persist });
    try {
      assert.equal((await attest(warm)).overall['x-nvidia-overall-att-result'], true);
    } finally {
      await warm.stop();
    }
    // A day and an hour later, a new isolate, every source down.
    const later = String(Math.floor(Date.now() / 1000) + 25 * 3600);
    modes('down', 'down');
    const stale = await startWith(
      { EDGEATTEST_FETCH_CACHE: 'on', EDGEATTEST_FIXED_TIME: later, EDGEATTEST_OCSP_STALE_IF_ERROR: '7200' },
      { cachePersist: persist },
    );
    try {
      const { overall, gpu, asked } = await attest(stale);
      assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(gpu['x-nvidia-error-details']));
      const warning = gpu['x-nvidia-attestation-warning'];
      assert.match(warning, /comes from an answer valid until .* every OCSP responder failed/);
      assert.match(warning, /RIM NV_GPU_DRIVER_GH100_550\.90\.07 comes from a copy the host kept/);
      assert.ok(asked.ocsp[0] >= 1 && asked.rim[0] >= 1, 'the sources were asked first');
      const report = await health(stale);
      assert.equal(report.overallStatus, 'DEGRADED');
      assert.ok(report.keptAnswers.ocspSeconds >= 3600 - 600 && report.keptAnswers.ocspSeconds <= 3600 + 600, JSON.stringify(report.keptAnswers));
      assert.ok(report.keptAnswers.rimSeconds >= 3600 - 600, JSON.stringify(report.keptAnswers));
    } finally {
      await stale.stop();
    }
    // The same copies, stale-if-error off: the kept OCSP answers are refused (the kept RIM is
    // still used).
    const strict = await startWith({ EDGEATTEST_FETCH_CACHE: 'on', EDGEATTEST_FIXED_TIME: later }, { cachePersist: persist });
    try {
      const { overall, gpu } = await attest(strict);
      assert.equal(overall['x-nvidia-overall-att-result'], false);
      assert.equal(gpu['x-nvidia-error-details'].code, 5001);
      assert.equal(gpu['x-nvidia-gpu-driver-rim-fetched'], true);
    } finally {
      await strict.stop();
    }
  } finally {
    await rm(persist, { recursive: true, force: true });
  }
});
