// The fetching host under the conditions the single-request tests (service-ocsp) do not
// reach: concurrent attestations sharing each fetch (a shared OCSP answer echoes the nonce
// of the request that fetched it), /health counting what is cached, a new worker isolate
// answered from the Cache API, a source streaming more than the 2 MiB cap without a
// content-length, and a malformed timeout binding.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { AttestationService, buildAttestRequest, createFetchCache, handleRequest } from '../../pkg/service/index.js';
import { freshSigningKeyPem, startWorker } from './support/worker.mjs';
import { workerOptions } from '../../pkg-config/worker-options.mjs';
import { settledHealth } from '../../pkg-config/health-banner.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const CHAINS = ['x-nvidia-gpu-attestation-report-cert-chain', 'x-nvidia-gpu-driver-rim-cert-chain', 'x-nvidia-gpu-vbios-rim-cert-chain'];

let responder;
let rims;
let good;
before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  good = await testDevice('good');
});
after(async () => {
  await responder?.close();
  await rims?.close();
});

function attestBody() {
  const nonce = Buffer.from(good.evidence.slice(4, 36)).toString('hex');
  return JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [good], claimsVersion: '3.0' }));
}

function claimsOf(result) {
  return { overall: payload(result[0][1]), gpu: payload(result[1]['GPU-0']) };
}

function assertGood({ overall, gpu }, label) {
  assert.equal(overall['x-nvidia-overall-att-result'], true, `${label}: ${JSON.stringify(gpu['x-nvidia-error-details'])}`);
  for (const chain of CHAINS) assert.equal(gpu[chain]['x-nvidia-cert-ocsp-status'], 'good', `${label}: ${chain}`);
}

async function service(options = {}) {
  return new AttestationService({
    signingKey: await freshSigningKeyPem(),
    issuer: 'https://edgeattest.test',
    trustAnchors: pkiText('root.pem'),
    rimTrustAnchors: pkiText('rim_root.pem'),
    ocspUrl: responder.url,
    rimServiceUrl: rims.url,
    ...options,
  });
}

async function viaPackage(svc, options) {
  const request = { method: 'POST', path: '/v4/attest/gpu', headers: { 'content-type': 'application/json' }, body: attestBody() };
  const response = await handleRequest(svc, request, options);
  assert.equal(response.status, 200, Buffer.from(response.body).toString());
  return claimsOf(JSON.parse(Buffer.from(response.body)));
}

