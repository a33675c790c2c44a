// The access-control JS API (keys, gateway decisions) from the release package in Node, and
// an edge gateway built on it, run in workerd in front of a local upstream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import '../../pkg/service/index.js';
import {
  accessRouteTable,
  createApiKey,
  devKeySet,
  evaluateAccess,
  gatewayDecision,
  ApiGateway,
  hashApiKey,
  parseApiKey,
  roleScopes,
} from '../../pkg/service/edgeattest.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const NOW = 1_800_000_000;
const SEED = new Uint8Array(32).fill(0x42);
const dev = devKeySet(NOW, SEED);
const key = (id) => dev.keys.find((k) => k.id === id).key;

function rejects(fn, code, field) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

test('createApiKey: a typed, checksummed key and a record holding only its SHA-256', () => {
  const created = createApiKey({ type: 'service', id: 'ci-nightly', scopes: ['lab:simulation_read'], expiresAt: NOW + 60 });
  assert.match(created.key, /^eak_svc_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
  assert.equal(created.record.digest, createHash('sha256').update(created.key).digest('hex'));
  assert.equal(hashApiKey(created.key), created.record.digest);
  assert.deepEqual(created.record, {
    id: 'ci-nightly', type: 'service', digest: created.record.digest,
    scopes: ['lab:simulation_read'], services: ['simulation'], expiresAt: NOW + 60,
  });
  assert.ok(!JSON.stringify(created.record).includes(created.key.slice(8, 51)));
  assert.equal(created.redacted, `eak_svc_…${created.key.slice(-4)}`);
  const personal = createApiKey({ type: 'personal', id: 'alice', roles: ['lab_user'] });
  assert.equal(parseApiKey(personal.key).type, 'personal');
  assert.notEqual(createApiKey({ type: 'personal', id: 'a', roles: [] }).key, personal.key);
  rejects(() => createApiKey({ type: 'service', id: 'x', roles: ['lab_user'] }), 'ERR_INVALID_ARGUMENT', 'roles');
  rejects(() => createApiKey({ type: 'personal', id: 'x', scopes: [] }), 'ERR_INVALID_ARGUMENT', 'scopes');
  rejects(() => createApiKey({ type: 'service', id: 'x', scopes: ['lab:everything'] }), 'ERR_INVALID_ARGUMENT', 'scopes[0]');
  rejects(() => createApiKey({ type: 'admin', id: 'x' }), 'ERR_INVALID_ARGUMENT', 'type');
  rejects(() => createApiKey({ type: 'service', id: 'a b', scopes: [] }), 'ERR_KEYSTORE_INVALID_ID', 'keys[0].id');
});

test('parseApiKey and hashApiKey reject mistyped keys offline', () => {
  const good = key('dev-lab_user');
  const parsed = parseApiKey(good);
  assert.equal(parsed.digest, createHash('sha256').update(good).digest('hex'));
  const last = good.at(-1) === 'a' ? 'b' : 'a';
  rejects(() => parseApiKey(good.slice(0, -1) + last), 'ERR_KEY_CHECKSUM');
  rejects(() => hashApiKey(good.slice(1)), 'ERR_KEY_LENGTH');
  rejects(() => hashApiKey(good.replace('eak_', 'xak_')), 'ERR_KEY_PREFIX');
  rejects(() => hashApiKey(good.replace('_per_', '_adm_')), 'ERR_KEY_TYPE');
});

test('devKeySet: one key per role, service keys, a key store without secrets', () => {
  assert.equal(dev.keys.length, 12);
  assert.deepEqual(devKeySet(NOW, SEED), dev);
  assert.equal(dev.keyStore.keys.length, 12);
  for (const record of dev.keyStore.keys) {
    assert.equal(record.key, undefined);
    assert.equal(record.expiresAt, NOW + 30 * 86400);
  }
  const roles = roleScopes();
  for (const [role, scopes] of Object.entries(roles)) {
    assert.deepEqual(dev.keys.find((k) => k.id === `dev-${role}`).scopes, scopes);
  }
  assert.deepEqual(roles.lab_org_admin, roles.lab_user);
  rejects(() => devKeySet(NOW, new Uint8Array(31)), 'ERR_INVALID_ARGUMENT', 'seed');
  rejects(() => devKeySet(-1), 'ERR_INVALID_ARGUMENT', 'now');
  rejects(() => devKeySet(1.5), 'ERR_INVALID_ARGUMENT', 'now');
});

test('gatewayDecision: RFC 6750 answers', () => {
  const ask = (authorization, method = 'GET', url = '/api/v3/simulations/') =>
    gatewayDecision({ method, url, authorization }, dev.keyStore, NOW);
  const none = ask(undefined);
  assert.equal(none.status, 401);
  assert.deepEqual(new Headers(none.headers).get('www-authenticate'), 'Bearer realm="edgeattest"');
  assert.equal(new Headers(none.headers).get('access-control-expose-headers'), 'WWW-Authenticate');
  const malformed = ask(`Bearer ${key('dev-lab_user')}, Bearer ${key('dev-lab_user')}`);
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.code, 'ERR_ACCESS_INVALID_REQUEST');
  assert.equal(malformed.body.error, undefined, 'RFC 6750 members are in the challenge only');
  assert.match(new Headers(malformed.headers).get('www-authenticate'), /error="invalid_request"/);
  const revoked = ask(`Bearer ${createApiKey({ type: 'personal', id: 'x', roles: [] }).key}`);
  const foreign = ask(`Bearer ${key('svc-other-service')}`);
  assert.equal(revoked.status, 401);
  assert.deepEqual(foreign.body, revoked.body);
  assert.deepEqual(foreign.headers, revoked.headers);
  const denied = ask(`Bearer ${key('dev-lab_image_sharer')}`, 'DELETE', 'https://sim.example/api/v3/simulations/s1/');
  assert.equal(denied.status, 403);
  assert.deepEqual(denied.body.requiredScopes, ['lab:simulation_delete']);
  assert.deepEqual(denied.body.grantedScopes, ['lab:image_sharing']);
  assert.match(new Headers(denied.headers).get('www-authenticate'), /error="insufficient_scope".*scope="lab:simulation_delete"$/);
  const allowed = ask(`Bearer ${key('dev-lab_user')}`, 'GET', 'https://sim.example/api/v3/simulations?limit=2');
  assert.equal(allowed.allow, true);
  assert.equal(allowed.forward.path, '/api/v3/simulations/');
  assert.deepEqual(allowed.forward.removeHeaders, ['Authorization']);
  rejects(() => gatewayDecision({ method: 'GET', url: '/' }, '{"keys":[]', NOW), 'ERR_KEYSTORE_MALFORMED_JSON');
  rejects(() => gatewayDecision({ method: 'GET' }, dev.keyStore, NOW), 'ERR_INVALID_ARGUMENT', 'request.url');
  rejects(() => gatewayDecision({ method: 'GET', url: '/' }, dev.keyStore, NaN), 'ERR_INVALID_ARGUMENT', 'now');
  const realm = gatewayDecision({ method: 'GET', url: '/api/v3/images/' }, dev.keyStore, NOW, { realm: 'lab' });
  assert.equal(new Headers(realm.headers).get('www-authenticate'), 'Bearer realm="lab"');
  rejects(() => gatewayDecision({ method: 'GET', url: '/' }, dev.keyStore, NOW, { realm: 'a"b' }), 'ERR_ACCESS_INVALID_REALM', 'realm');
});

