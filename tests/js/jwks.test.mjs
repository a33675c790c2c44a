// createRemoteJWKSet against a local HTTP server serving NVIDIA's recorded key sets
// (tests/fixtures/nvidia/nras/teep): cache, cooldown, key rotation, timeout, size cap, HTTP
// and JSON failures, shared concurrent fetches — and the resolver in verifyJwt and
// verifyAttestationResult, in the default entry and the local verifier's.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRemoteJWKSet, verifyAttestationResult, verifyJwt, KeySet } from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import { fixtureText } from './support/fixtures.mjs';
import { countingBody } from './support/body-source.mjs';

const NAME = 'v3_1gpu_success_20260629';
const result = JSON.parse(fixtureText(`nras/teep/${NAME}_response.json`));
const jwksText = fixtureText(`nras/teep/${NAME}_jwks.json`);
const jwks = JSON.parse(jwksText);
const { nonce } = JSON.parse(fixtureText(`nras/teep/${NAME}_request.json`));
const part = (token, i) => JSON.parse(Buffer.from(token.split('.')[i], 'base64url'));
const overall = result[0][1];
const kid = part(overall, 0).kid;
const now = part(overall, 1).iat;
const deviceToken = Object.values(result[1])[0];
// The set as it was before the token's key was published (rotation).
const withoutKid = JSON.stringify({ keys: jwks.keys.filter((key) => key.kid !== kid) });

let server;
let origin;
/** What the server answers next; `hits` counts requests. */
let state;

function reset() {
  state = { hits: 0, paths: [], status: 200, type: 'application/json', body: jwksText, delay: 0, stallBody: false, chunked: false, location: undefined };
}

