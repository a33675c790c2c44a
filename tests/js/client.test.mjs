// The client entry (`edgeattest/client`): a wasm module built without the service, evidence,
// RIM, access, list and deprecation bindings. It exports what its types declare and nothing
// of the rest, and behaves as the full package (`edgeattest/service`) on the same inputs: requests built, recorded
// NVIDIA results verified at their time on both backends, tampering refused with the same
// codes, tokens it signs verified by the full package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as client from '../../pkg/client/index.js';
import * as full from '../../pkg/service/index.js';
import { fixtureText, hopper } from './support/fixtures.mjs';

const read = (name) => readFileSync(new URL(`../../pkg/${name}`, import.meta.url), 'utf8');
const manifest = JSON.parse(read('package.json'));
const list = (text, pattern) => [...text.matchAll(pattern)].flatMap((m) => m[1].split(',')).map((n) => n.trim()).filter(Boolean);

test('the package declares the client entry for every runtime condition', () => {
  assert.deepEqual(manifest.exports['./client'], {
    types: './client/index.d.ts', workerd: './client/workerd.js', worker: './client/workerd.js',
    deno: './client/node.js', node: './client/node.js', browser: './client/browser.js', default: './client/index.js',
  });
});

test('the client exports what its types declare, a subset of the full package, and no server API', () => {
  const wasmTypes = read('client/edgeattest.d.ts');
  const values = list(read('client/api.js'), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g);
  assert.deepEqual(list(read('client/api.d.ts'), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g), values);
  const declaredTypes = list(read('client/api.d.ts'), /export type \{([^}]*)\} from '\.\/edgeattest\.js'/g);
  const publicTypes = [...wasmTypes.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]).filter((n) => !/^(Sync)?Init(Input|Output)$/.test(n));
  for (const name of publicTypes) assert.ok(declaredTypes.includes(name), `type ${name} is re-exported`);
  for (const name of Object.keys(client)) {
    assert.equal(typeof client[name], typeof full[name], `${name} is the full package's ${name}`);
  }
  for (const name of ['generateNonce', 'buildAttestRequest', 'validateAttestRequest', 'verifyAttestationResult', 'verifyJwt', 'createKeySet', 'signJwt', 'createDetachedEat']) {
    assert.equal(typeof client[name], 'function', name);
  }
  for (const name of ['AttestationService', 'verifyEvidence', 'verifyRim', 'evaluateAccess', 'ListTable', 'deprecationNotices', 'handleRequest']) {
    assert.equal(client[name], undefined, `${name} is not in the client`);
    assert.match(read('service/edgeattest.d.ts') + read('service/service.d.ts'), new RegExp(`\\b${name}\\b`), `${name} is in the full package`);
  }
  assert.doesNotMatch(wasmTypes, /AttestationService|verifyEvidence|ListTable/);
});

test('requests: the same bodies and the same refusals as the full package', () => {
  const options = { endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: 'ab'.repeat(32), evidence: [hopper] };
  assert.deepEqual(client.buildAttestRequest(options), full.buildAttestRequest(options));
  const body = fixtureText('nras/teep/v3_8gpu_success_20260629_request.json');
  assert.deepEqual(client.validateAttestRequest('/v3/attest/gpu', body), full.validateAttestRequest('/v3/attest/gpu', body));
  for (const api of [client, full]) {
    assert.throws(() => api.buildAttestRequest({ ...options, nonce: 'short' }), { name: 'EdgeAttestError', code: 'ERR_REQUEST_INVALID_NONCE', field: 'nonce' });
  }
  assert.match(client.generateNonce(), /^[0-9a-f]{64}$/);
});

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

for (const backend of ['webcrypto', 'software']) {
  test(`recorded NVIDIA results verify at their time with the ${backend} backend, and tampering is refused`, async () => {
    for (const name of ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629']) {
      const result = JSON.parse(fixtureText(`nras/teep/${name}_response.json`));
      const jwks = JSON.parse(fixtureText(`nras/teep/${name}_jwks.json`));
      const nonce = JSON.parse(fixtureText(`nras/teep/${name}_request.json`)).nonce;
      const now = payload(result[0][1]).iat;
      const verified = await client.verifyAttestationResult(result, jwks, { nonce, now, backend });
      assert.equal(verified.devices.length, Object.keys(result[1]).length);
      const expired = await client.verifyAttestationResult(result, jwks, { nonce, now: now + 7200, backend }).catch((e) => e);
      const expiredFull = await full.verifyAttestationResult(result, jwks, { nonce, now: now + 7200, backend }).catch((e) => e);
      assert.equal(expired.code, expiredFull.code);
      assert.match(expired.code, /^ERR_JWT_/);
      const tampered = structuredClone(result);
      const label = Object.keys(tampered[1])[0];
      const [h, p, s] = tampered[1][label].split('.');
      tampered[1][label] = [h, p, s.slice(0, -2) + (s.endsWith('AA') ? 'BA' : 'AA')].join('.');
      const refused = await client.verifyAttestationResult(tampered, jwks, { nonce, now, backend }).catch((e) => e);
      assert.equal(refused.name, 'EdgeAttestError');
      assert.equal(refused.code, (await full.verifyAttestationResult(tampered, jwks, { nonce, now, backend }).catch((e) => e)).code);
    }
  });
}

test('tokens the client signs verify with the full package, and the reverse', async () => {
  const { privateKey, publicJwk } = await client.generateKeyPair({ kid: 'c1' });
  const jwks = client.createJwks([{ kid: 'c1', key: publicJwk }]);
  const token = await client.signJwt({ sub: 'x', iat: 100, exp: 4_000_000_000 }, privateKey, { kid: 'c1' });
  assert.equal((await full.verifyJwt(token, jwks, { now: 200 })).payload.sub, 'x');
  const other = await full.generateKeyPair({ kid: 'f1' });
  const fullToken = await full.signJwt({ sub: 'y', iat: 100 }, other.privateKey, { kid: 'f1' });
  const fullJwks = full.createJwks([{ kid: 'f1', key: other.publicJwk }]);
  assert.equal((await client.verifyJwt(fullToken, fullJwks, { now: 200 })).payload.sub, 'y');
});
