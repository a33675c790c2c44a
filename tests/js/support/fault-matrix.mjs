// The fault matrix of the fetching tests (fetch-resilience, component-fetch-resilience): the
// test PKI's loopback responder and RIM service, each behind a misbehaving stand-in first in
// its list and a second one as its mirror (flaky-source.mjs), and the test PKI's `good` GPU.
import assert from 'node:assert/strict';
import { buildAttestRequest } from '../../../pkg/index.js';
import { startFlakySource } from './flaky-source.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './ocsp-responder.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

/** The OCSP timeout the matrix's hosts get: a slow source costs this much. */
export const OCSP_TIMEOUT_MS = 1500;

/**
 * Starts the matrix. `bindings`: a host's EDGEATTEST_* variables naming the stand-ins (first,
 * then mirror), trusting the test PKI, every answer fetched (the cache off).
 */
export async function startFaultMatrix() {
  const responder = await startOcspResponder();
  const rims = await startRimService();
  const device = await testDevice('good');
  const ocsp = [await startFlakySource(responder.url), await startFlakySource(responder.url)];
  const rim = [await startFlakySource(rims.url), await startFlakySource(rims.url)];
  const asked = () => ({ ocsp: ocsp.map((s) => s.asked()), rim: rim.map((s) => s.asked()) });
  return {
    ocsp,
    rim,
    bindings: {
      EDGEATTEST_OCSP_URL: ocsp[0].base,
      EDGEATTEST_OCSP_MIRRORS: ocsp[1].base,
      EDGEATTEST_RIM_SERVICE_URL: rim[0].base,
      EDGEATTEST_RIM_MIRRORS: rim[1].base,
      EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
      EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
      EDGEATTEST_OCSP_TIMEOUT_MS: String(OCSP_TIMEOUT_MS),
      EDGEATTEST_FETCH_CACHE: 'off',
    },
    /** The first sources in mode `first`, the mirrors in `mirror`; the counts reset. */
    modes(first, mirror = 'fine') {
      for (const source of [ocsp[0], rim[0]]) source.setMode(first);
      for (const source of [ocsp[1], rim[1]]) source.setMode(mirror);
      for (const source of [...ocsp, ...rim]) source.reset();
    },
    /** One attestation of the GPU at `origin`: its claims, its time, what each stand-in was asked. */
    async attest(origin) {
      const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
      const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
      const started = performance.now();
      const response = await fetch(`${origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const ms = performance.now() - started;
      assert.equal(response.status, 200);
      const result = await response.json();
      return { overall: payload(result[0][1]), gpu: payload(result[1]['GPU-0']), ms, asked: asked() };
    },
    health: async (origin) => (await fetch(`${origin}/health`)).json(),
    /** A stand-in's entry in a /health report's `sources`. */
    sourceOf: (report, kind, stand) => report.sources.find((s) => s.kind === kind && s.url.startsWith(stand.base)),
    async close() {
      for (const source of [...ocsp, ...rim]) await source.close();
      await responder.close();
      await rims.close();
    },
  };
}

/**
 * The cases both hosts (the worker, the service component) must pass alike, as `[name, run]`
 * for node:test: `matrixOf()` gives the started matrix (when a case runs), `start()` a host
 * `{origin, stop}` configured with its `bindings`. Each case asserts the claims, /health and
 * the fetches of each source.
 */
export function sharedCases(matrixOf, start) {
  const cases = [];
  const withHost = async (body) => {
    const matrix = matrixOf();
    const host = await start();
    try {
      await body(host, matrix, matrix.ocsp, matrix.rim);
    } finally {
      await host.stop();
    }
  };
  for (const fault of ['down', 'garbage', 'http503']) {
    cases.push([`the first source ${fault}, the mirror fine: the verdict the data supports, every fetch counted`, () => withHost(async (host, matrix, ocsp, rim) => {
      matrix.modes(fault);
      const { overall, gpu, asked } = await matrix.attest(host.origin);
      assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(gpu['x-nvidia-error-details']));
      assert.equal(gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
      assert.equal(gpu['x-nvidia-gpu-driver-rim-fetched'], true);
      // (The test PKI's devices always carry the warning that their root is not NVIDIA's.)
      assert.doesNotMatch(gpu['x-nvidia-attestation-warning'], /kept|valid until/, 'a fresh answer from a mirror is no degradation');
      // The mirror answered every resource; the first source was asked at most once each
      // (a garbage answer is final for it; a failure is not retried once the mirror answers).
      assert.ok(asked.rim[0] >= 1 && asked.rim[0] <= 2, JSON.stringify(asked));
      assert.equal(asked.rim[1], 2, JSON.stringify(asked));
      assert.ok(asked.ocsp[0] >= 1 && asked.ocsp[0] <= asked.ocsp[1], JSON.stringify(asked));
      const report = await matrix.health(host.origin);
      const first = matrix.sourceOf(report, 'ocsp', ocsp[0]);
      assert.equal(first.status, 'DOWN');
      assert.equal(first.failures, asked.ocsp[0]);
      assert.equal(matrix.sourceOf(report, 'ocsp', ocsp[1]).status, 'UP');
      assert.equal(matrix.sourceOf(report, 'rim', rim[1]).status, 'UP');
      assert.match(first.lastError, fault === 'http503' ? /HTTP 503/ : fault === 'garbage' ? /unusable answer/ : /unreachable/);
    })]);
  }
  cases.push(['the breaker: a dead first source is skipped once it failed three times in a row', () => withHost(async (host, matrix, ocsp, rim) => {
    matrix.modes('down');
    const first = await matrix.attest(host.origin);
    assert.equal(first.overall['x-nvidia-overall-att-result'], true);
    const dead = matrix.sourceOf(await matrix.health(host.origin), 'ocsp', ocsp[0]);
    assert.ok(dead.failures >= 3, JSON.stringify(dead));
    assert.equal(dead.breaker, 'open');
    assert.ok(dead.openForMs > 0 && dead.openForMs <= 30_000, JSON.stringify(dead));
    // Open: the next attestation does not ask it at all.
    matrix.modes('down');
    const second = await matrix.attest(host.origin);
    assert.equal(second.overall['x-nvidia-overall-att-result'], true);
    assert.equal(second.asked.ocsp[0], 0, JSON.stringify(second.asked));
    assert.ok(second.asked.ocsp[1] >= 1);
  })]);
  cases.push(['every source down and nothing kept: the device fails with what to do', () => withHost(async (host, matrix, ocsp, rim) => {
    matrix.modes('down', 'down');
    const { overall, gpu, asked } = await matrix.attest(host.origin);
    assert.equal(overall['x-nvidia-overall-att-result'], false);
    assert.ok([5001, 5008].includes(gpu['x-nvidia-error-details'].code), JSON.stringify(gpu['x-nvidia-error-details']));
    // Each source was asked again after a backoff, within the rounds the core allows.
    assert.ok(asked.rim[0] >= 2 && asked.rim[0] <= 6, JSON.stringify(asked));
    const report = await matrix.health(host.origin);
    assert.equal(report.overallStatus, 'DEGRADED');
    for (const source of report.sources) assert.equal(source.status, 'DOWN', JSON.stringify(source));
  })]);
  return cases;
}
