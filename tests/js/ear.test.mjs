// The EAT Attestation Result (EAR) from the worker in workerd: asked for with the EAR media
// type or ?result=ear, it is a compact ES384 JWT that verifies with the service's JWKS under
// panva/jose, PyJWT and the package's verifyEar; the default answer is NVIDIA's JSON, with
// Vary: Accept; verifyEar refuses a wrong nonce, a tampered signature and another profile.
// A CWT EAR (binary, -04) verifies with edgeattest/local's verifyEar (WebCrypto and software
// backends, the same signer pinning, times and nonce rules); edgeattest's verifyEar refuses
// bytes with ERR_EAR_CWT_UNSUPPORTED.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as jose from 'jose';
import { buildAttestRequest, generateKeyPair, signJwt, verifyEar, verifyAttestationResult } from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import { startWorker } from './support/worker.mjs';
import { ls10 } from './support/fixtures.mjs';

const EAR_ACCEPT = 'application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"';
const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
const body = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', nonce, evidence: [ls10] }));

let worker;
let jwks;
before(async () => {
  worker = await startWorker({ chain: true });
  jwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
});
after(() => worker?.stop());

function attest(path, accept) {
  const headers = { 'content-type': 'application/json' };
  if (accept) headers.accept = accept;
  return fetch(`${worker.origin}${path}`, { method: 'POST', headers, body });
}

async function ear(path = '/v4/attest/switch', accept = EAR_ACCEPT) {
  const response = await attest(path, accept);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), EAR_ACCEPT);
  assert.equal(response.headers.get('vary'), 'Accept');
  return response.text();
}

// The worker's tests run without OCSP (startWorker): revocation is unchecked, so the switch's
// identity and its BIOS RIM's chain are a warning (32), not affirming — the mapping's rule for
// an unconfirmed revocation status.
const EXPECTED_SUBMOD = {
  label: 'SWITCH-0',
  status: 'warning',
  trustworthinessVector: { 'instance-identity': 32, configuration: 2, executables: 32, hardware: 2 },
  appraisalPolicyIds: [],
};

test('Accept and ?result=ear give an EAR that verifyEar and panva/jose verify', async () => {
  for (const [path, accept] of [['/v4/attest/switch', EAR_ACCEPT], ['/v4/attest/switch?result=ear', undefined], ['/v3/attest/switch', 'application/eat-jwt']]) {
    const token = await ear(path, accept);
    const read = await verifyEar(token, jwks, { nonce, maxTokenAge: 300, signers: worker.signers });
    assert.equal(read.status, 'warning', path);
    assert.equal(read.affirming, false);
    assert.equal(read.nonce, nonce);
    assert.equal(read.dialect, 'veraison');
    assert.equal(read.encoding, 'jwt');
    assert.equal(read.verifierId.developer, 'https://github.com/edgeattest/edgeattest');
    assert.deepEqual(read.submods, [EXPECTED_SUBMOD]);

    const { payload, protectedHeader } = await jose.jwtVerify(token, jose.createLocalJWKSet(jwks), { algorithms: ['ES384'], maxTokenAge: 300 });
    assert.equal(protectedHeader.alg, 'ES384');
    assert.equal(payload.eat_profile, 'tag:github.com,2023:veraison/ear');
    assert.equal(payload.eat_nonce, nonce);
    assert.deepEqual(payload.submods['SWITCH-0'], {
      'ear.status': 'warning',
      'ear.trustworthiness-vector': EXPECTED_SUBMOD.trustworthinessVector,
    });
  }
});

const python = spawnSync('python3', ['-c', 'import jwt, cryptography']).status === 0;
const PYJWT_CHECK = `
import json, sys, jwt
data = json.load(sys.stdin)
kid = jwt.get_unverified_header(data["token"])["kid"]
key = jwt.PyJWK(next(k for k in data["jwks"]["keys"] if k["kid"] == kid), algorithm="ES384")
claims = jwt.decode(data["token"], key.key, algorithms=["ES384"])
print(json.dumps(claims))
`;

