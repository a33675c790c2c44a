// Revocation and RIM fetching live, over HTTP on loopback (issue 16): `openssl ocsp` answers
// as the test PKI's responder and a stand-in serves the test RIMs as NVIDIA's RIM service
// does (tests/js/support/ocsp-responder.mjs). Through the worker in workerd and through the
// package's handleRequest in Node; test devices are the real Hopper 550.90.07 transcript
// re-signed with the test PKI's leaves. The real clock: openssl signs its answers now.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AttestationService, buildAttestRequest, createFetchCache, handleRequest } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { closedPort } from './support/flaky-source.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const HOLD_WARNING = /certificateHold/;
const UNCHECKED = /revocation \(OCSP\) was not checked/i;

let responder;
let rims;
let worker;
const devices = {};


before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  for (const stem of ['good', 'revoked', 'unknown', 'hold']) devices[stem] = await testDevice(stem);
  worker = await startWorker({
    bindings: {
      EDGEATTEST_OCSP_URL: responder.url,
      EDGEATTEST_RIM_SERVICE_URL: rims.url,
      EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
      EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
      EDGEATTEST_OCSP_TIMEOUT_MS: '1500',
    },
  });
});
after(async () => {
  await worker?.stop();
  await responder?.close();
  await rims?.close();
});

function body(device) {
  const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
  return buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
}

/** One attestation through the worker; the overall and device claims. */
async function viaWorker(device, headers = {}) {
  const response = await fetch(`${worker.origin}/v4/attest/gpu`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body(device)),
  });
  assert.equal(response.status, 200);
  const result = await response.json();
  return { overall: payload(result[0][1]), gpu: payload(result[1]['GPU-0']) };
}

const CHAINS = ['x-nvidia-gpu-attestation-report-cert-chain', 'x-nvidia-gpu-driver-rim-cert-chain', 'x-nvidia-gpu-vbios-rim-cert-chain'];

test('worker: a good device passes with every chain good, warned only that it is not NVIDIA\'s; the answers are then cached', async () => {
  responder.setMode('normal');
  const before = responder.served();
  const { overall, gpu } = await viaWorker(devices.good);
  assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(gpu));
  for (const chain of CHAINS) assert.equal(gpu[chain]['x-nvidia-cert-ocsp-status'], 'good', chain);
  // The one warning: the device's root is the test PKI's, not NVIDIA's.
  assert.match(gpu['x-nvidia-attestation-warning'], /^The device certificate chain ends at O=Test OCSP PKI,CN=Test OCSP Device Identity CA, a root configured on this service, not at NVIDIA's Device Identity CA: this is not an attestation of an NVIDIA device$/);
  // Device chain (BROM, ICA, Identity) and RIM chain (signer, L3, CA): six answers.
  assert.equal(responder.served() - before, 6);
  const again = await viaWorker(devices.good);
  assert.equal(again.overall['x-nvidia-overall-att-result'], true);
  assert.equal(responder.served() - before, 6, 'the second attestation asks the responder nothing');
  const health = await (await fetch(`${worker.origin}/health`)).json();
  assert.equal(health.ocspServiceHealth.overallStatus, 'UP');
  assert.equal(health.ocspServiceHealth.service.responder, responder.url);
  assert.equal(health.rimServiceHealth.checks.rimService, 'UP');
});

