// The service component fetches as the worker does (tests/js/fetch-resilience.test.mjs): the
// same core decides each attempt (`FetchAttempts`), and its `wasi:http` host only fetches,
// waits and answers. On loopback stand-ins in front of the test PKI's responder and RIM
// service: the first source down, answering garbage or 5xx, the mirror fine; every source
// down; the breaker. Each case asserts the claims, /health and the fetches of each source.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildAttestRequest } from '../../pkg/index.js';
import { startServiceComponent } from './support/component-service.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { startSourcePairs } from './support/flaky-source.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

let responder;
let rims;
let device;
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

const modes = (first, mirror) => sources.modes(first, mirror);

const start = () => startServiceComponent({
  ...sources.bindings,
  EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
  EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
  EDGEATTEST_OCSP_TIMEOUT_MS: '1500',
  EDGEATTEST_FETCH_CACHE: 'off',
});

async function attest(host) {
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
  const response = await fetch(`${host.origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  const result = await response.json();
  return { overall: payload(result[0][1]), gpu: payload(result[1]['GPU-0']), asked: sources.asked() };
}
const health = async (host) => (await fetch(`${host.origin}/health`)).json();
const sourceOf = (report, kind, stand) => sources.sourceOf(report, kind, stand);

for (const fault of ['down', 'garbage', 'http503']) {
  test(`component: the first source ${fault}, the mirror fine`, async () => {
    modes(fault);
    const host = await start();
    try {
      const { overall, gpu, asked } = await attest(host);
      assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(gpu['x-nvidia-error-details']));
      assert.equal(gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
      assert.doesNotMatch(gpu['x-nvidia-attestation-warning'], /kept|valid until/);
      assert.equal(asked.rim[1], 2, JSON.stringify(asked));
      assert.ok(asked.ocsp[0] >= 1 && asked.ocsp[1] >= 1, JSON.stringify(asked));
      const report = await health(host);
      assert.equal(sourceOf(report, 'ocsp', ocsp[0]).status, 'DOWN');
      assert.equal(sourceOf(report, 'ocsp', ocsp[0]).failures, asked.ocsp[0]);
      assert.equal(sourceOf(report, 'rim', rim[1]).status, 'UP');
    } finally {
      await host.stop();
    }
  });
}

test('component: the breaker skips a dead first source in the next attestation', async () => {
  modes('down');
  const host = await start();
  try {
    await attest(host);
    const dead = sourceOf(await health(host), 'ocsp', ocsp[0]);
    assert.equal(dead.breaker, 'open', JSON.stringify(dead));
    modes('down');
    const second = await attest(host);
    assert.equal(second.overall['x-nvidia-overall-att-result'], true);
    assert.equal(second.asked.ocsp[0], 0, JSON.stringify(second.asked));
  } finally {
    await host.stop();
  }
});

test('component: every source down, the device fails; the sources were retried within their rounds', async () => {
  modes('down', 'down');
  const host = await start();
  try {
    const { overall, gpu, asked } = await attest(host);
    assert.equal(overall['x-nvidia-overall-att-result'], false);
    assert.ok([5001, 5008].includes(gpu['x-nvidia-error-details'].code));
    assert.ok(asked.rim[0] >= 2 && asked.rim[0] <= 6, JSON.stringify(asked));
    const report = await health(host);
    for (const source of report.sources) assert.equal(source.status, 'DOWN', JSON.stringify(source));
  } finally {
    await host.stop();
  }
});