before(async () => {
  reset();
  server = createServer((req, res) => {
    state.hits += 1;
    state.paths.push(req.url);
    // `location(path)`: the redirect to answer this path with, or none.
    const redirect = state.location?.(req.url);
    const answer = redirect ? { ...state, status: 302, body: '' } : { ...state };
    setTimeout(() => {
      const headers = { 'content-type': answer.type };
      if (redirect) headers.location = redirect;
      if (!answer.chunked) headers['content-length'] = Buffer.byteLength(answer.body);
      res.writeHead(answer.status, headers);
      if (answer.stallBody) {
        res.write(answer.body.slice(0, 10));
        return; // never ends: the client's timeout must cut it
      }
      res.end(answer.body);
    }, answer.delay);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(reset);

/** A resolver on a clock the test moves. */
function remote(options = {}) {
  const clock = { t: 1_000_000 };
  const set = createRemoteJWKSet(`${origin}/.well-known/jwks.json`, { now: () => clock.t, ...options });
  return { set, clock };
}

const rejects = async (promise, code) => {
  const error = await promise.then(() => assert.fail('resolved'), (e) => e);
  assert.equal(error.name, 'EdgeAttestError', error.stack);
  assert.equal(error.code, code, error.message);
  return error;
};

test('the recorded NVIDIA result verifies through the remote set; fresh sets are served from the cache', async () => {
  const { set, clock } = remote({ cacheMaxAge: 60_000 });
  const verified = await verifyAttestationResult(result, set, { nonce, now });
  assert.equal(verified.devices.length, 1);
  assert.equal(verified.overall.kid, kid);
  assert.equal(state.hits, 1);
  assert.equal(set.fresh, true);
  // Cache hits: a device token, the result again, the resolver itself.
  assert.equal((await verifyJwt(deviceToken, set, { now })).kid, kid);
  await verifyAttestationResult(result, set, { nonce, now });
  assert.ok((await set()) instanceof KeySet);
  assert.equal(state.hits, 1);
  assert.deepEqual(set.jwks(), jwks);
  // Stale after maxAge: fetched again.
  clock.t += 60_000;
  assert.equal(set.fresh, false);
  await verifyJwt(deviceToken, set, { now });
  assert.equal(state.hits, 2);
  // The local verifier's entry takes the same resolver.
  const remoteLocal = local.createRemoteJWKSet(`${origin}/.well-known/jwks.json`);
  assert.equal((await local.verifyAttestationResult(result, remoteLocal, { nonce, now })).devices.length, 1);
});

test('key rotation: a kid the cached set lacks fetches the set again, once per cooldown', async () => {
  const { set, clock } = remote({ cooldownDuration: 30_000 });
  state.body = withoutKid;
  await set();
  assert.equal(state.hits, 1);
  // Within the cooldown the set is not asked again: the key stays unknown.
  clock.t += 29_999;
  await rejects(verifyJwt(deviceToken, set, { now }), 'ERR_JWKS_NO_MATCHING_KEY');
  assert.equal(state.hits, 1);
  assert.equal(set.coolingDown, true);
  // Past the cooldown the rotated set is fetched, and the token verifies.
  clock.t += 1;
  state.body = jwksText;
  assert.equal((await verifyAttestationResult(result, set, { nonce, now })).overall.kid, kid);
  assert.equal(state.hits, 2);
  // Other failures never fetch again.
  await rejects(verifyJwt(deviceToken, set, { now: now + 86_400 }), 'ERR_JWT_EXPIRED');
  assert.equal(state.hits, 2);
});

test('a kid no set holds: one fetch per cooldown, however many tokens ask', async () => {
  state.body = withoutKid;
  const { set, clock } = remote({ cooldownDuration: 30_000 });
  await rejects(verifyJwt(deviceToken, set, { now }), 'ERR_JWKS_NO_MATCHING_KEY');
  assert.equal(state.hits, 1, 'just fetched: cooling down');
  for (let i = 0; i < 5; i += 1) await rejects(verifyAttestationResult(result, set, { nonce, now }), 'ERR_JWKS_NO_MATCHING_KEY');
  assert.equal(state.hits, 1);
  clock.t += 30_000;
  assert.equal(set.coolingDown, false);
  await rejects(verifyJwt(deviceToken, set, { now }), 'ERR_JWKS_NO_MATCHING_KEY');
  assert.equal(state.hits, 2);
  for (let i = 0; i < 5; i += 1) await rejects(verifyJwt(deviceToken, set, { now }), 'ERR_JWKS_NO_MATCHING_KEY');
  assert.equal(state.hits, 2);
});

test('concurrent callers share one fetch', async () => {
  state.delay = 150;
  const { set } = remote();
  const sets = await Promise.all([set(), set(), set.reload().then(() => set()), set({ unknownKey: true })]);
  assert.equal(state.hits, 1);
  assert.ok(sets.every((s) => s === sets[0]));
  const { set: other } = remote();
  const verified = await Promise.all(Array.from({ length: 6 }, () => verifyAttestationResult(result, other, { nonce, now })));
  assert.equal(verified.length, 6);
  assert.equal(state.hits, 2);
});

test('a slow answer times out, headers or body', async () => {
  state.delay = 1_000;
  const { set } = remote({ timeoutDuration: 100 });
  const started = Date.now();
  const error = await rejects(set(), 'ERR_JWKS_FETCH_TIMEOUT');
  assert.equal(error.timeout, 100);
  assert.ok(Date.now() - started < 900, 'cut at the timeout, not at the answer');
  reset();
  state.stallBody = true;
  await rejects(remote({ timeoutDuration: 100 }).set(), 'ERR_JWKS_FETCH_TIMEOUT');
  // A failed fetch caches nothing: the next call asks again and succeeds.
  reset();
  assert.ok((await set()) instanceof KeySet);
});

test('an oversize body is refused, declared or streamed', async () => {
  const limit = jwksText.length - 1;
  await rejects(remote({ maxBytes: limit }).set(), 'ERR_JWKS_TOO_LARGE');
  state.chunked = true;
  const error = await rejects(remote({ maxBytes: limit }).set(), 'ERR_JWKS_TOO_LARGE');
  assert.equal(error.limit, limit);
  // Exactly at the cap it is accepted.
  assert.ok((await remote({ maxBytes: jwksText.length }).set()) instanceof KeySet);
});

test('non-2xx, non-JSON and invalid key sets are refused with their codes', async () => {
  state.status = 500;
  state.body = '{"error":"boom"}';
  const error = await rejects(remote().set(), 'ERR_JWKS_HTTP_STATUS');
  assert.equal(error.status, 500);
  state.status = 404;
  await rejects(verifyJwt(deviceToken, remote().set, { now }), 'ERR_JWKS_HTTP_STATUS');
  reset();
  state.body = '{"keys": [';
  await rejects(remote().set(), 'ERR_JWKS_NOT_JSON');
  reset();
  state.type = 'text/html';
  await rejects(remote().set(), 'ERR_JWKS_NOT_JSON');
  reset();
  state.type = 'application/jwk-set+json';
  assert.ok((await remote().set()) instanceof KeySet);
  // JSON, but not a key set, or a P-384 key that is not a point: the core refuses it.
  state.type = 'application/json';
  state.body = JSON.stringify({ keys: 'x' });
  await rejects(remote().set(), 'ERR_JWKS_INVALID');
  state.body = JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-384', kid: 'a', x: 'AA', y: 'AA' }] });
  await rejects(remote().set(), 'ERR_JWK_INVALID');
  // A network failure.
  const closed = createRemoteJWKSet('http://127.0.0.1:1/jwks.json');
  await rejects(closed(), 'ERR_JWKS_FETCH_FAILED');
});

test('fetch is injectable; arguments are checked', async () => {
  const seen = [];
  const fake = async (url, init) => {
    seen.push([url, init.headers.accept, init.signal instanceof AbortSignal]);
    return new Response(jwksText, { headers: { 'content-type': 'application/json' } });
  };
  const set = createRemoteJWKSet('https://nras.example/.well-known/jwks.json', { fetch: fake });
  await verifyJwt(deviceToken, set, { now });
  assert.deepEqual(seen, [['https://nras.example/.well-known/jwks.json', 'application/json', true]]);
  for (const [url, options, field] of [
    ['ftp://x/jwks', {}, 'url'],
    ['not a url', {}, 'url'],
    ['https://x/jwks', { timeoutDuration: -1 }, 'timeoutDuration'],
    ['https://x/jwks', { fetch: 'no' }, 'fetch'],
  ]) {
    assert.throws(() => createRemoteJWKSet(url, options), { name: 'EdgeAttestError', code: 'ERR_INVALID_ARGUMENT', field });
  }
});

test('the URL is https:, or http: on loopback only', async () => {
  for (const url of ['http://nras.example/jwks.json', 'http://10.0.0.1/jwks.json', 'http://localhost.example/jwks.json', 'http://[::2]/jwks.json', 'http://128.0.0.1/jwks.json']) {
    assert.throws(() => createRemoteJWKSet(url), { name: 'EdgeAttestError', code: 'ERR_JWKS_INSECURE_URL', field: 'url' }, url);
    assert.throws(() => local.createRemoteJWKSet(url), { code: 'ERR_JWKS_INSECURE_URL' }, url);
  }
  // 127.0.0.0/8 (in any IPv4 spelling URL normalizes), localhost, [::1]: this machine.
  const fake = async () => new Response(jwksText, { headers: { 'content-type': 'application/json' } });
  for (const url of ['http://127.0.0.1/jwks.json', 'http://127.9.8.7:8080/jwks.json', 'http://127.1/jwks.json', 'http://LOCALHOST/jwks.json', 'http://[::1]:9/jwks.json', 'https://nras.example/jwks.json']) {
    assert.ok((await createRemoteJWKSet(url, { fetch: fake })()) instanceof KeySet, url);
  }
});

test('a redirect to another origin is refused without asking it; one within the origin is followed, at most 3 in a row', async () => {
  const port = server.address().port;
  // localhost is this server too, but another origin than 127.0.0.1: never asked.
  state.location = (path) => (path === '/.well-known/jwks.json' ? `http://localhost:${port}/moved.json` : undefined);
  const error = await rejects(remote().set(), 'ERR_JWKS_REDIRECT');
  assert.match(error.message, /another origin \(http:\/\/localhost:/);
  assert.deepEqual(state.paths, ['/.well-known/jwks.json']);
  reset();
  state.location = (path) => (path === '/.well-known/jwks.json' ? '/moved.json' : undefined);
  assert.ok((await remote().set()) instanceof KeySet);
  assert.deepEqual(state.paths, ['/.well-known/jwks.json', '/moved.json']);
  reset();
  state.location = (path) => `/hop${Number(path.match(/\d+/)?.[0] ?? 0) + 1}`;
  await rejects(remote().set(), 'ERR_JWKS_REDIRECT');
  assert.equal(state.hits, 4, 'the URL and 3 redirects');
  // A fetch that follows redirects whatever it is told: where it ended is checked.
  const follows = async () => Object.defineProperties(new Response(jwksText, { headers: { 'content-type': 'application/json' } }), {
    redirected: { value: true },
    url: { value: 'https://elsewhere.example/jwks.json' },
  });
  await rejects(createRemoteJWKSet('https://nras.example/jwks.json', { fetch: follows })(), 'ERR_JWKS_REDIRECT');
  // A browser's opaque redirect hides its target: refused.
  const opaque = async () => Object.defineProperties(new Response(null), { type: { value: 'opaqueredirect' }, status: { value: 0 } });
  await rejects(createRemoteJWKSet('https://nras.example/jwks.json', { fetch: opaque })(), 'ERR_JWKS_REDIRECT');
});

test('an oversize JWKS is cancelled where it passes maxBytes, not read whole', async () => {
  let source;
  const fetch = async () => new Response((source = countingBody(128 * 1024 * 1024)).stream, { headers: { 'content-type': 'application/json' } });
  const error = await rejects(createRemoteJWKSet('https://nras.example/jwks.json', { fetch, maxBytes: 1000 })(), 'ERR_JWKS_TOO_LARGE');
  assert.equal(error.limit, 1000);
  assert.equal(source.cancelled, true);
  assert.ok(source.pulled <= 64 * 1024, `${source.pulled} bytes pulled`);
  // A body that fails as it streams is a coded fetch failure.
  const failing = async () => new Response(new ReadableStream({ pull(c) { c.error(new TypeError('reset')); } }), { headers: { 'content-type': 'application/json' } });
  await rejects(createRemoteJWKSet('https://nras.example/jwks.json', { fetch: failing })(), 'ERR_JWKS_FETCH_FAILED');
});
