// The token API of the release package (pkg/) in Node: both backends on every Wycheproof
// ECDSA P-384 vector, the recorded service exchanges, attacks, and interoperability with
// panva/jose and PyJWT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash, createPublicKey } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as jose from 'jose';
import {
  createDetachedEat,
  createJwks,
  createKeySet,
  createV1Result,
  exportJwk,
  exportPkcs8,
  exportSpki,
  generateKeyPair,
  getTokenBackend,
  importPrivateKey,
  importPublicKey,
  setTokenBackend,
  signJwt,
  verifyAttestationResult,
  verifyChecksSoftware,
  verifyChecksWebCrypto,
  verifyJwt,
  P384PrivateKey,
} from '../../pkg/index.js';
import { capture } from './support/fixtures.mjs';

const BACKENDS = ['webcrypto', 'software'];
const fixtures = new URL('../fixtures/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const hex = (text) => Uint8Array.from(Buffer.from(text, 'hex'));
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const NOW = 1_800_000_000;
const ISS = 'https://nras.example';
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';

async function rejectsWith(promise, code, field) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.name, 'EdgeAttestError', error.stack);
    assert.equal(error.code, code, error.message);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

const CAPTURES = ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520'];

test('WebCrypto is the default backend in Node and can be overridden', () => {
  assert.equal(getTokenBackend(), 'webcrypto');
  setTokenBackend('software');
  assert.equal(getTokenBackend(), 'software');
  setTokenBackend();
  assert.equal(getTokenBackend(), 'webcrypto');
  assert.throws(() => setTokenBackend('openssl'), { code: 'ERR_INVALID_ARGUMENT' });
});

test('Wycheproof P1363: both backends agree with every vector (280)', async () => {
  const file = json('vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json');
  const checks = [];
  const expected = [];
  for (const group of file.testGroups) {
    const publicKey = hex(group.publicKey.uncompressed);
    for (const t of group.tests) {
      checks.push({ publicKey, message: hex(t.msg), signature: hex(t.sig) });
      expected.push(t.result === 'valid');
    }
  }
  assert.equal(checks.length, 280);
  assert.deepEqual(await verifyChecksWebCrypto(checks), expected);
  assert.deepEqual(verifyChecksSoftware(checks), expected);
  assert.equal(expected.filter(Boolean).length, 193);
});

test('Wycheproof DER: both backends refuse every DER signature (504)', async () => {
  const file = json('vectors/wycheproof/ecdsa_secp384r1_sha384_test.json');
  const checks = file.testGroups.flatMap((group) =>
    group.tests.map((t) => ({ publicKey: hex(group.publicKey.uncompressed), message: hex(t.msg), signature: hex(t.sig) })),
  );
  assert.equal(checks.length, 504);
  assert.ok((await verifyChecksWebCrypto(checks)).every((v) => v === false));
  assert.ok(verifyChecksSoftware(checks).every((v) => v === false));
});

