// The worker's other two faces, in workerd: the gateway in front of the simulation service
// (a local upstream on loopback) and the nine analytics list endpoints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { devKeySet } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';

let worker;
let upstream;
const seen = [];
const keys = devKeySet(Math.floor(Date.now() / 1000));
const keyOf = (id) => keys.keys.find((key) => key.id === id).key;

before(async () => {
  upstream = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, rawHeaders: req.rawHeaders });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ upstream: true, url: req.url }));
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  worker = await startWorker({
    bindings: {
      EDGEATTEST_SIM_UPSTREAM: `http://127.0.0.1:${upstream.address().port}/`,
      EDGEATTEST_API_KEYS: JSON.stringify(keys.keyStore),
    },
  });
});

after(async () => {
  await worker?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

test('gateway: RFC 6750 answers and forwarding to the upstream', async () => {
  const none = await fetch(`${worker.origin}/api/v3/simulations/`);
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate'), /^Bearer realm="/);
  assert.match(none.headers.get('access-control-expose-headers'), /WWW-Authenticate/i);

  const malformed = await fetch(`${worker.origin}/api/v3/simulations/`, { headers: { authorization: 'Bearer' } });
  assert.equal(malformed.status, 400);
  assert.match(malformed.headers.get('www-authenticate'), /error="invalid_request"/);

  const typo = keyOf('dev-lab_user').replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
  const bad = await fetch(`${worker.origin}/api/v3/simulations/`, { headers: { authorization: `Bearer ${typo}` } });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get('www-authenticate'), /error="invalid_token"/);

  const other = await fetch(`${worker.origin}/api/v3/simulations/`, { headers: { authorization: `Bearer ${keyOf('svc-other-service')}` } });
  assert.equal(other.status, 401, 'a key issued for another service grants nothing');

  const before = seen.length;
  const allowed = await fetch(`${worker.origin}/api/v3/simulations/?limit=2`, {
    headers: { authorization: `Bearer ${keyOf('svc-ci-readonly')}` },
  });
  assert.equal(allowed.status, 200);
  assert.deepEqual(await allowed.json(), { upstream: true, url: '/api/v3/simulations/?limit=2' });
  const forwarded = seen[before];
  assert.equal(forwarded.headers.authorization, undefined, 'the key is not forwarded');
  assert.equal(forwarded.headers['x-edgeattest-key-id'], 'svc-ci-readonly');

  const denied = await fetch(`${worker.origin}/api/v3/simulations/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keyOf('svc-ci-readonly')}`, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(denied.status, 403);
  assert.match(denied.headers.get('www-authenticate'), /error="insufficient_scope", .*scope="/);
  const body = await denied.json();
  assert.ok(body.requiredScopes.length > 0);
  assert.deepEqual(body.grantedScopes.sort(), ['lab:image_read', 'lab:simulation_read']);
  assert.equal(seen.length, before + 1, 'denied requests never reach the upstream');
});

test('lists: the nine paths page the embedded data set; errors name the parameter', async () => {
  const query = 'rpp=5&page_number=2&sorting=severity[asc],timestamp[desc]&filter=severity[neq]info';
  const response = await fetch(`${worker.origin}/analytics/alerts/filter?${query}`);
  assert.equal(response.status, 200);
  const page = await response.json();
  assert.equal(page.data.length, 5);
  assert.equal(page.first_index, 6);
  assert.equal(page.last_index, 10);
  assert.ok(page.data.every((row) => row.severity !== 'info'));

  const bad = await fetch(`${worker.origin}/analytics/alerts/filter?rpp=0`);
  assert.equal(bad.status, 400);
  const error = await bad.json();
  assert.equal(error.field, 'rpp');
  assert.match(error.code, /^ERR_LIST_/);

  for (const path of ['/analytics/anomalies/network', '/analytics/telemetry/link-status', '/analytics/anomalies/cable/deviation']) {
    const list = await fetch(`${worker.origin}${path}?rpp=3`);
    assert.equal(list.status, 200, path);
    assert.equal((await list.json()).data.length, 3, path);
  }
  const post = await fetch(`${worker.origin}/analytics/alerts/filter`, { method: 'POST' });
  assert.equal(post.status, 405);
});

/** A raw HTTP/1.1 request (fetch forbids some of the headers these tests send). */
function rawRequest(origin, path, headers, method = 'GET') {
  return new Promise((resolve, reject) => {
    // A raw header list gets no Host from Node: HTTP/1.1 requires one.
    const req = request(`${origin}${path}`, { method, headers: ['Host', new URL(origin).host, ...headers] }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('gateway: the upstream never sees overrides, look-alikes, hop-by-hop or proxy-asserted headers', async () => {
  const before = seen.length;
  const answer = await rawRequest(worker.origin, '/api/v3/simulations/?limit=2&_method=DELETE&_METHOD=PUT', [
    ['Authorization', `Bearer ${keyOf('svc-ci-readonly')}`],
    ['X-HTTP-Method-Override', 'DELETE'],
    ['X-Method-Override', 'DELETE'],
    ['X-HTTP-Method', 'DELETE'],
    ['X_HTTP_Method_Override', 'DELETE'],
    ['X-Edgeattest_Scopes', 'lab:image_publish'],
    ['x_edgeattest_key_id', 'admin'],
    ['X-EDGEATTEST-KEY-TYPE', 'service'],
    ['X-Edgeattest-Role', 'admin'],
    ['Connection', 'keep-alive, X-Hop-Secret'],
    ['X-Hop-Secret', 'hop'],
    ['Keep-Alive', 'timeout=5'],
    ['Proxy-Authorization', 'Basic dXNlcjpwYXNz'],
    ['Forwarded', 'for=10.0.0.1;host=admin.internal'],
    ['X-Forwarded-For', '10.0.0.1'],
    ['X-Forwarded-Host', 'admin.internal'],
    ['X_Forwarded_Proto', 'http'],
    ['X-Real-IP', '10.0.0.1'],
    ['X-Original-URL', '/api/v3/images/'],
    ['Cookie', 'session=admin'],
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json'],
    ['X-Request-Id', 'req-15-6'],
  ].flat());
  assert.equal(answer.status, 200, answer.text);
  assert.equal(seen.length, before + 1);
  const got = seen[before];
  assert.equal(got.method, 'GET');
  const names = [];
  for (let i = 0; i < got.rawHeaders.length; i += 2) names.push(got.rawHeaders[i].toLowerCase().replaceAll('_', '-'));
  const leaked = [];
  for (const name of [
    'x-http-method-override', 'x-method-override', 'x-http-method', 'x-hop-secret', 'keep-alive',
    'proxy-authorization', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
    'x-real-ip', 'x-original-url', 'cookie', 'x-edgeattest-role', 'authorization',
  ].filter((name) => names.includes(name))) {
    leaked.push(name);
  }
  assert.deepEqual(leaked, [], 'headers that reached the upstream');
  assert.equal(got.url, '/api/v3/simulations/?limit=2', 'the override parameters are gone, the others kept');
  for (const name of ['x-edgeattest-key-id', 'x-edgeattest-key-type', 'x-edgeattest-scopes']) {
    assert.equal(names.filter((n) => n === name).length, 1, `${name} once`);
  }
  assert.equal(got.headers['x-edgeattest-key-id'], 'svc-ci-readonly');
  assert.equal(got.headers['x-edgeattest-key-type'], 'service');
  assert.doesNotMatch(got.headers['x-edgeattest-scopes'], /image_publish/);
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers.accept, 'application/json');
  assert.equal(got.headers['x-request-id'], 'req-15-6');
  assert.equal(got.headers.host, new URL(`http://127.0.0.1:${upstream.address().port}/`).host, "the upstream's own host");
});

test('gateway and lists: a 502 names no upstream or runtime error text', async () => {
  // A port nobody listens on: the runtime's connection error must stay in the log.
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const dead = `http://127.0.0.1:${closed.address().port}/`;
  await new Promise((resolve) => closed.close(resolve));
  const down = await startWorker({
    bindings: { EDGEATTEST_SIM_UPSTREAM: dead, EDGEATTEST_LIST_UPSTREAM: dead, EDGEATTEST_API_KEYS: JSON.stringify(keys.keyStore) },
  });
  try {
    const gateway = await fetch(`${down.origin}/api/v3/simulations/`, { headers: { authorization: `Bearer ${keyOf('svc-ci-readonly')}` } });
    assert.equal(gateway.status, 502);
    assert.deepEqual(await gateway.json(), { code: 'ERR_GATEWAY_UPSTREAM_UNREACHABLE', message: 'the upstream did not answer', status: 502 });
    const list = await fetch(`${down.origin}/analytics/alerts/filter?rpp=3`);
    assert.equal(list.status, 502);
    assert.deepEqual(await list.json(), { code: 'ERR_LIST_SOURCE', message: 'the list source is not usable', status: 502 });
  } finally {
    await down.stop();
  }
});