test('the EAR verifies with PyJWT', async (t) => {
  if (!python) {
    t.skip('python3 with PyJWT and cryptography is absent (pkg-config/setup.sh installs them)');
    return;
  }
  const token = await ear();
  const run = spawnSync('python3', ['-c', PYJWT_CHECK], { input: JSON.stringify({ token, jwks }), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const claims = JSON.parse(run.stdout);
  assert.equal(claims.eat_nonce, nonce);
  assert.equal(claims.submods['SWITCH-0']['ear.status'], 'warning');
  // A tampered token is refused by PyJWT as well.
  const tampered = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  const refused = spawnSync('python3', ['-c', PYJWT_CHECK], { input: JSON.stringify({ token: tampered, jwks }), encoding: 'utf8' });
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /InvalidSignatureError|Signature verification failed/);
});

test('the default answer is NVIDIA\'s JSON with Vary: Accept; another EAT profile is 406; a bad result value 400', async () => {
  for (const accept of [undefined, 'application/json', '*/*']) {
    const response = await attest('/v4/attest/switch', accept);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('vary'), 'Accept');
    const result = await response.json();
    assert.equal(result[0][0], 'JWT');
    const verified = await verifyAttestationResult(result, jwks, { nonce, allowUnknownRevocation: true, signers: worker.signers });
    assert.equal(verified.overallResult, true);
  }
  // Draft -04: a JWT with its names (read as the dialect it is), and a binary CWT.
  const v04 = 'tag:ietf.org,2026:rats/ear#04';
  const jwt04 = await attest('/v4/attest/switch', `application/eat+jwt; eat_profile="${v04}"`);
  assert.equal(jwt04.status, 200);
  assert.equal(jwt04.headers.get('content-type'), `application/eat+jwt; eat_profile="${v04}"`);
  const read04 = await verifyEar(await jwt04.text(), jwks, { nonce, maxTokenAge: 300, signers: worker.signers });
  assert.equal(read04.dialect, 'ietf-04');
  assert.equal(read04.nonce, nonce);
  assert.deepEqual(read04.submods, [EXPECTED_SUBMOD]);
  const cwt = await attest('/v4/attest/switch', `application/eat+cwt; eat_profile="${v04}"`);
  assert.equal(cwt.status, 200);
  assert.equal(cwt.headers.get('content-type'), `application/eat+cwt; eat_profile="${v04}"`);
  assert.equal(new Uint8Array(await cwt.arrayBuffer())[0], 0xd2);
  const other = await attest('/v4/attest/switch', 'application/eat+jwt; eat_profile="tag:ietf.org,2026:rats/ear#03"');
  assert.equal(other.status, 406);
  assert.equal((await other.json()).code, 'ERR_NOT_ACCEPTABLE');
  const bad = await attest('/v4/attest/switch?result=cbor');
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json().then(({ code, field }) => ({ code, field })), { code: 'ERR_REQUEST_RESULT_FORMAT', field: 'result' });
  // A browser sends the EAR's Accept (a quoted parameter) after a preflight.
  const preflight = await fetch(`${worker.origin}/v4/attest/switch`, { method: 'OPTIONS' });
  assert.match(preflight.headers.get('access-control-allow-headers'), /\baccept\b/);
});

test('verifyEar refuses a wrong nonce, a tampered signature and another profile, each with its code', async () => {
  const token = await ear();
  await assert.rejects(verifyEar(token, jwks, { nonce: 'ab'.repeat(32), signers: worker.signers }), { code: 'ERR_EAT_NONCE_MISMATCH' });
  const [head, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url'));
  claims.submods['SWITCH-0']['ear.status'] = 'affirming';
  const forged = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  await assert.rejects(verifyEar(forged, jwks, { nonce, signers: worker.signers }), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });

  // Signed properly by a key of its own set, but another profile, or a tier no draft names.
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'rp-test' });
  const own = { keys: [publicJwk] };
  const other = await signJwt({ ...claims, eat_profile: 'tag:ietf.org,2026:rats/ear#03' }, privateKey, { kid: 'rp-test' });
  await assert.rejects(verifyEar(other, own, { nonce, signers: 'any' }), { code: 'ERR_EAR_PROFILE', field: 'eat_profile' });
  claims.submods['SWITCH-0']['ear.status'] = 'fine';
  const shapeless = await signJwt(claims, privateKey, { kid: 'rp-test' });
  await assert.rejects(verifyEar(shapeless, own, { nonce, signers: 'any' }), { code: 'ERR_EAR_SHAPE', field: 'submods/SWITCH-0/ear.status' });
  // A contraindicated EAR verifies, and says so.
  claims.submods['SWITCH-0']['ear.status'] = 'contraindicated';
  const negative = await verifyEar(await signJwt(claims, privateKey, { kid: 'rp-test' }), own, { nonce, signers: 'any' });
  assert.equal(negative.affirming, false);
  assert.equal(negative.status, 'contraindicated');
});