for (const backend of BACKENDS) {
  test(`recorded service results verify at their time and expire an hour later (${backend})`, async () => {
    for (const name of CAPTURES) {
      const c = capture(name);
      // The failed capture is refused by default (verdict.test.mjs); read it here.
      const options = { backend, issuer: 'https://nras.attestation.nvidia.com', nonce: c.nonce, now: c.iat, allowFailedResult: true };
      const verified = await verifyAttestationResult(c.response, c.jwks, options);
      assert.equal(verified.format, 'detached');
      assert.equal(verified.overallResult, !name.includes('mismatch'));
      assert.equal(verified.devices.length, Object.keys(c.response[1]).length);
      for (const device of verified.devices) {
        const text = c.response[1][device.label];
        assert.equal(device.digest, createHash('sha256').update(text).digest('hex'));
      }
      // Text and bytes are accepted as well as the parsed value.
      await verifyAttestationResult(JSON.stringify(c.response), JSON.stringify(c.jwks), options);
      await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...options, now: c.iat + 3600 }), 'ERR_JWT_EXPIRED', 'exp');
      await rejectsWith(
        verifyAttestationResult(c.response, c.jwks, { ...options, currentDate: new Date((c.iat + 3600) * 1000), now: undefined }),
        'ERR_JWT_EXPIRED',
      );
    }
  });

  test(`attacks are refused with their own codes (${backend})`, async () => {
    const c = capture('v3_1gpu_success_20260629');
    const other = capture('v3_8gpu_success_20260629');
    const options = { backend, nonce: c.nonce, now: c.iat };
    const swapped = [c.response[0], { 'GPU-0': other.response[1]['GPU-0'] }];
    await rejectsWith(verifyAttestationResult(swapped, c.jwks, options), 'ERR_EAT_DIGEST_MISMATCH', 'GPU-0');
    // Per-token verdicts ride on the error.
    const eight = { ...options, nonce: other.nonce, now: other.iat };
    const forged = [other.response[0], { ...other.response[1], 'GPU-3': other.response[1]['GPU-3'].replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')) }];
    const error = await verifyAttestationResult(forged, other.jwks, eight).catch((e) => e);
    assert.equal(error.code, 'ERR_EAT_DIGEST_MISMATCH');
    assert.equal(error.field, 'GPU-3');
    assert.equal(error.verdicts.length, 9);
    assert.deepEqual(error.verdicts[0].label, null);
    assert.equal(error.verdicts[0].verified, true);
    assert.equal(error.verdicts[0].payload.eat_nonce, other.nonce);
    const bad = error.verdicts.filter((v) => !v.verified);
    assert.deepEqual(bad.map((v) => [v.label, v.code, v.digest]), [['GPU-3', 'ERR_EAT_DIGEST_MISMATCH', null]]);
    assert.ok(error.verdicts.filter((v) => v.label?.startsWith('GPU')).every((v) => v.verified === (v.label !== 'GPU-3')));
    const [h, p, s] = c.response[0][1].split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url'));
    claims.submods['GPU-0'][1][1] = '0'.repeat(64);
    const tampered = [['JWT', `${h}.${b64url(JSON.stringify(claims))}.${s}`], c.response[1]];
    await rejectsWith(verifyAttestationResult(tampered, c.jwks, options), 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    const none = `${b64url('{"alg":"none"}')}.${p}.`;
    await rejectsWith(verifyJwt(none, c.jwks, options), 'ERR_JWS_UNSECURED', 'alg');
    const zero = `${h}.${p}.${b64url(new Uint8Array(96))}`;
    await rejectsWith(verifyJwt(zero, c.jwks, options), 'ERR_JWS_SIGNATURE_MALFORMED');
    await rejectsWith(verifyAttestationResult(c.response, json('nvidia/nras/teep/v3_8gpu_nonce_mismatch_20260520_jwks.json'), options), 'ERR_JWKS_NO_MATCHING_KEY');
    await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...options, nonce: 'ab'.repeat(32) }), 'ERR_EAT_NONCE_MISMATCH');
    await rejectsWith(verifyJwt(`${h}.${p}.${s}=`, c.jwks, options), 'ERR_JWS_INVALID_BASE64', 'signature');
  });

  test(`minted tokens round-trip and jose verifies them (${backend})`, async () => {
    const { privateKey, publicJwk } = await generateKeyPair({ backend, kid: 'k1' });
    assert.equal(publicJwk.d, undefined);
    const jwks = createJwks([{ kid: 'k1', key: publicJwk }]);
    const claims = { iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE };
    const token = await signJwt(claims, privateKey, { kid: 'k1' });
    assert.equal(Buffer.from(token.split('.')[0], 'base64url').toString(), '{"kid":"k1","alg":"ES384"}');
    for (const verifyBackend of BACKENDS) {
      const verified = await verifyJwt(token, jwks, { backend: verifyBackend, now: NOW, signers: 'any', issuer: ISS, nonce: NONCE });
      assert.deepEqual(verified.payload, claims);
      assert.equal(verified.kid, 'k1');
    }
    const { payload, protectedHeader } = await jose.jwtVerify(token, jose.createLocalJWKSet(jwks), {
      algorithms: ['ES384'],
      issuer: ISS,
      currentDate: new Date(NOW * 1000),
    });
    assert.deepEqual(payload, claims);
    assert.deepEqual(protectedHeader, { kid: 'k1', alg: 'ES384' });

    const result = await createDetachedEat(
      { iss: ISS, iat: NOW, nbf: NOW, exp: NOW + 3600, eat_nonce: NONCE, 'x-nvidia-overall-att-result': true },
      // Device tokens need a verdict claim (measres) to be read; they carry no chain claims,
      // so revocation is unconfirmed and allowed below (tests/js/revocation-verdict.test.mjs).
      Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`GPU-${i}`, { iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE, ueid: String(i), measres: 'success' }])),
      privateKey,
      { kid: 'k1' },
    );
    const overall = await jose.jwtVerify(result[0][1], jose.createLocalJWKSet(jwks), { currentDate: new Date(NOW * 1000) });
    for (const [label, device] of Object.entries(result[1])) {
      await jose.jwtVerify(device, jose.createLocalJWKSet(jwks), { currentDate: new Date(NOW * 1000) });
      const digest = createHash('sha256').update(device).digest('hex');
      assert.deepEqual(overall.payload.submods[label], ['DIGEST', ['SHA-256', digest]]);
    }
    for (const verifyBackend of BACKENDS) {
      const verified = await verifyAttestationResult(result, jwks, { backend: verifyBackend, now: NOW, signers: 'any', nonce: NONCE, allowUnknownRevocation: true });
      assert.equal(verified.devices.length, 8);
      assert.equal(verified.revocationRelaxed, true);
      assert.equal(verified.overallResult, true);
    }
    assert.deepEqual(createV1Result(token), { eat: token });
    // A V1 token carries the service's verdict; V1 is verified only when asked for.
    const v1Token = await signJwt({ ...claims, 'x-nvidia-overall-att-result': true, measres: 'comparison-successful' }, privateKey, { kid: 'k1' });
    const v1 = await verifyAttestationResult(createV1Result(v1Token), jwks, { backend, now: NOW, signers: 'any', format: 'v1', allowUnknownRevocation: true });
    assert.equal(v1.format, 'v1');
    assert.equal(v1.overallResult, true);
    await rejectsWith(verifyAttestationResult(createV1Result(v1Token), jwks, { backend, now: NOW, signers: 'any' }), 'ERR_EAT_FORMAT_MISMATCH', 'result');
    await rejectsWith(verifyAttestationResult(createV1Result(token), jwks, { backend, now: NOW, signers: 'any', format: 'v1' }), 'ERR_EAT_V1_TOKEN_INVALID', 'x-nvidia-overall-att-result');
  });
}