test('worker: revoked (5002 with its reason), unknown (5003), hold refused without the header and accepted with it', async () => {
  responder.setMode('normal');
  const revoked = (await viaWorker(devices.revoked)).gpu;
  const chain = revoked['x-nvidia-gpu-attestation-report-cert-chain'];
  assert.deepEqual(
    [chain['x-nvidia-cert-status'], chain['x-nvidia-cert-ocsp-status'], chain['x-nvidia-cert-revocation-reason']],
    ['revoked', 'revoked', 'keyCompromise'],
  );
  assert.equal(revoked['x-nvidia-error-details'].code, 5002);
  const unknown = (await viaWorker(devices.unknown)).gpu;
  assert.equal(unknown['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'unknown');
  assert.equal(unknown['x-nvidia-error-details'].code, 5003);
  const held = (await viaWorker(devices.hold)).gpu;
  assert.equal(held['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-revocation-reason'], 'certificateHold');
  assert.equal(held['x-nvidia-error-details'].code, 5002);
  const allowed = await viaWorker(devices.hold, { 'X-NVIDIA-OCSP-ALLOW-CERT-HOLD': 'true' });
  assert.equal(allowed.overall['x-nvidia-overall-att-result'], true);
  assert.equal(allowed.gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
  assert.match(allowed.gpu['x-nvidia-attestation-warning'], HOLD_WARNING);
});

/** handleRequest in Node against the loopback sources, with a fresh cache. */
async function viaPackage(device, { ocspUrl = responder.url, ocspTimeoutMs = 1500, headers = {}, cache = createFetchCache() } = {}) {
  const service = new AttestationService({
    signingKey: pkiText('leaf_good_key.pem'), issuer: 'https://attest.example',
    trustAnchors: pkiText('root.pem'), rimTrustAnchors: pkiText('rim_root.pem'),
    ocspUrl, rimServiceUrl: rims.url,
  });
  try {
    const response = await handleRequest(service, {
      method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body(device)),
    }, { backend: 'webcrypto', ocspTimeoutMs, cache });
    assert.equal(response.status, 200);
    const result = JSON.parse(Buffer.from(response.body));
    const health = JSON.parse(Buffer.from(service.handle({ method: 'GET', path: '/health' }, Math.floor(Date.now() / 1000)).body));
    return { overall: payload(result[0][1]), gpu: payload(result[1]['GPU-0']), health };
  } finally {
    service.free();
  }
}

test('handleRequest: a good device passes end to end; a misbehaving responder fails it with 5001, never a pass', async () => {
  responder.setMode('normal');
  const good = await viaPackage(devices.good);
  assert.equal(good.overall['x-nvidia-overall-att-result'], true, JSON.stringify(good.gpu));
  for (const chain of CHAINS) assert.equal(good.gpu[chain]['x-nvidia-cert-ocsp-status'], 'good', chain);
  for (const mode of ['rogue', 'garbage', 'http500', 'replay']) {
    responder.setMode(mode);
    const { overall, gpu } = await viaPackage(devices.good);
    assert.equal(overall['x-nvidia-overall-att-result'], false, mode);
    assert.equal(gpu['x-nvidia-error-details'].code, 5001, `${mode}: ${JSON.stringify(gpu['x-nvidia-error-details'])}`);
    assert.equal(gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'unknown', mode);
  }
  responder.setMode('normal');
});

test('handleRequest: a responder down or too slow is 5001 and health says DOWN; off leaves revocation unchecked, with the warning', async () => {
  const down = await viaPackage(devices.good, { ocspUrl: `http://127.0.0.1:${await closedPort()}/` });
  assert.equal(down.gpu['x-nvidia-error-details'].code, 5001);
  assert.match(down.gpu['x-nvidia-error-details'].description, /ERR_OCSP_UNAVAILABLE/);
  assert.equal(down.health.ocspServiceHealth.overallStatus, 'DOWN');
  assert.equal(down.health.overallStatus, 'DEGRADED');

  responder.setMode('slow');
  const started = Date.now();
  const slow = await viaPackage(devices.good, { ocspTimeoutMs: 300 });
  assert.ok(Date.now() - started < 5000, 'the timeout bounds the wait');
  assert.equal(slow.gpu['x-nvidia-error-details'].code, 5001);
  assert.match(slow.health.ocspServiceHealth.service.lastError, /timeout/);
  responder.setMode('normal');

  const off = await viaPackage(devices.good, { ocspUrl: null });
  assert.equal(off.gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'unknown');
  assert.match(off.gpu['x-nvidia-attestation-warning'], UNCHECKED);
  assert.equal(off.health.ocspServiceHealth.overallStatus, 'NOT_CONFIGURED');
});

test('handleRequest: a shared cache answers the second attestation without the responder', async () => {
  responder.setMode('normal');
  const cache = createFetchCache();
  const before = responder.served();
  await viaPackage(devices.good, { cache });
  const asked = responder.served() - before;
  assert.equal(asked, 6);
  const again = await viaPackage(devices.good, { cache });
  assert.equal(again.overall['x-nvidia-overall-att-result'], true);
  assert.equal(responder.served() - before, asked);
  assert.ok(cache.size >= 8, `answers and RIM envelopes cached: ${cache.size}`);
});
