// The worker's other two faces, in workerd: the gateway in front of the simulation service
// (a local upstream on loopback) and the nine analytics list endpoints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { devKeySet } from '../../pkg/index.js';
import { startWorker } from './support/worker.mjs';

let worker;
let upstream;
const seen = [];
const keys = devKeySet(Math.floor(Date.now() / 1000));
const keyOf = (id) => keys.keys.find((key) => key.id === id).key;

before(async () => {
  upstream = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers });
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
  assert.ok(body.required_scopes.length > 0);
  assert.deepEqual(body.granted_scopes.sort(), ['lab:image_read', 'lab:simulation_read']);
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
