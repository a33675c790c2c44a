// The attestation service as a WebAssembly Component (`wasi:http` incoming handler,
// target/component/edgeattest-service.wasm, built by pkg-config/build-component.sh)
// in a real component runtime: jco-transpiled and served by preview2-shim's HTTPServer in this
// Node process (tests/js/support/component-service.mjs). Every answer is compared with the
// edge worker's in workerd, configured alike and run in the same test: the recorded NRAS
// exchanges (RIMs fetched from a loopback RIM service through wasi:http/outgoing-handler, so
// that measurements match), OCSP through a loopback responder and its cache, the error
// answers, a configuration error, and sources that stall or send too much.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildAttestRequest, verifyAttestationResult } from '../../pkg/index.js';
import { startServiceComponent } from './support/component-service.mjs';
import { startFixtureRimService } from './support/rim-fixtures.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';
import { startWorker } from './support/worker.mjs';
import { settledHealth } from '../../pkg-config/health-banner.mjs';
import { fixtureText, ls10 } from './support/fixtures.mjs';

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
/**
 * Differ by design between two hosts: the issuer (each host's origin), the token id, and so
 * the overall token's digests of the device tokens (their algorithm is kept).
 */
function strip(token) {
  const claims = { ...payload(token), iss: undefined, jti: undefined };
  if (claims.submods) {
    claims.submods = Object.fromEntries(Object.entries(claims.submods).map(([label, [kind, [alg]]]) => [label, [kind, alg]]));
  }
  return claims;
}
/** The headers every service answer carries, and those of particular answers. */
const HEADERS = ['content-type', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'cache-control', 'allow', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'www-authenticate'];
const RECORDINGS = ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520'];

let rims;
const hosts = [];
before(async () => {
  rims = await startFixtureRimService();
});
after(async () => {
  await Promise.all(hosts.map((host) => host.stop()));
  await rims?.close();
});

/**
 * The worker and the component with the same settings: `env` over the tests' defaults (a
 * fresh key each, the bundled RIMs off, the loopback RIM service, OCSP off).
 */
async function pair(env = {}) {
  // The worker's software backend: a component verifies and signs in the core too.
  const all = { EDGEATTEST_CRYPTO: 'software', EDGEATTEST_BUNDLED_RIMS: 'off', EDGEATTEST_RIM_SERVICE_URL: rims.url, ...env };
  // Not settled: the component probes no source, so the worker's /health is compared before
  // its own probe has ended (the first request starts it; its answer comes after).
  const worker = await startWorker({ bindings: all, settle: false });
  const component = await startServiceComponent({ ...all, EDGEATTEST_BUNDLED_RIMS: undefined });
  hosts.push(worker, component);
  return { worker, component };
}

const pairs = new Map();
/** One pair per configuration, shared by the tests that use the same one. */
async function sharedPair(env) {
  const key = JSON.stringify(env);
  if (!pairs.has(key)) pairs.set(key, pair(env));
  return pairs.get(key);
}

