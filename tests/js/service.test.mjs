// The attestation service in the edge worker, in workerd: every endpoint and version, the
// error paths, an independent verification of our results (PyJWT, digests recomputed in
// Python), and the package's request builders round-tripping through the worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildAttestRequest, verifyAttestationResult, generateNonce } from '../../pkg/index.js';
import { startWorker } from './support/worker.mjs';
import { fixtureBytes, hopper, ls10 } from './support/fixtures.mjs';

let worker;
before(async () => {
  worker = await startWorker();
});
after(async () => worker?.stop());

const post = (path, body, headers = { 'content-type': 'application/json' }) =>
  fetch(`${worker.origin}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

async function jwks() {
  const response = await fetch(`${worker.origin}/.well-known/jwks.json`);
  assert.equal(response.status, 200);
  return response.json();
}

test('JWKS, health and the documentation pointer', async () => {
  const set = await jwks();
  assert.equal(set.keys.length, 1);
  assert.deepEqual(Object.keys(set.keys[0]).sort(), ['crv', 'kid', 'kty', 'x', 'y']);
  assert.equal(set.keys[0].crv, 'P-384');
  const health = await (await fetch(`${worker.origin}/health`)).json();
  assert.equal(health.overallStatus, 'UP');
  assert.match(health.rimServiceHealth.checks.localDocuments, /^\d+ documents$/);
  assert.ok(Number.parseInt(health.rimServiceHealth.checks.localDocuments, 10) >= 20);
  const root = await fetch(`${worker.origin}/`);
  assert.match(await root.json(), /\/ui\//);
});

test('a recorded real V3 request: our result verifies with our JWKS, in JS and in PyJWT', async () => {
  const body = fixtureBytes('nras/teep/v3_8gpu_success_20260629_request.json').toString('utf8');
  const nonce = JSON.parse(body).nonce;
  const response = await post('/v3/attest/gpu', body);
  assert.equal(response.status, 200);
  const result = await response.json();
  assert.equal(Object.keys(result[1]).length, 8);
  const set = await jwks();

  // Compared claim by claim below; the verdict depends on the RIMs held, so it is read, not required.
  const verified = await verifyAttestationResult(result, set, { nonce, issuer: worker.origin, allowFailedResult: true, signers: 'any' });
  assert.equal(verified.devices.length, 8);
  const recorded = JSON.parse(fixtureBytes('nras/teep/v3_8gpu_success_20260629_response.json'));
  for (const device of verified.devices) {
    const real = payload(recorded[1][device.label]);
    for (const claim of ['ueid', 'hwmodel', 'eat_nonce', 'x-nvidia-gpu-driver-version', 'x-nvidia-gpu-vbios-version',
      'x-nvidia-gpu-attestation-report-signature-verified', 'x-nvidia-gpu-attestation-report-nonce-match',
      'x-nvidia-gpu-attestation-report-cert-chain-validated', 'x-nvidia-gpu-arch-check']) {
      assert.deepEqual(device.payload[claim], real[claim], `${device.label} ${claim}`);
    }
  }

  const python = execFileSync('python3', ['tests/js/support/verify_result.py'], {
    input: JSON.stringify({ result, jwks: set, nonce }),
    encoding: 'utf8',
  });
  const checked = JSON.parse(python);
  assert.equal(checked.ok, true);
  assert.equal(checked.devices.length, 8);
  assert.equal(checked.overall['x-nvidia-ver'], '2.0');
});

test('LS10 with its bundled RIM: claims 3.0, every check passes today', async () => {
  const nonce = generateNonce();
  // The fixture's evidence answers a fixed nonce; the request must carry that one.
  const evidenceNonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/switch', nonce: evidenceNonce, evidence: [ls10] });
  const response = await post('/v4/attest/switch', body);
  assert.equal(response.status, 200);
  const result = await response.json();
  // The test service checks no revocation (no responder): every token says so, and a relying
  // party accepts the pass only with allowUnknownRevocation, told so by revocationRelaxed.
  const refused = await verifyAttestationResult(result, await jwks(), { nonce: evidenceNonce, signers: 'any' }).catch((e) => e);
  assert.equal(refused.code, 'ERR_REVOCATION_UNCONFIRMED');
  const verified = await verifyAttestationResult(result, await jwks(), { nonce: evidenceNonce, allowUnknownRevocation: true, signers: 'any' });
  assert.equal(verified.revocationRelaxed, true);
  const overall = verified.overall.payload;
  assert.equal(overall['x-nvidia-ver'], '3.0');
  assert.equal(overall['x-nvidia-overall-att-result'], true);
  const device = verified.devices[0].payload;
  assert.equal(device.measres, 'success');
  assert.equal(device['x-nvidia-switch-bios-rim-cert-chain']['x-nvidia-cert-status'], 'valid');
  assert.equal(device.secboot, true);
  assert.notEqual(nonce, evidenceNonce);
});

test('every attest endpoint answers a built request with the shape of its version', async () => {
  const cases = [
    ['/v1/attest/gpu', hopper, 'HOPPER'],
    ['/v2/attest/gpu', hopper, 'HOPPER'],
    ['/v3/attest/gpu', hopper, 'HOPPER'],
    ['/v4/attest/gpu', hopper, 'HOPPER'],
    ['/v2/attest/switch', ls10, undefined],
    ['/v3/attest/switch', ls10, undefined],
    ['/v4/attest/switch', ls10, undefined],
  ];
  const set = await jwks();
  for (const [endpoint, sample, arch] of cases) {
    const nonce = Buffer.from(sample.evidence.slice(4, 36)).toString('hex');
    const body = buildAttestRequest({ endpoint, arch, nonce, evidence: [sample] });
    const response = await post(endpoint, body);
    assert.equal(response.status, 200, endpoint);
    assert.equal(response.headers.get('deprecation') !== null, endpoint.startsWith('/v2/'), `${endpoint} Deprecation header`);
    const result = await response.json();
    const verified = await verifyAttestationResult(result, set, { nonce, endpoint, allowFailedResult: true, allowUnknownRevocation: true, signers: 'any' });
    const version = endpoint.startsWith('/v1/') ? verified.overall.payload['x-nvidia-ver'] : verified.overall.payload['x-nvidia-ver'];
    const expected = { 1: '1.0', 2: '1.0', 3: '2.0', 4: '3.0' }[endpoint[2]];
    assert.equal(version, expected, endpoint);
    if (!endpoint.startsWith('/v1/')) {
      const label = sample === ls10 ? 'SWITCH-0' : 'GPU-0';
      assert.deepEqual(verified.devices.map((d) => d.label), [label], endpoint);
    }
  }
});

test('error paths: 400 with the field, 404, 405 with Allow, 413, 415, preflight, HEAD', async () => {
  const bad = await post('/v4/attest/gpu', { nonce: 'short', arch: 'HOPPER', evidence_list: [] });
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), {
    code: 'ERR_REQUEST_INVALID_NONCE',
    errorCode: 4003,
    message: 'nonce must be exactly 64 hexadecimal characters, got 5',
    field: 'nonce',
    status: 400,
  });
  assert.equal(bad.headers.get('access-control-allow-origin'), '*');

  const dup = await post('/v4/attest/gpu', '{"nonce":"a","nonce":"b"}');
  assert.equal((await dup.json()).code, 'ERR_REQUEST_DUPLICATE_MEMBER');

  const missing = await fetch(`${worker.origin}/v5/attest/gpu`, { method: 'POST' });
  assert.equal(missing.status, 404);
  const wrong = await fetch(`${worker.origin}/v4/attest/gpu`);
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get('allow'), 'POST, OPTIONS');
  const big = await post('/v4/attest/gpu', 'x'.repeat(2 * 1024 * 1024 + 10));
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, 'ERR_REQUEST_TOO_LARGE');
  const form = await post('/v4/attest/gpu', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(form.status, 415);
  const preflight = await fetch(`${worker.origin}/v4/attest/gpu`, {
    method: 'OPTIONS',
    headers: { origin: 'https://example.test', 'access-control-request-method': 'POST' },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-methods'), /POST/);
  const head = await fetch(`${worker.origin}/health`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  const tampered = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [hopper] });
  // A fresh nonce that the evidence does not carry: 200, the device fails with 4010.
  const result = await (await post('/v4/attest/gpu', tampered)).json();
  const device = payload(result[1]['GPU-0']);
  assert.equal(device['x-nvidia-error-details'].code, 4010);
  assert.equal(payload(result[0][1])['x-nvidia-overall-att-result'], false);
});

test('a configured certificate chain is published as x5c; one for another key stops the service (503)', async () => {
  const generated = (name) => readFileSync(new URL(`../fixtures/generated/${name}`, import.meta.url), 'utf8');
  const chain = generated('token_signing_chain.pem');
  const signed = await startWorker({ bindings: { EDGEATTEST_SIGNING_KEY: generated('token_signing_key.pem'), EDGEATTEST_SIGNING_CERTIFICATE: chain } });
  try {
    const set = await (await fetch(`${signed.origin}/.well-known/jwks.json`)).json();
    const ders = [...chain.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => m[1].replace(/\s+/g, ''));
    assert.deepEqual(set.keys[0].x5c, ders);
    // The leaf's key is the published key (checked independently with node:crypto).
    const leaf = new X509Certificate(Buffer.from(ders[0], 'base64'));
    const jwk = leaf.publicKey.export({ format: 'jwk' });
    assert.equal(jwk.x, set.keys[0].x);
    assert.equal(jwk.y, set.keys[0].y);
  } finally {
    await signed.stop();
  }
  const mismatched = await startWorker({ bindings: { EDGEATTEST_SIGNING_CERTIFICATE: chain } });
  try {
    const response = await fetch(`${mismatched.origin}/health`);
    assert.equal(response.status, 503);
    assert.equal((await response.json()).code, 'ERR_JWKS_INVALID');
  } finally {
    await mismatched.stop();
  }
});

test('without EDGEATTEST_ISSUER each token names its own request origin, never an earlier one', async () => {
  const { request: httpRequest } = await import('node:http');
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const body = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] }));
  const { port } = new URL(worker.origin);
  const issuedTo = (host) => new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/v4/attest/switch', method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const result = JSON.parse(Buffer.concat(chunks));
        resolve(payload(result[0][1]).iss);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(await issuedTo('first.example'), 'http://first.example');
  assert.equal(await issuedTo('second.example:8443'), 'http://second.example:8443');
  assert.equal(await issuedTo(new URL(worker.origin).host), worker.origin);
});