async function workerWith(bindings = {}) {
  const all = {
    EDGEATTEST_OCSP_URL: responder.url,
    EDGEATTEST_RIM_SERVICE_URL: rims.url,
    EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
    EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
    ...bindings,
  };
  const started = await startWorker({ bindings: all });
  let origin = started.origin;
  return {
    stop: () => started.stop(),
    async attest() {
      const response = await fetch(`${origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: attestBody() });
      assert.equal(response.status, 200);
      return claimsOf(await response.json());
    },
    health: async () => (await fetch(`${origin}/health`)).json(),
    origin: () => origin,
    /** The same worker in a new isolate: its memory gone, the location's Cache API kept. */
    async restart() {
      await started.mf.setOptions(workerOptions({ host: '127.0.0.1', port: 0, bindings: { EDGEATTEST_SIGNING_KEY: await freshSigningKeyPem(), ...all } }));
      origin = (await started.mf.ready).origin;
    },
  };
}

test('handleRequest: concurrent attestations share each fetch, and every one is good', async () => {
  responder.setMode('normal');
  const svc = await service();
  let before = responder.served();
  assertGood(await viaPackage(svc, { cache: createFetchCache() }), 'alone');
  const alone = responder.served() - before;
  // The same service again: its memo answers everything, nothing is fetched.
  before = responder.served();
  assertGood(await viaPackage(svc, { cache: createFetchCache() }), 'warm');
  assert.equal(responder.served() - before, 0, 'a warm service fetches nothing');
  svc.free();
  // A new service with separate caches: nothing is answered from a cache or a memo, only
  // from the fetches in flight.
  const fresh = await service();
  before = responder.served();
  const results = await Promise.all([1, 2, 3, 4].map(() => viaPackage(fresh, { cache: createFetchCache() })));
  results.forEach((claims, i) => assertGood(claims, `request ${i}`));
  assert.equal(responder.served() - before, alone, 'one fetch per certificate for four requests');
  fresh.free();
});

test('worker: concurrent attestations in one isolate share each fetch, and every one is good', async () => {
  responder.setMode('normal');
  const worker = await workerWith();
  try {
    const before = responder.served();
    const results = await Promise.all([1, 2, 3].map(() => worker.attest()));
    results.forEach((claims, i) => assertGood(claims, `request ${i}`));
    assert.equal(responder.served() - before, 6, 'BROM, ICA, Identity; RIM signer, L3, CA: once each');
    // /health counts what the isolate holds.
    const health = await worker.health();
    assert.equal(health.ocspServiceHealth.service.cachedResponses, 6, JSON.stringify(health.ocspServiceHealth));
    assert.equal(health.rimServiceHealth.checks.cachedDocuments, '2 documents');
  } finally {
    await worker.stop();
  }
});

test('worker: a new isolate is answered from the Cache API, asking no source', async () => {
  responder.setMode('normal');
  const worker = await workerWith();
  try {
    assertGood(await worker.attest(), 'first isolate');
    await worker.restart();
    // A new isolate probes its sources (one HEAD each, from its first request on) and, beyond
    // that, asks them nothing: the answers come from the Cache API.
    const probed = await settledHealth(() => fetch(`${worker.origin()}/health`), { timeoutMs: 8000 });
    assert.equal(probed.health.network, 'ONLINE');
    assert.equal(probed.health.ocspServiceHealth.service.cachedResponses, 0, 'a new isolate: its memory is empty');
    const [ocsp, rim] = [responder.served(), rims.served()];
    assertGood(await worker.attest(), 'new isolate');
    assert.equal(responder.served(), ocsp, 'the OCSP answers came from the Cache API');
    assert.equal(rims.served(), rim, 'the RIM envelopes too');
  } finally {
    await worker.stop();
  }
});

test('handleRequest: a source streaming past the 2 MiB cap without a content-length is too large (5001), and not read to its end', async () => {
  let sent = 0;
  const flood = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/ocsp-response' }); // chunked: no length
    const chunk = Buffer.alloc(64 * 1024, 0x30);
    const pump = () => {
      while (sent < 64 * 1024 * 1024 && !response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) return response.once('drain', pump);
      }
      response.end();
    };
    pump();
  });
  await new Promise((resolve) => flood.listen(0, '127.0.0.1', resolve));
  try {
    const svc = await service({ ocspUrl: `http://127.0.0.1:${flood.address().port}/` });
    const { gpu } = await viaPackage(svc, { cache: createFetchCache() });
    assert.equal(gpu['x-nvidia-error-details'].code, 5001);
    assert.match(gpu['x-nvidia-error-details'].description, /too large|TooLarge|2 MiB|ERR_OCSP_UNAVAILABLE/i);
    assert.ok(sent < 32 * 1024 * 1024, `the host stopped reading (${sent} bytes sent)`);
    svc.free();
  } finally {
    flood.closeAllConnections?.();
    await new Promise((resolve) => flood.close(resolve));
  }
});

test('worker: a malformed EDGEATTEST_OCSP_TIMEOUT_MS is a configuration error, not a silent default', async () => {
  for (const value of ['5s', '0', '60000']) {
    const worker = await startWorker({ bindings: { EDGEATTEST_OCSP_TIMEOUT_MS: value } });
    try {
      const response = await fetch(`${worker.origin}/health`);
      assert.equal(response.status, 503, value);
      const body = await response.json();
      assert.equal(body.code, 'ERR_CONFIG', value);
      assert.match(body.message, /EDGEATTEST_OCSP_TIMEOUT_MS/);
    } finally {
      await worker.stop();
    }
  }
});