test('gatewayDecision: forward.target and forward.headers are exactly what goes upstream', () => {
  const authorization = `Bearer ${key('dev-lab_user')}`;
  const client = [
    ['authorization', authorization],
    ['x-http-method-override', 'DELETE'],
    ['x_edgeattest_scopes', 'lab:image_publish'],
    ['connection', 'x-hop'],
    ['x-hop', '1'],
    ['x-forwarded-for', '10.0.0.1'],
    ['accept', 'application/json'],
    ['x-request-id', 'r1'],
  ];
  const ours = (forward) => forward.headers.filter(([name]) => !name.toLowerCase().startsWith('x-edgeattest-'));
  for (const headers of [client, new Headers(client)]) {
    const decision = gatewayDecision({ method: 'GET', url: 'https://sim.example/api/v3/simulations?a=1&_method=DELETE', authorization, headers }, dev.keyStore, NOW);
    assert.equal(decision.allow, true);
    assert.equal(decision.forward.target, '/api/v3/simulations/?a=1');
    assert.deepEqual(ours(decision.forward), [['accept', 'application/json'], ['x-request-id', 'r1']]);
    assert.deepEqual(decision.forward.headers.slice(-3), decision.forward.setHeaders);
    assert.equal(decision.forward.setHeaders[0][1], 'dev-lab_user');
  }
  // Without headers: the gateway's own only, as before.
  const bare = gatewayDecision({ method: 'GET', url: '/api/v3/simulations/', authorization }, dev.keyStore, NOW);
  assert.deepEqual(bare.forward.headers, bare.forward.setHeaders);
  // The caps, with their own codes, before any copying.
  const many = Array.from({ length: 129 }, (_, i) => [`x-h${i}`, '1']);
  const tooMany = gatewayDecision({ method: 'GET', url: '/api/v3/simulations/', authorization, headers: many }, dev.keyStore, NOW);
  assert.deepEqual([tooMany.status, tooMany.body.code], [431, 'ERR_ACCESS_TOO_MANY_HEADERS']);
  const large = gatewayDecision({ method: 'GET', url: '/api/v3/simulations/', authorization, headers: [['x-big', 'v'.repeat(65_537)]] }, dev.keyStore, NOW);
  assert.deepEqual([large.status, large.body.code], [431, 'ERR_ACCESS_HEADERS_TOO_LARGE']);
  rejects(() => gatewayDecision({ method: 'GET', url: '/', headers: { accept: 'x' } }, dev.keyStore, NOW), 'ERR_INVALID_ARGUMENT', 'request.headers');
  rejects(() => gatewayDecision({ method: 'GET', url: '/', headers: [['accept', 1]] }, dev.keyStore, NOW), 'ERR_INVALID_ARGUMENT', 'request.headers[0]');
});

