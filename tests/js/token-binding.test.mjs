// The raw token exports of the wasm module against recorded NRAS results: the options are the
// core's one reading (`VerifyInput`: its refusals name the option), a `TokenVerification` is a
// use-once `Pending` like every other, and key text is read by the core's one rule
// (`P384PrivateKey.fromText`, which importPrivateKey and a service's signingKey share).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importPrivateKey, importPublicKey } from '../../pkg/index.js'; // instantiates the wasm module
import {
  KeySet,
  P384PrivateKey,
  P384PublicKey,
  prepareAttestationResultVerification,
  prepareJwtVerification,
} from '../../pkg/edgeattest.js';

const fixture = (path) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const NAME = 'v3_8gpu_success_20260629';
const response = fixture(`nvidia/nras/teep/${NAME}_response.json`);
const keySet = new KeySet(fixture(`nvidia/nras/teep/${NAME}_jwks.json`));
const nonce = JSON.parse(fixture(`nvidia/nras/teep/${NAME}_request.json`)).nonce;
const iat = JSON.parse(Buffer.from(JSON.parse(response)[0][1].split('.')[1], 'base64url')).iat;

function refused(run, code, field) {
  assert.throws(run, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    assert.equal(error.field, field, error.message);
    return true;
  });
}

test('options are read by the core: a refusal names the option', () => {
  const prepare = (options) => prepareAttestationResultVerification(response, keySet, { now: iat, nonce, ...options });
  refused(() => prepare({ format: 'V1' }), 'ERR_INVALID_ARGUMENT', 'format');
  refused(() => prepare({ endpoint: '/v9/attest/gpu' }), 'ERR_INVALID_ARGUMENT', 'endpoint');
  refused(() => prepare({ format: 'detached', endpoint: '/v1/attest/gpu' }), 'ERR_INVALID_ARGUMENT', 'format');
  refused(() => prepare({ clockTolerance: -1 }), 'ERR_INVALID_ARGUMENT', 'clockTolerance');
  refused(() => prepare({ issuer: ['a', 7] }), 'ERR_INVALID_ARGUMENT', 'issuer[1]');
  refused(() => prepare({ now: -1 }), 'ERR_INVALID_ARGUMENT', 'now');
  refused(() => prepare({ format: 'v1' }).verifySoftware(), 'ERR_EAT_FORMAT_MISMATCH', 'result');
  // A Date is a time too; the endpoint's shape is expected; null is absent.
  const verified = prepare({ now: new Date(iat * 1000), endpoint: '/v3/attest/gpu', issuer: null }).verifySoftware();
  assert.deepEqual(Object.keys(verified), ['format', 'overall', 'devices', 'overallResult', 'evidenceForm', 'appraisal', 'revocationRelaxed', 'signer']);
  assert.equal(verified.evidenceForm, 'plain');
  assert.equal(verified.devices.length, 8);
  assert.deepEqual(Object.keys(verified.devices[0]), ['label', 'digest', 'payload', 'protectedHeader', 'kid', 'signer']);
  assert.equal(verified.appraisal.passed, true);
});

test('a TokenVerification is used once, with one boolean per check', () => {
  const verification = prepareAttestationResultVerification(response, keySet, { now: iat, nonce });
  const checks = verification.checks();
  assert.equal(checks.length, 9);
  assert.ok(checks[0].publicKey instanceof Uint8Array && checks[0].publicKey.length === 97);
  refused(() => verification.finish('yes'), 'ERR_INVALID_ARGUMENT', 'verdicts');
  refused(() => verification.finish([1]), 'ERR_INVALID_ARGUMENT', 'verdicts[0]');
  // A malformed list leaves it usable; a wrong count uses it up.
  const verdicts = checks.map((_, i) => i !== 4);
  const error = (() => { try { verification.finish(verdicts); } catch (e) { return e; } })();
  assert.equal(error.code, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
  assert.equal(error.verdicts.length, 9);
  assert.deepEqual(error.verdicts.filter((v) => !v.verified).map((v) => [v.label, v.code, v.field, v.payload]),
    [[error.field, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'signature', null]]);
  refused(() => verification.finish(verdicts), 'ERR_BATCH_CONSUMED', undefined);
  refused(() => verification.verifySoftware(), 'ERR_BATCH_CONSUMED', undefined);
  refused(() => verification.checks(), 'ERR_BATCH_CONSUMED', undefined);

  const token = Object.values(JSON.parse(response)[1])[0];
  const jwt = prepareJwtVerification(token, keySet, { now: iat, nonce, issuer: 'https://nras.attestation.nvidia.com' });
  refused(() => jwt.finish([true, true]), 'ERR_VERDICT_COUNT', undefined);
  refused(() => jwt.finish([true]), 'ERR_BATCH_CONSUMED', undefined);
  const again = prepareJwtVerification(token, keySet, { now: iat });
  assert.deepEqual(Object.keys(again.finish([true])), ['payload', 'protectedHeader', 'kid', 'signer']);
});

test('key text is read by the core rule: a JWK starts with {, anything else is PEM', async () => {
  const pem = fixture('generated/token_signing_key.pem');
  const key = P384PrivateKey.fromText(pem);
  const jwk = key.toJwk('k');
  for (const input of [pem, `\n  ${JSON.stringify(jwk)}`, JSON.stringify(jwk), jwk]) {
    assert.deepEqual(P384PrivateKey.fromText(input).toJwk('k'), jwk);
    assert.deepEqual((await importPrivateKey(input, { backend: 'software' })).toJwk('k'), jwk);
  }
  const publicPem = key.publicKey().toSpkiPem();
  const { d: _private, ...publicJwk } = jwk;
  for (const input of [publicPem, JSON.stringify(publicJwk), publicJwk]) {
    assert.equal(P384PublicKey.fromText(input).toSpkiPem(), publicPem);
    assert.equal(importPublicKey(input).toSpkiPem(), publicPem);
  }
  refused(() => P384PrivateKey.fromText('not a key'), 'ERR_KEY_ENCODING_INVALID', undefined);
  refused(() => P384PrivateKey.fromText(publicPem), 'ERR_KEY_ENCODING_INVALID', undefined);
  refused(() => P384PrivateKey.fromText(JSON.stringify(publicJwk)), 'ERR_JWK_INVALID', 'd');
  refused(() => P384PrivateKey.fromText({ ...jwk, crv: 'P-256' }), 'ERR_JWK_UNSUPPORTED', 'crv');
  refused(() => P384PrivateKey.fromText(42), 'ERR_INVALID_ARGUMENT', 'jwk');
  refused(() => P384PublicKey.fromText('{'), 'ERR_JWK_INVALID', 'jwk');
  await assert.rejects(importPrivateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'), { code: 'ERR_KEY_ENCODING_INVALID' });
});
