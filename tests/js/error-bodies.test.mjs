// One shape for every error body the worker returns (issue 17): the attestation service,
// the API-key gateway, the lists, the OCSP relay and the page's own routes all answer
// { code, message, status } (+ field, errorCode, details), camelCase, JSON; the RFC 6750
// error members only in WWW-Authenticate. Checked against the running worker in workerd.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { devKeySet, checkDeprecatedRequest, checkDeprecatedQuery } from '../../pkg/service/index.js';
import { startWorker } from './support/worker.mjs';
import { fixtureText } from './support/fixtures.mjs';

let worker;
let broken;
let upstream;
const keys = devKeySet(Math.floor(Date.now() / 1000));
const keyOf = (id) => `Bearer ${keys.keys.find((key) => key.id === id).key}`;
const COMMON = ['code', 'message', 'status'];
const OPTIONAL = ['field', 'errorCode', 'route', 'requirement', 'requiredScopes', 'grantedScopes', 'missingScopes', 'allowedMethods', 'deprecation'];

before(async () => {
  upstream = createServer((req, res) => res.end('{}'));
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  worker = await startWorker({
    bindings: {
      EDGEATTEST_SIM_UPSTREAM: `http://127.0.0.1:${upstream.address().port}/`,
      EDGEATTEST_API_KEYS: JSON.stringify(keys.keyStore),
    },
  });
  // A worker whose key store and list source are unusable: its 503 and 502.
  broken = await startWorker({ bindings: { EDGEATTEST_API_KEYS: '{not json', EDGEATTEST_LIST_UPSTREAM: 'http://127.0.0.1:1/' } });
});

after(async () => {
  await worker?.stop();
  await broken?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

/** Asserts the one shape on a body; returns it. */
function assertShape(body, status, what) {
  assert.equal(typeof body, 'object', what);
  const keys = Object.keys(body);
  for (const member of COMMON) assert.ok(keys.includes(member), `${what}: no ${member} in ${JSON.stringify(body)}`);
  for (const key of keys) {
    assert.ok(COMMON.includes(key) || OPTIONAL.includes(key), `${what}: unexpected member ${key}`);
  }
  assert.match(body.code, /^ERR_[A-Z0-9_]+$/, what);
  assert.equal(typeof body.message, 'string', what);
  assert.ok(body.message.length > 0, what);
  assert.equal(body.status, status, what);
  if ('field' in body) assert.ok(typeof body.field === 'string' && body.field.length > 0, what);
  return body;
}

/** Fetches from the worker and asserts status, JSON and shape. */
async function expectError(base, path, init, status, code) {
  const response = await fetch(`${base.origin}${path}`, init);
  const what = `${init?.method ?? 'GET'} ${path}`;
  assert.equal(response.status, status, what);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/, what);
  const body = assertShape(await response.json(), status, what);
  assert.equal(body.code, code, what);
  return { body, response };
}

const attest = (body, headers = { 'content-type': 'application/json' }) =>
  ({ method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

test('gateway: every refusal has the one shape, RFC 6750 members in the challenge only', async () => {
  const sims = '/api/v3/simulations/';
  const cases = [
    [sims, {}, 401, 'ERR_ACCESS_NO_CREDENTIALS'],
    [sims, { headers: { authorization: 'Bearer' } }, 400, 'ERR_ACCESS_INVALID_REQUEST'],
    [sims, { headers: { authorization: 'Bearer not-a-key' } }, 401, 'ERR_ACCESS_MALFORMED_KEY'],
    [sims, { headers: { authorization: keyOf('svc-other-service') } }, 401, 'ERR_ACCESS_INVALID_TOKEN'],
    [sims, { method: 'POST', headers: { authorization: keyOf('svc-ci-readonly'), 'content-type': 'application/json' }, body: '{}' }, 403, 'ERR_ACCESS_INSUFFICIENT_SCOPE'],
    ['/api/v3/histories/', { headers: { authorization: keyOf('dev-lab_user') } }, 404, 'ERR_ACCESS_UNKNOWN_ROUTE'],
    ['/api/v3/simulations/abc/', { method: 'PUT', headers: { authorization: keyOf('dev-lab_user') } }, 405, 'ERR_ACCESS_METHOD_NOT_ALLOWED'],
    [`${sims}?q=${'a'.repeat(9000)}`, { headers: { authorization: keyOf('dev-lab_user') } }, 414, 'ERR_ACCESS_QUERY_TOO_LONG'],
    [sims, { headers: { authorization: keyOf('dev-lab_user'), ...Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`x-h${i}`, 'v'])) } }, 431, 'ERR_ACCESS_TOO_MANY_HEADERS'],
  ];
  for (const [path, init, status, code] of cases) {
    const { body, response } = await expectError(worker, path, init, status, code);
    for (const member of ['error', 'error_description', 'scope']) assert.equal(body[member], undefined, `${code}: ${member}`);
    const challenge = response.headers.get('www-authenticate');
    const description = challenge && /error_description="([^"]*)"/.exec(challenge);
    if (description) assert.equal(body.message, description[1], `${code}: message = error_description`);
    if (status === 401 || status === 403) assert.match(challenge, /^Bearer realm="/, code);
  }
  const { body } = await expectError(worker, sims, cases[4][1], 403, 'ERR_ACCESS_INSUFFICIENT_SCOPE');
  assert.deepEqual(body.missingScopes, ['lab:simulation_create']);
  await expectError(broken, sims, { headers: { authorization: keyOf('dev-lab_user') } }, 503, 'ERR_KEYSTORE_MALFORMED_JSON');
});