test('ApiGateway: the key store parsed once, the same decisions as gatewayDecision', () => {
  const gate = new ApiGateway(JSON.stringify(dev.keyStore), { realm: 'lab' });
  try {
    const cases = [
      [undefined, 'GET', '/api/v3/simulations/'],
      [`Bearer ${key('dev-lab_user')}`, 'GET', 'https://sim.example/api/v3/simulations?limit=2'],
      [`Bearer ${key('dev-lab_image_sharer')}`, 'DELETE', 'https://sim.example/api/v3/simulations/s1/'],
      [`Bearer ${key('svc-other-service')}`, 'GET', '/api/v3/images/'],
      ['Basic abc', 'GET', '/api/v3/images/'],
    ];
    for (const [authorization, method, url] of cases) {
      assert.deepEqual(
        gate.decide({ method, url, authorization }, NOW),
        gatewayDecision({ method, url, authorization }, dev.keyStore, NOW, { realm: 'lab' }),
        `${method} ${url} ${authorization}`,
      );
    }
    rejects(() => gate.decide({ method: 'GET' }, NOW), 'ERR_INVALID_ARGUMENT', 'request.url');
    rejects(() => gate.decide({ method: 'GET', url: '/' }, -1), 'ERR_INVALID_ARGUMENT', 'now');
  } finally {
    gate.free();
  }
  rejects(() => new ApiGateway('{"keys":['), 'ERR_KEYSTORE_MALFORMED_JSON');
  rejects(() => new ApiGateway(dev.keyStore, { realm: 'a"b' }), 'ERR_ACCESS_INVALID_REALM', 'realm');
});

test('evaluateAccess: a key record, an API key or an Authorization value', () => {
  const record = dev.keyStore.keys.find((r) => r.id === 'svc-image-pipeline');
  const byRecord = evaluateAccess(record, 'PATCH', '/api/v3/images/i1/publish/', { now: NOW });
  assert.equal(byRecord.allow, true);
  const byRecordDenied = evaluateAccess(record, 'GET', '/api/v3/simulations/', { now: NOW });
  assert.equal(byRecordDenied.allow, false);
  assert.deepEqual(byRecordDenied.body.missingScopes, ['lab:simulation_read']);
  assert.equal(evaluateAccess({ ...record, revokedAt: NOW - 1 }, 'GET', '/api/v3/images/', { now: NOW }).audit.reason, 'revoked');
  const bare = evaluateAccess(key('dev-lab_instructor'), 'POST', '/api/v3/trainings/', { keyStore: dev.keyStore, now: NOW });
  assert.equal(bare.allow, true);
  const header = evaluateAccess(`Bearer ${key('dev-lab_instructor')}`, 'POST', '/api/v3/images/', { keyStore: JSON.stringify(dev.keyStore), now: NOW });
  assert.equal(header.status, 403);
  // Without `now`, the host clock is used: the dev keys made at NOW expired long before it... or not yet.
  const clock = evaluateAccess(record, 'GET', '/api/v3/images/');
  assert.equal(typeof clock.allow, 'boolean');
  rejects(() => evaluateAccess(key('dev-lab_user'), 'GET', '/api/v3/images/'), 'ERR_INVALID_ARGUMENT', 'options.keyStore');
  rejects(() => evaluateAccess({ ...record, scopes: ['lab:nope'] }, 'GET', '/', { now: NOW }), 'ERR_KEYSTORE_UNKNOWN_SCOPE');
  rejects(() => evaluateAccess(42, 'GET', '/', { now: NOW }), 'ERR_INVALID_ARGUMENT', 'key');
});