test('the result shape is named by the caller (format or endpoint), never guessed', async () => {
  for (const name of CAPTURES) {
    const c = capture(name);
    const at = { now: c.iat };
    const overall = c.response[0][1];
    // The overall token re-wrapped as V1: refused by default, and as a V1 token.
    await rejectsWith(verifyAttestationResult({ eat: overall }, c.jwks, at), 'ERR_EAT_FORMAT_MISMATCH', 'result');
    await rejectsWith(verifyAttestationResult({ eat: overall }, c.jwks, { ...at, format: 'v1' }), 'ERR_EAT_V1_TOKEN_INVALID', 'submods');
    await rejectsWith(verifyAttestationResult({ eat: overall }, c.jwks, { ...at, endpoint: '/v1/attest/gpu' }), 'ERR_EAT_V1_TOKEN_INVALID', 'submods');
    // A device token as V1.
    for (const device of Object.values(c.response[1])) {
      await rejectsWith(verifyAttestationResult({ eat: device }, c.jwks, { ...at, format: 'v1' }), 'ERR_EAT_V1_TOKEN_INVALID', 'x-nvidia-overall-att-result');
    }
    // The detached result: refused when V1 is expected, verified for its own endpoint.
    await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...at, format: 'v1' }), 'ERR_EAT_FORMAT_MISMATCH', 'result');
    await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...at, endpoint: '/v1/attest/gpu' }), 'ERR_EAT_FORMAT_MISMATCH', 'result');
    const verified = await verifyAttestationResult(c.response, c.jwks, { ...at, endpoint: '/v3/attest/gpu', format: 'detached', allowFailedResult: true });
    assert.equal(verified.format, 'detached');
    assert.ok(verified.devices.length > 0);
  }
  const c = capture(CAPTURES[0]);
  const at = { now: c.iat };
  await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...at, format: 'v1', endpoint: '/v3/attest/gpu' }), 'ERR_INVALID_ARGUMENT', 'format');
  await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...at, format: 'V1' }), 'ERR_INVALID_ARGUMENT', 'format');
  await rejectsWith(verifyAttestationResult(c.response, c.jwks, { ...at, endpoint: '/v9/attest/gpu' }), 'ERR_INVALID_ARGUMENT', 'endpoint');
});

