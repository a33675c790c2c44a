// The default entry (`edgeattest`; `edgeattest/client` before local verification moved out): a wasm
// module built without the local-verification, service, access, list and deprecation
// bindings. It exports what its types declare and nothing of the rest, and behaves as the full
// package (`edgeattest/service`) on the same inputs: requests built, recorded NVIDIA results
// verified at their time on both backends, tampering refused with the same codes, tokens it
// signs verified by the full package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as remote from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import * as full from '../../pkg/service/index.js';
import { fixtureText, hopper } from './support/fixtures.mjs';

const read = (name) => readFileSync(new URL(`../../pkg/${name}`, import.meta.url), 'utf8');
const manifest = JSON.parse(read('package.json'));
const list = (text, pattern) => [...text.matchAll(pattern)].flatMap((m) => m[1].split(',')).map((n) => n.trim()).filter(Boolean);

test('the entries are edgeattest, edgeattest/local, edgeattest/service and edgeattest/rego, each with its wasm file', () => {
  const entries = Object.keys(manifest.exports).filter((key) => !key.endsWith('.wasm') && key !== './package.json');
  assert.deepEqual(entries, ['.', './local', './service', './rego']);
  for (const entry of entries) assert.equal(manifest.exports[`${entry}/edgeattest_bg.wasm`]?.default, `${entry}/edgeattest_bg.wasm`, entry);
});

test('the default entry exports what its types declare, a subset of the local verifier, and no local or server API', () => {
  const wasmTypes = read('edgeattest.d.ts');
  const values = list(read('api.js'), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g);
  assert.deepEqual(list(read('api.d.ts'), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g), values);
  const declaredTypes = list(read('api.d.ts'), /export type \{([^}]*)\} from '\.\/edgeattest\.js'/g);
  const publicTypes = [...wasmTypes.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]).filter((n) => !/^(Sync)?Init(Input|Output)$/.test(n));
  for (const name of publicTypes) assert.ok(declaredTypes.includes(name), `type ${name} is re-exported`);
  for (const name of Object.keys(remote)) {
    assert.equal(typeof remote[name], typeof local[name], `${name} is the local verifier's ${name}`);
    assert.equal(typeof remote[name], typeof full[name], `${name} is the full package's ${name}`);
  }
  for (const name of ['generateNonce', 'buildAttestRequest', 'validateAttestRequest', 'verifyAttestationResult', 'verifyJwt', 'createKeySet', 'signJwt', 'createDetachedEat', 'appraise', 'verifyEar', 'createVerifyKeyCache']) {
    assert.equal(typeof remote[name], 'function', name);
  }
  for (const name of ['verifyEvidence', 'verifyEvidenceBatch', 'verifyRim', 'checkOcspResponses', 'fetchOcspStatus', 'runtimeEvidence']) {
    assert.equal(remote[name], undefined, `${name} is not in the default entry`);
    assert.equal(typeof local[name], 'function', `${name} is in edgeattest/local`);
  }
  for (const name of ['AttestationService', 'evaluateAccess', 'ListTable', 'deprecationNotices', 'handleRequest']) {
    assert.equal(remote[name], undefined, `${name} is not in the default entry`);
    assert.equal(local[name], undefined, `${name} is not in edgeattest/local`);
    assert.match(read('service/edgeattest.d.ts') + read('service/service.d.ts'), new RegExp(`\\b${name}\\b`), `${name} is in the full package`);
  }
  assert.doesNotMatch(wasmTypes, /AttestationService|verifyEvidence|ListTable|VerifiedRim/);
});

test('requests: the same bodies and the same refusals as the full package', () => {
  const options = { endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: 'ab'.repeat(32), evidence: [hopper] };
  assert.deepEqual(remote.buildAttestRequest(options), full.buildAttestRequest(options));
  const body = fixtureText('nras/teep/v3_8gpu_success_20260629_request.json');
  assert.deepEqual(remote.validateAttestRequest('/v3/attest/gpu', body), full.validateAttestRequest('/v3/attest/gpu', body));
  for (const api of [remote, full]) {
    assert.throws(() => api.buildAttestRequest({ ...options, nonce: 'short' }), { name: 'EdgeAttestError', code: 'ERR_REQUEST_INVALID_NONCE', field: 'nonce' });
  }
  assert.match(remote.generateNonce(), /^[0-9a-f]{64}$/);
});

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

for (const backend of ['webcrypto', 'software']) {
  test(`recorded NVIDIA results verify at their time with the ${backend} backend, and tampering is refused`, async () => {
    for (const name of ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629']) {
      const result = JSON.parse(fixtureText(`nras/teep/${name}_response.json`));
      const jwks = JSON.parse(fixtureText(`nras/teep/${name}_jwks.json`));
      const nonce = JSON.parse(fixtureText(`nras/teep/${name}_request.json`)).nonce;
      const now = payload(result[0][1]).iat;
      const verified = await remote.verifyAttestationResult(result, jwks, { nonce, now, backend });
      assert.equal(verified.devices.length, Object.keys(result[1]).length);
      const expired = await remote.verifyAttestationResult(result, jwks, { nonce, now: now + 7200, backend }).catch((e) => e);
      const expiredFull = await full.verifyAttestationResult(result, jwks, { nonce, now: now + 7200, backend }).catch((e) => e);
      assert.equal(expired.code, expiredFull.code);
      assert.match(expired.code, /^ERR_JWT_/);
      const tampered = structuredClone(result);
      const label = Object.keys(tampered[1])[0];
      const [h, p, s] = tampered[1][label].split('.');
      tampered[1][label] = [h, p, s.slice(0, -2) + (s.endsWith('AA') ? 'BA' : 'AA')].join('.');
      const refused = await remote.verifyAttestationResult(tampered, jwks, { nonce, now, backend }).catch((e) => e);
      assert.equal(refused.name, 'EdgeAttestError');
      assert.equal(refused.code, (await full.verifyAttestationResult(tampered, jwks, { nonce, now, backend }).catch((e) => e)).code);
    }
  });
}

test('tokens the default entry signs verify with the full package, and the reverse', async () => {
  const { privateKey, publicJwk } = await remote.generateKeyPair({ kid: 'c1' });
  const jwks = remote.createJwks([{ kid: 'c1', key: publicJwk }]);
  const token = await remote.signJwt({ sub: 'x', iat: 100, exp: 4_000_000_000 }, privateKey, { kid: 'c1' });
  assert.equal((await full.verifyJwt(token, jwks, { now: 200, signers: 'any' })).payload.sub, 'x');
  const other = await full.generateKeyPair({ kid: 'f1' });
  const fullToken = await full.signJwt({ sub: 'y', iat: 100 }, other.privateKey, { kid: 'f1' });
  const fullJwks = full.createJwks([{ kid: 'f1', key: other.publicJwk }]);
  assert.equal((await remote.verifyJwt(fullToken, fullJwks, { now: 200, signers: 'any' })).payload.sub, 'y');
});