test('accessRouteTable: every route once, each with a requirement', () => {
  const table = accessRouteTable();
  assert.ok(table.length >= 70);
  const keys = new Set(table.map((r) => `${r.method} ${r.path}`));
  assert.equal(keys.size, table.length);
  for (const route of table) {
    const scopes = route.requires.all_of ?? route.requires.any_of;
    assert.ok(scopes.length > 0, `${route.method} ${route.path}`);
    assert.ok(['direct', 'inferred'].includes(route.basis));
  }
});

// A reference gateway worker: authenticates and authorizes /api/v3/… with the wasm decision
// and forwards allowed requests to EDGEATTEST_SIM_UPSTREAM. Keys come from EDGEATTEST_API_KEYS
// (key-store JSON) or, when bound, from a KV namespace keyed by key digest.
const GATEWAY = `
import './pkg/service/workerd.js'; // instantiates the wasm module
import { gatewayDecision, hashApiKey } from './pkg/service/edgeattest.js';
async function keyStore(request, env) {
  if (!env.EDGEATTEST_API_KEYS_KV) return env.EDGEATTEST_API_KEYS;
  const auth = request.headers.get('authorization') ?? '';
  const match = /^bearer +(eak_\\S+)$/i.exec(auth.trim());
  let record = null;
  if (match) {
    try { record = await env.EDGEATTEST_API_KEYS_KV.get(hashApiKey(match[1]), 'json'); } catch { record = null; }
  }
  return { keys: record ? [record] : [] };
}
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/v3/')) return new Response('not the gateway', { status: 404 });
    const decision = gatewayDecision(
      { method: request.method, url: request.url, authorization: request.headers.get('authorization'), headers: request.headers },
      await keyStore(request, env),
      Math.floor(Date.now() / 1000),
    );
    if (!decision.allow) {
      const headers = new Headers(decision.headers);
      headers.set('access-control-allow-origin', '*');
      return new Response(decision.body ? JSON.stringify(decision.body) : null, { status: decision.status, headers });
    }
    // Exactly what the decision says: its target and its headers.
    const target = new URL(decision.forward.target, env.EDGEATTEST_SIM_UPSTREAM);
    const headers = new Headers(decision.forward.headers);
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer();
    const response = await fetch(target, { method: request.method, headers, body });
    const out = new Response(response.body, response);
    out.headers.set('access-control-allow-origin', '*');
    out.headers.append('access-control-expose-headers', 'WWW-Authenticate');
    return out;
  },
};
`;

async function withGateway(bindings, run) {
  const seen = [];
  const upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ upstream: true, url: req.url }));
    });
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const mf = new Miniflare({
    rootPath: repo,
    modulesRoot: repo,
    modules: true,
    script: GATEWAY,
    scriptPath: `${repo}gateway.js`,
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
    bindings: { EDGEATTEST_SIM_UPSTREAM: `http://127.0.0.1:${upstream.address().port}/`, ...bindings.vars },
    kvNamespaces: bindings.kv ? ['EDGEATTEST_API_KEYS_KV'] : [],
  });
  try {
    if (bindings.kv) {
      const kv = await mf.getKVNamespace('EDGEATTEST_API_KEYS_KV');
      for (const record of bindings.kv) await kv.put(record.digest, JSON.stringify(record));
    }
    await run((path, init) => mf.dispatchFetch(`http://gateway.test${path}`, init), seen);
  } finally {
    await mf.dispose();
    upstream.close();
  }
}

