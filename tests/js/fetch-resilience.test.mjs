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
import { startWorker } from './support/worker.mjs';
import { OCSP_TIMEOUT_MS, sharedCases, startFaultMatrix } from './support/fault-matrix.mjs';

/** The matrix; ocsp[0] first in its list, ocsp[1] its mirror. */
let matrix;
let ocsp;

before(async () => {
  matrix = await startFaultMatrix();
  ({ ocsp } = matrix);
});
after(() => matrix?.close());

/** A worker whose sources are the stand-ins, first then mirror. */
function startWith(bindings = {}, extra = {}) {
  return startWorker({
    settle: false,
    bindings: { ...matrix.bindings, ...bindings },
    ...extra,
  });
}

const modes = (first, mirror) => matrix.modes(first, mirror);
const attest = (worker) => matrix.attest(worker.origin);
const health = (worker) => matrix.health(worker.origin);
const sourceOf = (report, kind, stand) => matrix.sourceOf(report, kind, stand);

// The cases the component passes too (tests/js/component-fetch-resilience.test.mjs).
for (const [name, run] of sharedCases(() => matrix, () => startWith())) test(name, run);

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