/** One request; the answer's status, headers and body text. */
async function send(origin, path, { method = 'POST', headers = { 'content-type': 'application/json' }, body } = {}) {
  const response = await fetch(`${origin}${path}`, { method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Sends the same request to both hosts, checks status and headers agree, returns both. */
async function both({ worker, component }, path, init, label = path) {
  const w = await send(worker.origin, path, init);
  const c = await send(component.origin, path, init);
  assert.equal(c.status, w.status, `${label}: status; worker ${w.text.slice(0, 200)} / component ${c.text.slice(0, 200)}`);
  for (const name of HEADERS) assert.equal(c.headers.get(name), w.headers.get(name), `${label}: header ${name}`);
  return { w, c };
}

/** Both detached EATs carry the same claims, issuer and token ids aside (and `ignore`). */
function sameClaims(w, c, label, ignore = []) {
  const [mine, theirs] = [JSON.parse(c.text), JSON.parse(w.text)];
  const claims = (token) => {
    const all = strip(token);
    for (const name of ignore) delete all[name];
    return all;
  };
  assert.deepEqual(claims(mine[0][1]), claims(theirs[0][1]), `${label}: overall claims`);
  assert.deepEqual(Object.keys(mine[1]).sort(), Object.keys(theirs[1]).sort(), `${label}: devices`);
  for (const [label2, token] of Object.entries(theirs[1])) {
    assert.deepEqual(claims(mine[1][label2]), claims(token), `${label} ${label2}`);
  }
  return mine;
}

/** /health of both hosts: the same body (the key id aside), sources' states included. */
async function sameHealth(hosts2, label) {
  const { w, c } = await both(hosts2, '/health', { method: 'GET', headers: {} }, `${label}: health`);
  const noKid = (text) => {
    const body = JSON.parse(text);
    delete body.ocspServiceHealth.service.kid;
    return body;
  };
  assert.deepEqual(noKid(c.text), noKid(w.text), `${label}: health`);
  return JSON.parse(c.text);
}

const devicesOf = (result) => Object.values(result[1]).map(payload);

for (const name of RECORDINGS) {
  test(`replay ${name}: the same claims as the worker, RIMs fetched through wasi:http`, async (t) => {
    const recorded = JSON.parse(fixtureText(`nras/teep/${name}_response.json`));
    const time = payload(recorded[0][1]).iat;
    const body = fixtureText(`nras/teep/${name}_request.json`);
    const hosts2 = await sharedPair({ EDGEATTEST_FIXED_TIME: String(time) });
    const asked = rims.asked.length;
    const { w, c } = await both(hosts2, '/v3/attest/gpu', { body }, name);
    assert.equal(c.status, 200, c.text);
    const result = sameClaims(w, c, name);
    if (!name.includes('nonce_mismatch')) {
      // Driver RIMs of these recordings are not among the fixtures: asked, answered 404, and
      // so reported by both hosts' /health.
      assert.ok(rims.asked.length > asked, 'RIMs were asked from the loopback RIM service');
      assert.equal((await sameHealth(hosts2, name)).rimServiceHealth.checks.rimServiceLastError, 'HTTP 404');
    }
    const devices = devicesOf(result);
    assert.equal(devices.length, Object.keys(recorded[1]).length);
    // The component's token verifies with its own JWKS at the recorded time, nonce bound
    // (unpinned: the component service publishes no x5c chain here).
    const jwks = await (await fetch(`${hosts2.component.origin}/.well-known/jwks.json`)).json();
    const nonce = JSON.parse(body).nonce;
    const verified = await verifyAttestationResult(result, jwks, { nonce, now: time, allowFailedResult: true, signers: 'any' });
    assert.equal(verified.devices.length, devices.length);
    // The verdicts of the real service where they rest on RIMs the loopback service has.
    const recordedDevices = Object.values(recorded[1]).map(payload);
    const held = devices.filter((d) => d['x-nvidia-gpu-driver-rim-fetched'] && d['x-nvidia-gpu-vbios-rim-fetched']);
    t.diagnostic(`${held.length} of ${devices.length} devices with both RIMs fetched`);
    if (name.includes('nonce_mismatch')) {
      for (const d of devices) assert.equal(d['x-nvidia-error-details'].code, 4010);
    } else {
      devices.forEach((d, i) => {
        if (held.includes(d)) assert.equal(d.measres, recordedDevices[i].measres, `GPU-${i} measres`);
      });
    }
  });
}

test('the LS10 switch: its RIM fetched by the component and measured as by the worker (measres success)', async () => {
  const hosts2 = await sharedPair({ EDGEATTEST_FIXED_TIME: String(Date.parse('2026-06-01T00:00:00Z') / 1000) });
  const { w, c } = await both(hosts2, '/v4/attest/switch', { body: switchBody() }, 'LS10');
  const device = devicesOf(sameClaims(w, c, 'LS10'))[0];
  assert.equal(device['x-nvidia-switch-bios-rim-fetched'], true);
  assert.equal(device.measres, 'success');
  assert.equal(payload(JSON.parse(c.text)[0][1])['x-nvidia-overall-att-result'], true);
  // No EDGEATTEST_ISSUER: each host names the origin the request was sent to.
  assert.equal(payload(JSON.parse(c.text)[0][1]).iss, hosts2.component.origin);
  assert.equal(payload(JSON.parse(w.text)[0][1]).iss, hosts2.worker.origin);
});

test('health, JWKS, preflight, HEAD and every error answer: the same status, code, body and headers', async () => {
  const hosts2 = await sharedPair({});
  await sameHealth(hosts2, 'fresh');
  const health = await send(hosts2.component.origin, '/health', { method: 'GET', headers: {} });
  assert.equal(health.headers.get('content-length'), String(Buffer.byteLength(health.text)));
  const jwks = await both(hosts2, '/.well-known/jwks.json', { method: 'GET', headers: {} });
  const shape = (text) => JSON.parse(text).keys.map(({ kty, crv, alg, use, x5c }) => ({ kty, crv, alg, use, x5c }));
  assert.deepEqual(shape(jwks.c.text), shape(jwks.w.text));
  const head = await both(hosts2, '/health', { method: 'HEAD', headers: {} });
  assert.equal(head.c.text, '');
  await both(hosts2, '/v3/attest/gpu', { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } });
  const big = JSON.stringify({ nonce: 'a'.repeat(64), evidence_list: [], padding: 'x'.repeat(3 * 1024 * 1024) });
  const cases = [
    ['unknown path', '/v3/attest/nothing', { method: 'GET', headers: {} }],
    ['wrong method', '/v3/attest/gpu', { method: 'DELETE', headers: {} }],
    ['wrong media type', '/v3/attest/gpu', { headers: { 'content-type': 'text/plain' }, body: '{}' }],
    ['not JSON', '/v3/attest/gpu', { body: '{"nonce":' }],
    ['not an attest request', '/v3/attest/gpu', { body: '{"nonce":"zz"}' }],
    ['empty body', '/v4/attest/gpu', { body: '' }],
    ['body over the limit', '/v3/attest/gpu', { body: big }],
    ['claims version refused', '/v4/attest/gpu', { headers: { 'content-type': 'application/json', 'x-nvidia-claims-version': '9.9' }, body: '{}' }],
  ];
  for (const [label, path, init] of cases) {
    const { w, c } = await both(hosts2, path, init, label);
    assert.ok(c.status >= 400, `${label}: ${c.status}`);
    const [mine, theirs] = [JSON.parse(c.text), JSON.parse(w.text)];
    assert.deepEqual(mine, theirs, label);
    assert.match(mine.code, /^ERR_/, label);
  }
});

test('configuration: no key, a bad clock, backend, switch or RIM list: 503 with the worker\'s code and message (one reading, the core\'s)', async () => {
  for (const env of [{ EDGEATTEST_SIGNING_KEY: '' }, { EDGEATTEST_FIXED_TIME: 'yesterday' }, { EDGEATTEST_CRYPTO: 'hsm' }, { EDGEATTEST_SIGNING_KEY: 'not a key' }, { EDGEATTEST_OCSP_TIMEOUT_MS: '0' }, { EDGEATTEST_FETCH_CACHE: 'maybe' }, { EDGEATTEST_RIM_DOCUMENTS: 'not json' }]) {
    const { worker, component } = await pair(env);
    const label = JSON.stringify(env);
    const w = await send(worker.origin, '/health', { method: 'GET', headers: {} });
    const c = await send(component.origin, '/health', { method: 'GET', headers: {} });
    assert.equal(c.status, 503, `${label}: ${c.text}`);
    assert.equal(c.status, w.status, label);
    const [mine, theirs] = [JSON.parse(c.text), JSON.parse(w.text)];
    assert.equal(mine.code, theirs.code, label);
    assert.match(mine.code, /^ERR_(CONFIG|NO_SIGNING_KEY|KEY_.*|JWK_.*|PEM.*)$/, label);
    // Each host adds how to set a key there; the rest is the core's text.
    if (mine.code !== 'ERR_NO_SIGNING_KEY') assert.equal(mine.message, theirs.message, label);
    for (const name of HEADERS) assert.equal(c.headers.get(name), w.headers.get(name), `${label}: ${name}`);
    await Promise.all([worker.stop(), component.stop()]);
    hosts.splice(hosts.indexOf(worker), 2);
  }
});

/** An LS10 attest request (its nonce the transcript's). */
function switchBody() {
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  return JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, claimsVersion: '3.0', evidence: [ls10] }));
}