test('attestation service, lists, OCSP relay and page routes: the same shape', async () => {
  const request = JSON.parse(fixtureText('nras/teep/v3_1gpu_success_20260629_request.json'));
  const { body: nonce } = await expectError(worker, '/v4/attest/gpu', attest({ ...request, nonce: '12' }), 400, 'ERR_REQUEST_INVALID_NONCE');
  assert.equal(nonce.errorCode, 4003);
  assert.equal(nonce.field, 'nonce');
  // Hex text where the V3 field is base64 of the bytes: named, with the field.
  const hex = Buffer.from(request.evidence_list[0].evidence, 'base64').toString('hex');
  const wrong = { ...request, evidence_list: [{ ...request.evidence_list[0], evidence: hex }] };
  const { body: encoding } = await expectError(worker, '/v3/attest/gpu', attest(wrong), 400, 'ERR_EVIDENCE_ENCODING');
  assert.equal(encoding.field, 'evidence_list[0].evidence');
  assert.match(encoding.message, /hex text .* but base64 of the evidence bytes/);
  await expectError(worker, '/v9/nothing', {}, 404, 'ERR_NOT_FOUND');
  await expectError(worker, '/v4/attest/gpu', {}, 405, 'ERR_METHOD_NOT_ALLOWED');
  await expectError(worker, '/v4/attest/gpu', attest('{}', { 'content-type': 'text/plain' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
  await expectError(worker, '/v4/attest/gpu', attest('x'.repeat(2 * 1024 * 1024 + 1)), 413, 'ERR_REQUEST_TOO_LARGE');

  const { body: list } = await expectError(worker, '/analytics/alerts/filter?rpp=0', {}, 400, 'ERR_LIST_INVALID_NUMBER');
  assert.equal(list.field, 'rpp');
  await expectError(worker, '/analytics/alerts/filter', { method: 'POST' }, 405, 'ERR_METHOD_NOT_ALLOWED');
  await expectError(broken, '/analytics/alerts/filter', {}, 502, 'ERR_LIST_SOURCE');

  await expectError(worker, '/ocsp', { method: 'POST', body: 'x' }, 404, 'ERR_OCSP_RELAY_OFF');
  await expectError(worker, '/ui/nothing.js', {}, 404, 'ERR_NOT_FOUND');
  await expectError(worker, '/ui/', { method: 'POST' }, 405, 'ERR_METHOD_NOT_ALLOWED');
});

test('deprecation refusals have the same shape, with the item as field', () => {
  const late = checkDeprecatedRequest('AllocationConstraint', { ResourceTypeID: 't' }, Date.UTC(2027, 0, 1) / 1000);
  assert.equal(late.ok, false);
  assertShape(late.body, 400, 'deprecated attribute');
  assert.equal(late.body.field, 'ResourceTypeID');
  assert.match(late.body.message, /is deprecated/);
  const both = checkDeprecatedRequest('AllocationConstraint', { ResourceTypeID: 't', resourceTypeId: 't' }, 0);
  assert.match(assertShape(both.body, 400, 'both').message, /'resourceTypeId' is preferred/);
  const query = checkDeprecatedQuery('GET /instance', 'infrastructureProviderId=p', Date.UTC(2027, 0, 1) / 1000);
  assert.equal(assertShape(query.body, 400, 'deprecated query parameter').field, 'infrastructureProviderId');
});