test('a detached result with zero devices is never a pass', async () => {
  const { privateKey, publicJwk } = await generateKeyPair({ backend: 'software', kid: 'k0' });
  const jwks = createJwks([{ kid: 'k0', key: publicJwk }]);
  const claims = { iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE, 'x-nvidia-overall-att-result': true };
  const empty = await signJwt({ ...claims, submods: {} }, privateKey, { kid: 'k0' });
  await rejectsWith(verifyAttestationResult([['JWT', empty], {}], jwks, { now: NOW, signers: 'any' }), 'ERR_EAT_NO_DEVICES', 'result[1]');
  const device = await signJwt(claims, privateKey, { kid: 'k0' });
  await rejectsWith(verifyAttestationResult([['JWT', empty], { 'GPU-0': device }], jwks, { now: NOW, signers: 'any' }), 'ERR_EAT_NO_DEVICES', 'submods');
});

test('ES384 tokens minted by jose verify with ours, on both backends', async () => {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES384');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'jose-key' };
  const claims = { iss: ISS, sub: 'device', eat_nonce: NONCE };
  const token = await new jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'ES384', kid: 'jose-key', typ: 'JWT' })
    .setIssuedAt(NOW)
    .setExpirationTime(NOW + 600)
    .setAudience(['rp-1', 'rp-2'])
    .sign(privateKey);
  for (const backend of BACKENDS) {
    const verified = await verifyJwt(token, { keys: [jwk] }, { backend, now: NOW, signers: 'any', issuer: ISS, typ: 'JWT', nonce: NONCE, maxTokenAge: 60 });
    assert.equal(verified.payload.sub, 'device');
    await verifyJwt(token, { keys: [jwk] }, { backend, now: NOW, signers: 'any', audience: 'rp-2' });
    await rejectsWith(verifyJwt(token, { keys: [jwk] }, { backend, now: NOW, signers: 'any', audience: ['rp-3'] }), 'ERR_JWT_CLAIM_VALIDATION_FAILED', 'aud');
    await rejectsWith(verifyJwt(token, { keys: [jwk] }, { backend, now: NOW + 600, signers: 'any' }), 'ERR_JWT_EXPIRED');
    await rejectsWith(verifyJwt(token, { keys: [jwk] }, { backend, now: NOW + 61, maxTokenAge: 60, signers: 'any' }), 'ERR_JWT_EXPIRED', 'iat');
  }
  // jose's ES256 and HS384 tokens are refused, whatever the key.
  const hs = await new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS384', kid: 'jose-key' }).sign(new TextEncoder().encode(JSON.stringify(jwk)));
  await rejectsWith(verifyJwt(hs, { keys: [jwk] }, { now: NOW, signers: 'any' }), 'ERR_JOSE_ALG_NOT_ALLOWED', 'alg');
});

