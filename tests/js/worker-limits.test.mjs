// The workers take the core's limits, error answers and credential reading from the package
// (issue 18: serviceLimits, errorResponse, bearerToken in src/wasm/limits.rs), not copies:
// checked against the running worker in workerd at the core's limits and one byte past them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { bearerToken, createFetchCache, devKeySet, errorResponse, serviceLimits } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';

const limits = serviceLimits();
let worker;
let relay;
let responder;
let answerBytes = 0;

before(async () => {
  // An OCSP responder on loopback that answers `answerBytes` bytes.
  responder = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/ocsp-response');
      res.end(Buffer.alloc(answerBytes, 0x30));
    });
  });
  await new Promise((resolve) => responder.listen(0, '127.0.0.1', resolve));
  worker = await startWorker({ kvNamespaces: ['EDGEATTEST_API_KEYS_KV'] });
  relay = await startWorker({ bindings: { EDGEATTEST_OCSP_URL: `http://127.0.0.1:${responder.address().port}/` } });
});

after(async () => {
  await worker?.stop();
  await relay?.stop();
  await new Promise((resolve) => responder?.close(resolve));
});

/** The status and the parsed body, the body always read. */
async function send(base, path, init) {
  const response = await fetch(`${base.origin}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
}

test('serviceLimits: the core\'s limits as a plain object', () => {
  assert.equal(Object.getPrototypeOf(limits), Object.prototype);
  for (const [name, value] of Object.entries(limits)) assert.ok(Number.isSafeInteger(value) && value > 0, name);
  // MAX_BODY_BYTES (src/attest/validate.rs), MAX_FETCHED_BYTES, MAX_RESPONSE_LEN, MAX_AUTHORIZATION_LEN;
  // the fetch step's RIM_TIMEOUT_MS, DEFAULT_OCSP_TIMEOUT_MS, FETCH_CONCURRENCY, RIM_CACHE_SECONDS,
  // RIM_MISS_SECONDS, RIM_KEEP_SECONDS and FETCH_CACHE_ENTRIES (src/service/fetch.rs); the source probe's
  // PROBE_TIMEOUT_MS and PROBE_INTERVAL_SECONDS (src/service/health_probe.rs).
  assert.deepEqual(limits, {
    maxBodyBytes: 2 * 1024 * 1024, maxFetchedBytes: 2 * 1024 * 1024, maxOcspResponseBytes: 64 * 1024, maxAuthorizationBytes: 512,
    rimTimeoutMs: 10_000, ocspTimeoutMs: 5_000, fetchConcurrency: 8, rimCacheSeconds: 24 * 3600, rimMissSeconds: 5 * 60, rimKeepSeconds: 30 * 24 * 3600, fetchCacheEntries: 4096,
    probeTimeoutMs: 3_000, probeIntervalSeconds: 5 * 60,
  });
});

test('the fetch cache holds the core\'s fetchCacheEntries by default, the oldest dropped first; a given limit wins', () => {
  const cache = createFetchCache();
  for (let i = 0; i <= limits.fetchCacheEntries; i++) cache.put(`rim:${i}`, { body: new Uint8Array([i & 255]) }, 200, 100);
  assert.equal(cache.size, limits.fetchCacheEntries);
  assert.equal(cache.get('rim:0', 150), undefined);
  assert.deepEqual(cache.get(`rim:${limits.fetchCacheEntries}`, 150), { body: new Uint8Array([limits.fetchCacheEntries & 255]) });
  assert.equal(cache.get('rim:1', 200), undefined, 'an entry ends at its own time');
  const small = createFetchCache({ limit: 2 });
  for (const key of ['a', 'b', 'c']) small.put(key, { body: new Uint8Array(0) }, 200, 100);
  assert.equal(small.size, 2);
  assert.equal(small.get('a', 150), undefined);
});

test('the worker: a body one byte over the core\'s limit gets the core\'s 413 code; a body at the limit is read', async () => {
  const json = { 'content-type': 'application/json' };
  const over = await send(worker, '/v4/attest/gpu', { method: 'POST', headers: json, body: `{}${' '.repeat(limits.maxBodyBytes - 1)}` });
  assert.equal(over.status, 413);
  assert.equal(over.body.code, 'ERR_REQUEST_TOO_LARGE');
  assert.match(over.body.message, new RegExp(`${limits.maxBodyBytes + 1} bytes exceeds the limit of ${limits.maxBodyBytes} bytes`));
  const at = await send(worker, '/v4/attest/gpu', { method: 'POST', headers: json, body: `{}${' '.repeat(limits.maxBodyBytes - 2)}` });
  assert.equal(at.status, 400, at.text.slice(0, 200));
  assert.notEqual(at.body.code, 'ERR_REQUEST_TOO_LARGE');
});

test('the OCSP relay: an answer of the core\'s OCSP limit is relayed, one byte more is refused 502', async () => {
  const post = () => send(relay, '/ocsp', { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: new Uint8Array(100) });
  answerBytes = limits.maxOcspResponseBytes;
  const at = await post();
  assert.equal(at.status, 200);
  assert.equal(at.text.length, limits.maxOcspResponseBytes);
  answerBytes = limits.maxOcspResponseBytes + 1;
  const over = await post();
  assert.equal(over.status, 502);
  assert.equal(over.body.code, 'ERR_OCSP_UPSTREAM');
  assert.match(over.body.message, new RegExp(`more than ${limits.maxOcspResponseBytes} bytes`));
});

test('the workers\' own error answers are the core\'s errorResponse, byte for byte', async () => {
  const expected = errorResponse({ status: 404, code: 'ERR_NOT_FOUND', message: 'no resource at /ui/nothing.js' });
  const notFound = await send(worker, '/ui/nothing.js');
  assert.equal(notFound.status, 404);
  assert.equal(notFound.text, expected.body);
  assert.deepEqual(JSON.parse(expected.body), { code: 'ERR_NOT_FOUND', message: 'no resource at /ui/nothing.js', status: 404 });
  for (const [name, value] of expected.headers) assert.equal(notFound.headers.get(name), value, name);
  assert.equal(notFound.headers.get('x-content-type-options'), 'nosniff');

  const method = await send(worker, '/ui/', { method: 'POST', body: 'x' });
  assert.equal(method.status, 405);
  assert.equal(method.headers.get('allow'), 'GET, HEAD');
  assert.equal(method.text, errorResponse({ status: 405, code: 'ERR_METHOD_NOT_ALLOWED', message: 'POST is not allowed on /ui/' }).body);
  const relayOff = await send(worker, '/ocsp', { method: 'POST', body: 'x' });
  assert.equal(relayOff.text, errorResponse({ status: 404, code: 'ERR_OCSP_RELAY_OFF', message: 'revocation checking is off (EDGEATTEST_OCSP_URL=off)' }).body);
});

test('errorResponse: only an error status, a registered code and a message; field when given', () => {
  const withField = JSON.parse(errorResponse({ status: 400, code: 'ERR_REQUEST_INVALID_NONCE', message: 'bad', field: 'nonce' }).body);
  assert.deepEqual(withField, { code: 'ERR_REQUEST_INVALID_NONCE', message: 'bad', field: 'nonce', status: 400 });
  const refusals = [
    [undefined, 'init'],
    [{ status: 200, code: 'ERR_NOT_FOUND', message: 'm' }, 'init.status'],
    [{ status: 600, code: 'ERR_NOT_FOUND', message: 'm' }, 'init.status'],
    [{ status: 404, code: 'not_found', message: 'm' }, 'init.code'],
    [{ status: 404, code: 'ERR_NOT_A_REGISTERED_CODE', message: 'm' }, 'init.code'],
    [{ status: 404, code: 'ERR_NOT_FOUND', message: '' }, 'init.message'],
    [{ status: 404, code: 'ERR_NOT_FOUND' }, 'init.message'],
    [{ status: 404.5, code: 'ERR_NOT_FOUND', message: 'm' }, 'init.status'],
    [{ status: 404, code: 'ERR_NOT_FOUND', message: 'm', field: 7 }, 'init.field'],
    [{ status: 404, code: 'ERR_NOT_FOUND', message: 'm', extra: 1 }, 'init'],
  ];
  for (const [init, field] of refusals) {
    assert.throws(() => errorResponse(init), { code: 'ERR_INVALID_ARGUMENT', field }, JSON.stringify(init));
  }
});

test('bearerToken reads the credential as the gateway does', () => {
  assert.equal(bearerToken('Bearer eak_abc'), 'eak_abc');
  assert.equal(bearerToken('  bearer   eak_abc=  '), 'eak_abc=');
  assert.throws(() => bearerToken(undefined), { code: 'ERR_ACCESS_NO_CREDENTIALS' });
  assert.throws(() => bearerToken('Basic dXNlcjpwYXNz'), { code: 'ERR_ACCESS_NO_CREDENTIALS' });
  for (const bad of ['Bearer', 'Bearer\teak_abc', 'Bearer a, Bearer b', 'Bearer a"b', `Bearer ${'a'.repeat(limits.maxAuthorizationBytes)}`]) {
    assert.throws(() => bearerToken(bad), { code: 'ERR_ACCESS_INVALID_REQUEST', field: 'authorization' }, bad);
  }
  assert.throws(() => bearerToken('Bearer eak_abc', 'a=1&access_token=x'), { code: 'ERR_ACCESS_INVALID_REQUEST', field: 'access_token' });
  assert.throws(() => bearerToken(42), { code: 'ERR_INVALID_ARGUMENT', field: 'authorization' });
});

test('the gateway with a KV key store: the core reads the Bearer credential, only a well-formed key is looked up', async () => {
  const keys = devKeySet(Math.floor(Date.now() / 1000));
  const user = keys.keys.find((key) => key.id === 'dev-lab_user');
  const record = keys.keyStore.keys.find((r) => r.id === 'dev-lab_user');
  const kv = await worker.mf.getKVNamespace('EDGEATTEST_API_KEYS_KV');
  await kv.put(record.digest, JSON.stringify(record));
  // No upstream configured: an allowed request reaches the 502 after the decision.
  const allowed = await send(worker, '/api/v3/simulations/', { headers: { authorization: `bearer    ${user.key}` } });
  assert.equal(allowed.body.code, 'ERR_GATEWAY_NO_UPSTREAM');
  assert.equal(allowed.status, 502);
  const cases = [
    [{}, 401, 'ERR_ACCESS_NO_CREDENTIALS'],
    [{ authorization: `Bearer ${user.key}, Bearer ${user.key}` }, 400, 'ERR_ACCESS_INVALID_REQUEST'],
    [{ authorization: `Basic ${user.key}` }, 401, 'ERR_ACCESS_NO_CREDENTIALS'],
  ];
  for (const [headers, status, code] of cases) {
    const refused = await send(worker, '/api/v3/simulations/', { headers });
    assert.equal(refused.status, status, code);
    assert.equal(refused.body.code, code);
  }
  const inQuery = await send(worker, `/api/v3/simulations/?access_token=${user.key}`, { headers: { authorization: `Bearer ${user.key}` } });
  assert.equal(inQuery.status, 400);
  assert.equal(inQuery.body.field, 'access_token');
});