test('OCSP through a loopback responder: the same verdicts as the worker, answers cached per instance', async (t) => {
  const responder = await startOcspResponder();
  const testRims = await startRimService();
  t.after(async () => {
    await responder.close();
    await testRims.close();
  });
  const hosts2 = await pair({
    EDGEATTEST_OCSP_URL: responder.url,
    EDGEATTEST_RIM_SERVICE_URL: testRims.url,
    EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
    EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
    EDGEATTEST_OCSP_TIMEOUT_MS: '1500',
  });
  // The worker probes its sources (a HEAD each; the component probes none): over before counting.
  await settledHealth(() => fetch(`${hosts2.worker.origin}/health`), { timeoutMs: 8000 });
  const gpuBody = (device) => {
    const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
    return JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' }));
  };
  // The real clock (openssl signs its answers now): the time claims may differ by a second.
  const TIMES = ['iat', 'nbf', 'exp'];
  const served = responder.served();
  const good = await both(hosts2, '/v4/attest/gpu', { body: gpuBody(await testDevice('good')) }, 'good');
  const gpu = devicesOf(sameClaims(good.w, good.c, 'good', TIMES))[0];
  assert.equal(gpu['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
  assert.equal(gpu['x-nvidia-gpu-driver-rim-fetched'], true);
  assert.equal(responder.served() - served, 12, 'six answers for each host');
  const again = await both(hosts2, '/v4/attest/gpu', { body: gpuBody(await testDevice('good')) }, 'good again');
  sameClaims(again.w, again.c, 'good again', TIMES);
  assert.equal(responder.served() - served, 12, 'the second attestation asks the responder nothing');
  const revoked = await both(hosts2, '/v4/attest/gpu', { body: gpuBody(await testDevice('revoked')) }, 'revoked');
  assert.equal(devicesOf(sameClaims(revoked.w, revoked.c, 'revoked', TIMES))[0]['x-nvidia-error-details'].code, 5002);
  const ocspHealth = (await sameHealth(hosts2, 'ocsp')).ocspServiceHealth;
  assert.equal(ocspHealth.overallStatus, 'UP');
  assert.ok(ocspHealth.service.cachedResponses > 0, 'verified answers are counted as cached');
  // A responder that never answers: each host gives up at EDGEATTEST_OCSP_TIMEOUT_MS alike.
  responder.setMode('slow');
  const slow = await both(hosts2, '/v4/attest/gpu', { body: gpuBody(await testDevice('unknown')) }, 'slow responder');
  const unchecked = devicesOf(sameClaims(slow.w, slow.c, 'slow responder', TIMES))[0];
  assert.notEqual(unchecked['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
  const health = await sameHealth(hosts2, 'slow responder');
  assert.equal(health.ocspServiceHealth.service.lastError, 'timeout');
});

test('a RIM service that sends more than the core reads: the same verdict as the worker, too-large', async () => {
  const hosts2 = await pair({ EDGEATTEST_FIXED_TIME: String(Date.parse('2026-06-01T00:00:00Z') / 1000) });
  rims.setMode('huge');
  try {
    const { w, c } = await both(hosts2, '/v4/attest/switch', { body: switchBody() }, 'huge RIM');
    const device = devicesOf(sameClaims(w, c, 'huge RIM'))[0];
    assert.equal(device['x-nvidia-switch-bios-rim-fetched'], false);
    assert.equal(device.measres, 'fail');
    const health = await sameHealth(hosts2, 'huge RIM');
    assert.equal(health.rimServiceHealth.checks.rimServiceLastError, 'too-large');
  } finally {
    rims.setMode('normal');
  }
});