const CWT_ACCEPT = 'application/eat+cwt; eat_profile="tag:ietf.org,2026:rats/ear#04"';

async function cwtEar() {
  const response = await attest('/v4/attest/switch', CWT_ACCEPT);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), CWT_ACCEPT);
  return new Uint8Array(await response.arrayBuffer());
}

test('a CWT EAR from the service verifies with edgeattest/local\'s verifyEar, on either backend', async () => {
  const token = await cwtEar();
  for (const backend of ['webcrypto', 'software']) {
    const read = await local.verifyEar(token, jwks, { nonce, maxTokenAge: 300, signers: worker.signers, backend });
    assert.equal(read.encoding, 'cwt', backend);
    assert.equal(read.dialect, 'ietf-04');
    assert.equal(read.profile, 'tag:ietf.org,2026:rats/ear#04');
    assert.equal(read.status, 'warning');
    assert.equal(read.affirming, false);
    assert.equal(read.nonce, nonce);
    assert.deepEqual(read.submods, [EXPECTED_SUBMOD]);
  }
  // An ArrayBuffer (what response.arrayBuffer() gives) is read alike; a JWT still goes the JWT way.
  assert.equal((await local.verifyEar(token.slice().buffer, jwks, { nonce, signers: worker.signers })).encoding, 'cwt');
  assert.equal((await local.verifyEar(await ear(), jwks, { nonce, signers: worker.signers })).encoding, 'jwt');
  // The key-set resolver path (createRemoteJWKSet's shape): its signers pin the CWT too.
  const resolver = Object.assign(async () => jwks, { signers: worker.signers });
  assert.equal((await local.verifyEar(token, resolver, { nonce })).encoding, 'cwt');
});

test('a CWT EAR is refused when tampered, for a wrong nonce, an unpinned signer, too old; edgeattest refuses bytes', async () => {
  const token = await cwtEar();
  const options = { nonce, signers: worker.signers };
  // The signature's last byte flipped, and the payload changed under the same signature.
  const badSignature = token.slice();
  badSignature[badSignature.length - 1] ^= 1;
  for (const backend of ['webcrypto', 'software']) {
    await assert.rejects(local.verifyEar(badSignature, jwks, { ...options, backend }), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }, backend);
  }
  // The submodule's ear.status (label 1000: 0x19 0x03e8) is 32, warning (0x18 0x20).
  const bytes = Buffer.from(token);
  const status = bytes.indexOf(Buffer.from([0x19, 0x03, 0xe8, 0x18, 0x20]), bytes.indexOf('SWITCH-0'));
  assert.ok(status > 0, 'the CWT carries the submodule\'s warning status');
  const forged = token.slice();
  forged[status + 4] = 0x02; // 32 → 2, affirming
  await assert.rejects(local.verifyEar(forged, jwks, options), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  await assert.rejects(local.verifyEar(token, jwks, { ...options, nonce: 'ab'.repeat(32) }), { code: 'ERR_EAT_NONCE_MISMATCH' });
  // NVIDIA's anchors (the default signers) do not reach the worker's development root.
  await assert.rejects(local.verifyEar(token, jwks, { nonce }), { code: 'ERR_SIGNER_UNTRUSTED' });
  await assert.rejects(local.verifyEar(token, jwks, { ...options, maxTokenAge: 60, now: Date.now() / 1000 + 3600 }), { code: 'ERR_JWT_EXPIRED' });
  await assert.rejects(local.verifyEar(token, jwks, { ...options, issuer: 'https://attest.example.com' }), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
  await assert.rejects(local.verifyEar(token.subarray(0, 20), jwks, options), (error) => /^ERR_(CBOR|COSE)_/.test(error.code));
  // The default entry reads JWT EARs only: bytes are refused with a code naming the way out.
  for (const bytes of [token, token.slice().buffer]) {
    await assert.rejects(verifyEar(bytes, jwks, options), (error) => {
      assert.equal(error.name, 'EdgeAttestError');
      assert.equal(error.code, 'ERR_EAR_CWT_UNSUPPORTED');
      assert.equal(error.field, 'token');
      assert.match(error.message, /edgeattest\/local/);
      return true;
    });
  }
});