test('tokens we mint verify with PyJWT', async () => {
  const software = await generateKeyPair({ backend: 'software', kid: 'py' });
  const webcrypto = await generateKeyPair({ backend: 'webcrypto', kid: 'py' });
  const cases = [];
  for (const { privateKey, publicJwk } of [software, webcrypto]) {
    const iat = Math.floor(Date.now() / 1000) - 10; // PyJWT checks times against its own clock
    const token = await signJwt({ iss: ISS, iat, exp: iat + 600, eat_nonce: NONCE }, privateKey, { kid: 'py' });
    cases.push({ token, pem: await exportSpki(importPublicKey(publicJwk)) });
  }
  const script = `
import json, sys, jwt
out = []
for case in json.load(sys.stdin):
    header = jwt.get_unverified_header(case["token"])
    claims = jwt.decode(case["token"], case["pem"], algorithms=["ES384"], issuer="${ISS}")
    out.append([header, claims["eat_nonce"]])
print(json.dumps(out))
`;
  const out = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(cases) }).toString());
  assert.deepEqual(out, [
    [{ kid: 'py', alg: 'ES384' }, NONCE],
    [{ kid: 'py', alg: 'ES384' }, NONCE],
  ]);
});

test('keys import and export through JWK, SPKI and PKCS#8', async () => {
  const key = P384PrivateKey.generate();
  const pem = exportPkcs8(key);
  assert.match(pem, /^-----BEGIN PRIVATE KEY-----\n/);
  const jwk = await exportJwk(key, { kid: 'a' });
  assert.equal(jwk.d.length, 64);
  // Node's own parser reads our SPKI as the same point.
  const spki = await exportSpki(key);
  const nodeJwk = createPublicKey(spki).export({ format: 'jwk' });
  assert.deepEqual([nodeJwk.x, nodeJwk.y, nodeJwk.crv], [jwk.x, jwk.y, 'P-384']);
  // A PKCS#8 key imported into WebCrypto signs tokens our software key's JWKS verifies.
  const cryptoKey = await importPrivateKey(pem);
  assert.equal(cryptoKey.extractable, false);
  assert.deepEqual(cryptoKey.usages, ['sign']);
  const jwks = createJwks([{ kid: 'a', key }]);
  const token = await signJwt({ n: 1 }, cryptoKey, { kid: 'a' });
  assert.deepEqual((await verifyJwt(token, jwks, { backend: 'software', now: NOW, signers: 'any' })).payload, { n: 1 });
  const fromJwk = await importPrivateKey(jwk, { backend: 'software' });
  assert.deepEqual(await exportJwk(fromJwk, { kid: 'a' }), jwk);
  // Off-curve points and other curves are refused.
  assert.throws(() => importPublicKey({ ...jwk, d: undefined, y: jwk.x }), { code: 'ERR_KEY_NOT_ON_CURVE' });
  assert.throws(() => importPublicKey({ ...jwk, crv: 'P-256' }), { code: 'ERR_JWK_UNSUPPORTED', field: 'crv' });
  assert.throws(() => createJwks([{ kid: 'a', key }, { kid: 'a', key: key.publicKey() }]), { code: 'ERR_JWKS_INVALID' });
  assert.throws(() => createKeySet({ keys: [jwk] }), { code: 'ERR_JWKS_INVALID', field: 'keys[0].d' });
  await assert.rejects(signJwt({}, key, {}), { code: 'ERR_INVALID_ARGUMENT', field: 'kid' });
});

test('a JWKS object changed after use is read again (key rotation)', async () => {
  const first = P384PrivateKey.generate();
  const second = P384PrivateKey.generate();
  const jwks = createJwks([{ kid: 'one', key: first }]);
  const token = await signJwt({ n: 2 }, second, { kid: 'two' });
  await rejectsWith(verifyJwt(token, jwks, { now: NOW, signers: 'any' }), 'ERR_JWKS_NO_MATCHING_KEY', 'kid');
  jwks.keys.push(createJwks([{ kid: 'two', key: second }]).keys[0]);
  assert.deepEqual((await verifyJwt(token, jwks, { now: NOW, signers: 'any' })).payload, { n: 2 });
  jwks.keys.pop();
  await rejectsWith(verifyJwt(token, jwks, { now: NOW, signers: 'any' }), 'ERR_JWKS_NO_MATCHING_KEY');
});

