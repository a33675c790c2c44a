// WebCrypto token verification (keys imported once, checks started as soon as their key is):
// the same results and the same failures, in the same order, as the software backend, on
// every pass over one key set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDetachedEat, createKeySet, generateKeyPair, signJwt, verifyAttestationResult, verifyJwt,
} from '../../pkg/index.js';
import { capture } from './support/fixtures.mjs';

const NOW = 1_800_000_000;
const ISS = 'https://nras.example';
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const options = (backend) => ({ backend, now: NOW, issuer: ISS, nonce: NONCE, signers: 'any' });

/** The settled outcome of a promise: its value, or the error's code, field and message. */
async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    const { code, field, message, verdicts, level } = error;
    return { code, field, message, verdicts, level };
  }
}

async function keys(kid) {
  const { privateKey, publicJwk } = await generateKeyPair({ backend: 'webcrypto', kid });
  return { privateKey, keySet: createKeySet({ keys: [{ ...publicJwk, kid }] }) };
}

/** `token` with one bit of its signature flipped. */
function forged(token) {
  const [h, p, s] = token.split('.');
  const signature = Buffer.from(s, 'base64url');
  signature[10] ^= 1;
  return `${h}.${p}.${b64url(signature)}`;
}

test('verifyJwt: a key set met again verifies alike, and every failure is still found, in order', async () => {
  const { privateKey, keySet } = await keys('k1');
  const claims = { iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE };
  const token = await signJwt(claims, privateKey, { kid: 'k1' });
  const expired = await signJwt({ ...claims, exp: NOW - 10 }, privateKey, { kid: 'k1' });
  const [h, , s] = token.split('.');
  const otherPayload = `${h}.${b64url(JSON.stringify({ ...claims, iss: 'https://other.example' }))}.${s}`;
  const cases = [
    [token, undefined],
    [forged(token), 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    [otherPayload, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    [expired, 'ERR_JWT_EXPIRED'],
    // Expired and forged: the signature fails first, before the claims are judged.
    [forged(expired), 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [input, code] of cases) {
      const web = await outcome(verifyJwt(input, keySet, options('webcrypto')));
      const soft = await outcome(verifyJwt(input, keySet, options('software')));
      assert.deepEqual(web, soft, `round ${round}, ${code ?? 'valid'}`);
      assert.equal(web.code, code);
      if (!code) assert.deepEqual(web.value.payload, claims);
    }
  }
});

test('verifyJwt: another key under the same kid and header is verified with the key the set holds', async () => {
  const first = await keys('k1');
  const second = await keys('k1');
  const claims = { iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE };
  const one = await signJwt(claims, first.privateKey, { kid: 'k1' });
  const two = await signJwt(claims, second.privateKey, { kid: 'k1' });
  assert.equal(one.split('.')[0], two.split('.')[0], 'the same protected header');
  for (let round = 0; round < 2; round++) {
    assert.deepEqual((await verifyJwt(one, first.keySet, options('webcrypto'))).payload, claims);
    assert.deepEqual((await verifyJwt(two, second.keySet, options('webcrypto'))).payload, claims);
    for (const [token, keySet] of [[one, second.keySet], [two, first.keySet]]) {
      const web = await outcome(verifyJwt(token, keySet, options('webcrypto')));
      assert.equal(web.code, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    }
  }
});

test('verifyAttestationResult: an 8-device result met again verifies alike; a forged token is found', async () => {
  const { privateKey, keySet } = await keys('k1');
  const device = (i) => ({ iss: ISS, iat: NOW, exp: NOW + 3600, eat_nonce: NONCE, ueid: String(i), measres: 'success' });
  const result = await createDetachedEat(
    { iss: ISS, iat: NOW, nbf: NOW, exp: NOW + 3600, eat_nonce: NONCE, 'x-nvidia-overall-att-result': true },
    Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`GPU-${i}`, device(i)])),
    privateKey,
    { kid: 'k1' },
  );
  const badDevice = structuredClone(result);
  badDevice[1]['GPU-3'] = forged(badDevice[1]['GPU-3']);
  const badOverall = structuredClone(result);
  badOverall[0][1] = forged(badOverall[0][1]);
  const at = (backend) => ({ ...options(backend), allowUnknownRevocation: true });
  for (let round = 0; round < 3; round++) {
    // A device token's new signature no longer matches its submods digest, checked first.
    for (const [input, code] of [[result, undefined], [badDevice, 'ERR_EAT_DIGEST_MISMATCH'], [badOverall, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED']]) {
      for (const form of [input, JSON.stringify(input)]) {
        const web = await outcome(verifyAttestationResult(form, keySet, at('webcrypto')));
        const soft = await outcome(verifyAttestationResult(form, keySet, at('software')));
        assert.deepEqual(web, soft, `round ${round}, ${code ?? 'valid'}`);
        assert.equal(web.code, code);
        if (code) assert.equal(web.verdicts.filter((v) => !v.verified).length, 1);
        else assert.equal(web.value.devices.length, 8);
      }
    }
  }
});

test('verifyAttestationResult: the recorded NRAS result, pinned, verifies alike on every pass', async () => {
  const c = capture('v3_8gpu_success_20260629');
  const keySet = createKeySet(c.jwks);
  const at = (backend) => ({ backend, now: c.iat, nonce: c.nonce });
  const soft = await verifyAttestationResult(c.response, keySet, at('software'));
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(await verifyAttestationResult(c.response, keySet, at('webcrypto')), soft);
  }
});
