// A refused request with a body leaves its keep-alive connection usable. workerd closes a
// connection whose request body the worker left unread; a client that had already sent its
// next request on it got a reset ("fetch failed", ECONNRESET: tests/js/error-bodies.test.mjs's
// GET /ui/nothing.js after POST /ocsp, now and then under load). The worker now reads what
// is left of every request body (drain in www/worker.js). Deterministic: one socket (an
// agent with maxSockets 1), and the next request either reuses it or the connection was lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { devKeySet } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';

let worker;
let agent;
const keys = devKeySet(Math.floor(Date.now() / 1000));
const readOnly = `Bearer ${keys.keys.find((key) => key.id === 'svc-ci-readonly').key}`;

before(async () => {
  worker = await startWorker({ bindings: { EDGEATTEST_API_KEYS: JSON.stringify(keys.keyStore), EDGEATTEST_SIM_UPSTREAM: 'http://127.0.0.1:1/' } });
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});

after(async () => {
  agent?.destroy();
  await worker?.stop();
});

/** One request on the agent's one socket: status, whether the socket was reused, the body read. */
function send(method, path, { body, headers = {} } = {}) {
  const { hostname, port } = new URL(worker.origin);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, method, path, headers, agent }, (response) => {
      let size = 0;
      response.on('data', (chunk) => { size += chunk.length; });
      response.on('end', () => resolve({ status: response.statusCode, reused: request.reusedSocket, size }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

test('every refusal that leaves the body unread keeps the connection for the next request', async () => {
  const cases = [
    ['POST', '/ocsp', {}, 404], // the OCSP relay when off
    ['PUT', '/ocsp', {}, 404],
    ['POST', '/ui/', {}, 405],
    ['POST', '/analytics/alerts/filter', {}, 405],
    ['POST', '/api/v3/simulations/', { authorization: readOnly, 'content-type': 'application/json' }, 403],
    ['POST', '/api/v3/simulations/', {}, 401],
    ['POST', '/v4/attest/gpu', { 'content-type': 'application/json' }, 400], // read by the service
  ];
  await send('GET', '/ocsp'); // opens the socket
  for (const [method, path, headers, status] of cases) {
    for (const body of ['x', 'y'.repeat(256 * 1024)]) {
      const refused = await send(method, path, { body, headers });
      assert.equal(refused.status, status, `${method} ${path}`);
      assert.ok(refused.size > 0, 'the answer has a body, and it was read');
      // Time for a close to arrive, were the connection closed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await send('GET', '/ui/nothing.js');
      assert.equal(next.status, 404);
      assert.equal(next.reused, true, `${method} ${path} with ${body.length} bytes: the next request found the connection closed`);
    }
  }
});

test('a body refused from its Content-Length alone (within the drain limit) keeps the connection', async () => {
  await send('GET', '/ocsp');
  const over = await send('POST', '/v4/attest/gpu', { body: 'z'.repeat(2 * 1024 * 1024 + 1), headers: { 'content-type': 'application/json' } });
  assert.equal(over.status, 413);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const next = await send('GET', '/ui/nothing.js');
  assert.equal(next.status, 404);
  assert.equal(next.reused, true, 'the connection was closed after a declared-oversize body');
});