test('the token API types compile against typed usage (tsc --strict)', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const dir = new URL('../artifacts/token-types/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('usage.ts', dir), `
import {
  verifyJwt, verifyAttestationResult, signJwt, createDetachedEat, createJwks, createKeySet,
  generateKeyPair, importPrivateKey, importPublicKey, exportJwk, exportSpki, createV1Result,
  verifyChecksWebCrypto, verifyChecksSoftware, setTokenBackend, KeySet, P384PrivateKey,
  createRemoteJWKSet, type VerifiedAttestationResultData, type P384Jwk, type EdgeAttestError,
  type Signers, type RemoteJWKSet, type VerifiedSigner,
} from '../../../pkg/index.js';

export async function usage(jwks: { keys: object[] }): Promise<boolean | null> {
  setTokenBackend('software');
  const set: KeySet = createKeySet(jwks);
  const jwt = await verifyJwt('a.b.c', set, { issuer: ['x'], nonce: 'n', clockTolerance: 5, now: 1 });
  const kid: string | null = jwt.kid;
  const pinned: boolean = jwt.signer.pinned;
  const anchor: string | undefined = jwt.signer.anchor;
  const subjects: string[] = (jwt.signer.chain ?? []).map((link) => link.subject + link.notAfter);
  const signers: Signers = [{ spkiSha256: 'ab'.repeat(32) }, { certificate: '-----BEGIN CERTIFICATE-----' }];
  await verifyJwt('a.b.c', set, { signers, now: 1 });
  await verifyJwt('a.b.c', set, { signers: 'any', now: 1 });
  const remote: RemoteJWKSet = createRemoteJWKSet('https://example.com/jwks.json', { signers });
  const its: Signers | undefined = remote.signers;
  const result: VerifiedAttestationResultData = await verifyAttestationResult([], remote, { currentDate: new Date() });
  const who: VerifiedSigner = result.signer;
  const labels: string[] = result.devices.map((d) => d.label + d.digest + String(d.payload.iss));
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k' });
  const jwk: P384Jwk = publicJwk;
  const token: string = await signJwt({ a: 1 }, privateKey, { kid: 'k' });
  const eat = await createDetachedEat({}, { 'GPU-0': token }, privateKey, { kid: 'k' });
  const overall: string = eat[0][1];
  const software = P384PrivateKey.generate();
  const pem: string = await exportSpki(software);
  const again = importPublicKey(pem);
  const exported: P384Jwk = await exportJwk(again, { kid: 'k' });
  const imported = await importPrivateKey(software.toPkcs8Pem());
  const set2 = createJwks([{ kid: 'k', key: jwk, x5c: [] }]);
  const v1: { eat: string } = createV1Result(token);
  const verdicts: boolean[] = await verifyChecksWebCrypto([{ publicKey: new Uint8Array(97), message: new Uint8Array(), signature: new Uint8Array(96) }]);
  const soft: boolean[] = verifyChecksSoftware([]);
  set.free();
  software.free();
  void [kid, pinned, anchor, subjects, its, who, labels, overall, exported, imported, set2, v1, verdicts, soft];
  return result.overallResult;
}
export function code(error: EdgeAttestError): string { return error.code + (error.field ?? ''); }
`);
  try {
    execFileSync(new URL('../../node_modules/.bin/tsc', import.meta.url).pathname, [
      '--strict', '--noEmit', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext',
      // ESNext.Disposable: the generated classes name Symbol.dispose (TypeScript 5.2+).
      '--lib', 'ES2022,DOM,ESNext.Disposable', '--skipLibCheck', 'false', new URL('usage.ts', dir).pathname,
    ], { encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
});