test('the gateway in workerd forwards allowed requests and answers the others itself', async () => {
  const now = Math.floor(Date.now() / 1000);
  const live = devKeySet(now, SEED);
  const secret = (id) => live.keys.find((k) => k.id === id).key;
  await withGateway({ vars: { EDGEATTEST_API_KEYS: JSON.stringify(live.keyStore) } }, async (fetch, seen) => {
    const ok = await fetch('/api/v3/simulations?limit=5', { headers: { authorization: `Bearer ${secret('dev-lab_user')}`, 'x-edgeattest-key-id': 'spoofed' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { upstream: true, url: '/api/v3/simulations/?limit=5' });
    assert.equal(seen.length, 1);
    assert.equal(seen[0].headers.authorization, undefined, 'the key never reaches the upstream');
    assert.equal(seen[0].headers['x-edgeattest-key-id'], 'dev-lab_user');
    assert.equal(seen[0].headers['x-edgeattest-key-type'], 'personal');
    assert.match(seen[0].headers['x-edgeattest-scopes'], /lab:simulation_read/);

    const post = await fetch('/api/v3/simulations/import/', { method: 'POST', body: '{"topology":"x"}', headers: { authorization: `Bearer ${secret('svc-ci-simulations')}` } });
    assert.equal(post.status, 200);
    assert.equal(seen[1].body, '{"topology":"x"}');

    const anonymous = await fetch('/api/v3/simulations/');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="edgeattest"');
    assert.equal(anonymous.headers.get('access-control-expose-headers'), 'WWW-Authenticate');
    assert.equal((await anonymous.json()).code, 'ERR_ACCESS_NO_CREDENTIALS');

    const forbidden = await fetch('/api/v3/images/i1/publish/', { method: 'PATCH', headers: { authorization: `Bearer ${secret('dev-lab_image_uploader')}` } });
    assert.equal(forbidden.status, 403);
    const body = await forbidden.json();
    assert.deepEqual(body.requiredScopes, ['lab:image_publish']);
    assert.deepEqual(body.grantedScopes, ['lab:image_read', 'lab:image_write']);

    const bad = await fetch('/api/v3/simulations/', { headers: { authorization: 'Bearer' } });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('www-authenticate'), /error="invalid_request"/);

    const inUrl = await fetch(`/api/v3/simulations/?access_token=${secret('dev-lab_user')}`);
    assert.equal(inUrl.status, 400);

    const foreign = await fetch('/api/v3/simulations/', { headers: { authorization: `Bearer ${secret('svc-other-service')}` } });
    assert.equal(foreign.status, 401);
    assert.equal((await foreign.json()).code, 'ERR_ACCESS_INVALID_TOKEN');

    const unknown = await fetch('/api/v3/histories/', { headers: { authorization: `Bearer ${secret('dev-lab_user')}` } });
    assert.equal(unknown.status, 404);
    const method = await fetch('/api/v3/simulations/', { method: 'PUT', headers: { authorization: `Bearer ${secret('dev-lab_user')}` } });
    assert.equal(method.status, 405);
    assert.equal(method.headers.get('allow'), 'GET, HEAD, POST');

    const preflight = await fetch('/api/v3/simulations/s1/', { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, PATCH, DELETE, OPTIONS');

    // Only the two allowed requests reached the upstream.
    assert.equal(seen.length, 2);
  });
});

test('the gateway reads key records from a KV key-store binding', async () => {
  const now = Math.floor(Date.now() / 1000);
  const live = devKeySet(now, SEED);
  const secret = (id) => live.keys.find((k) => k.id === id).key;
  const records = live.keyStore.keys.filter((r) => r.id !== 'dev-lab_instructor');
  await withGateway({ kv: records }, async (fetch, seen) => {
    const ok = await fetch('/api/v3/images/', { headers: { authorization: `Bearer ${secret('svc-ci-readonly')}` } });
    assert.equal(ok.status, 200);
    assert.equal(seen[0].headers['x-edgeattest-key-id'], 'svc-ci-readonly');
    // A valid key whose record is not in the store: the same 401 as any unknown key.
    const missing = await fetch('/api/v3/trainings/', { headers: { authorization: `Bearer ${secret('dev-lab_instructor')}` } });
    assert.equal(missing.status, 401);
    assert.equal((await missing.json()).code, 'ERR_ACCESS_INVALID_TOKEN');
    assert.equal(seen.length, 1);
  });
});

test('the edge worker: a key store that does not parse closes the gateway with a coded 503, never opens it', async () => {
  const { startWorker } = await import('./support/worker.mjs');
  const worker = await startWorker({ bindings: { EDGEATTEST_API_KEYS: '{"keys":[', EDGEATTEST_SIM_UPSTREAM: 'http://127.0.0.1:9/' } });
  try {
    for (const authorization of [undefined, `Bearer ${key('dev-lab_user')}`]) {
      const response = await fetch(`${worker.origin}/api/v3/simulations/`, { headers: authorization ? { authorization } : {} });
      assert.equal(response.status, 503);
      // The code, not the parser's text about the configuration: that goes to the log.
      assert.deepEqual(await response.json(), { code: 'ERR_KEYSTORE_MALFORMED_JSON', message: "the gateway's key store is not usable", status: 503 });
    }
  } finally {
    await worker.stop();
  }
});
