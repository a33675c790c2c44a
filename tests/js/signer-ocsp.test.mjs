// The host side of the signer chain's OCSP (fetchSignerOcsp): a result signed under the test
// token-signing PKI whose leaves carry an AIA OCSP URL (tests/fixtures/generated/signer_ocsp/)
// and pinned to its root; the core names what to ask and where, this module asks (each POST
// within its timeout, the AIA URL by default, `url` overriding it), and the core judges the
// answers under the revocation policy's signerChain rule: a pass resolves, a refusal rejects
// with its code and the status as `revocation`. The answers are real OCSP responses made by
// `openssl ocsp` as the root's delegated responder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  importPrivateKey, createDetachedEat, createJwks, generateNonce, verifyAttestationResult, fetchSignerOcsp,
  createRemoteJWKSet,
} from '../../pkg/local/index.js';
import { signerOcspAnswer } from './support/ocsp-responder.mjs';

const PKI = fileURLToPath(new URL('../fixtures/generated/signer_ocsp/', import.meta.url));
const AIA_URL = 'http://ocsp.signer.test/';
const pemBlocks = (text) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g);
const base64 = (block) => block.replace(/-----[A-Z ]+-----|\s/g, '');

/**
 * A fetch that answers OCSP POSTs with openssl (`mode` 'answer'), or never answers ('silent':
 * only the caller's timeout ends it), recording every URL asked.
 */
function responder(mode = 'answer') {
  const asked = [];
  const fetch = async (url, init) => {
    asked.push(String(url));
    if (mode === 'silent') {
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    const body = await signerOcspAnswer(Buffer.from(init.body));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/ocsp-response' } });
  };
  return { fetch, asked };
}

/** A result signed by the `status` leaf, its key set carrying [leaf, root], verified pinned to the root. */
async function signedBy(status) {
  const kid = `signer-${status}`;
  const chain = readFileSync(join(PKI, `chain_${status}.pem`), 'utf8');
  const key = await importPrivateKey(readFileSync(join(PKI, `leaf_${status}_key.pem`), 'utf8'), { backend: 'software' });
  const jwks = createJwks([{ kid, key, x5c: pemBlocks(chain).map(base64) }]);
  const nonce = generateNonce();
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'https://edgeattest.test', iat: now, nbf: now, exp: now + 600, eat_nonce: nonce };
  const good = { 'x-nvidia-gpu-attestation-report-cert-chain': { 'x-nvidia-cert-status': 'valid', 'x-nvidia-cert-ocsp-status': 'good' } };
  const result = await createDetachedEat({ ...claims, 'x-nvidia-overall-att-result': true },
    { 'GPU-0': { ...claims, measres: 'success', ...good } }, key, { kid });
  const signers = [{ certificate: readFileSync(join(PKI, 'root.pem'), 'utf8') }];
  const verified = await verifyAttestationResult(result, jwks, { nonce, signers });
  return { verified, jwks, signers, now };
}

/** fetchSignerOcsp asking every time (the cache is tested on its own). */
const ask = (verified, jwks, options) => fetchSignerOcsp(verified, jwks, { cache: false, ...options });

test('signer OCSP: a good leaf is asked at its AIA URL and reported good', async () => {
  const { verified, jwks, signers } = await signedBy('good');
  assert.equal(verified.signer.pinned, true);
  const { fetch, asked } = responder();
  const revocation = await ask(verified, jwks, { signers, fetch });
  assert.deepEqual(asked, [AIA_URL], 'the AIA URL, once');
  assert.equal(revocation.status, 'good');
  assert.deepEqual(revocation.warnings, []);
  assert.equal(revocation.code, undefined);
  assert.match(revocation.anchor, /Test Signer OCSP Root CA/);
  assert.deepEqual(revocation.certificates.map((c) => [c.status, c.nonce]), [['good', 'matched']]);
});

test('signer OCSP: `url` overrides the AIA URL', async () => {
  const { verified, jwks, signers } = await signedBy('good');
  const { fetch, asked } = responder();
  const revocation = await ask(verified, jwks, { signers, fetch, url: 'http://127.0.0.1:9/ocsp' });
  assert.deepEqual(asked, ['http://127.0.0.1:9/ocsp']);
  assert.equal(revocation.status, 'good');
});

test('signer OCSP: a revoked leaf rejects with ERR_SIGNER_REVOKED, and passes with a warning inside a grace period', async () => {
  const { verified, jwks, signers, now } = await signedBy('revoked');
  await assert.rejects(ask(verified, jwks, { signers, fetch: responder().fetch }), (error) => {
    assert.equal(error.code, 'ERR_SIGNER_REVOKED');
    assert.match(error.message, /Test token signer \(revoked\).*2024-06-01T00:00:00Z.*keyCompromise/);
    assert.equal(error.revocation.status, 'revoked');
    return true;
  });
  // index_root.txt: revoked 2024-06-01T00:00:00Z.
  const since = now - 1_717_200_000;
  const graced = await ask(verified, jwks, {
    signers, fetch: responder().fetch, revocation: { signerChain: { revokedGracePeriod: since + 3600 } },
  });
  assert.equal(graced.status, 'good');
  assert.equal(graced.warnings.length, 1);
  assert.match(graced.warnings[0], /result signer's chain.*revokedGracePeriod/);
});

test('signer OCSP: a held leaf rejects by default, and is a warning under allowHold', async () => {
  const { verified, jwks, signers } = await signedBy('hold');
  await assert.rejects(ask(verified, jwks, { signers, fetch: responder().fetch }),
    (error) => error.code === 'ERR_SIGNER_REVOKED' && /certificateHold/.test(error.message));
  const held = await ask(verified, jwks, { signers, fetch: responder().fetch, revocation: { signerChain: { allowHold: true } } });
  assert.equal(held.status, 'good');
  assert.equal(held.warnings.length, 1);
});

test('signer OCSP: unanswered rejects by default, and is a warning under allowUnknown', async () => {
  const { verified, jwks, signers } = await signedBy('good');
  await assert.rejects(
    ask(verified, jwks, { signers, fetch: responder('silent').fetch, timeoutMs: 200 }),
    (error) => error.code === 'ERR_SIGNER_REVOCATION_UNCONFIRMED' && /allowUnknown/.test(error.message),
  );
  const relaxed = await ask(verified, jwks, {
    signers, fetch: responder('silent').fetch, timeoutMs: 200, revocation: { signerChain: { allowUnknown: true } },
  });
  assert.equal(relaxed.status, 'good');
  assert.equal(relaxed.warnings.length, 1);
  assert.match(relaxed.warnings[0], /signer/i);
});

test('signer OCSP: an unknown leaf rejects, and is a warning under allowUnknown', async () => {
  const { verified, jwks, signers } = await signedBy('unknown');
  await assert.rejects(
    ask(verified, jwks, { signers, fetch: responder().fetch }),
    (error) => error.code === 'ERR_SIGNER_REVOCATION_UNCONFIRMED' && error.revocation.status === 'unknown',
  );
  const relaxed = await ask(verified, jwks, {
    signers, fetch: responder().fetch, revocation: { signerChain: { allowUnknown: true } },
  });
  assert.equal(relaxed.status, 'good');
  assert.equal(relaxed.warnings.length, 1);
});

test('signer OCSP: the anchors must be the ones the result was verified with', async () => {
  const { verified, jwks } = await signedBy('good');
  // Without `signers`, NRAS's default anchors apply, and the key no longer pins.
  await assert.rejects(ask(verified, jwks, { fetch: responder().fetch }), { code: 'ERR_SIGNER_UNTRUSTED' });
  await assert.rejects(ask(verified, jwks, { fetch: 'no' }), { code: 'ERR_INVALID_ARGUMENT', field: 'fetch' });
  await assert.rejects(ask({}, jwks, {}), { code: 'ERR_INVALID_ARGUMENT', field: 'verified' });
});

test('signer OCSP: NRAS\'s pinned signer asks nothing, and says why', async () => {
  const name = 'v3_1gpu_success_20260629';
  const fixture = (kind) => readFileSync(new URL(`../fixtures/nvidia/nras/teep/${name}_${kind}.json`, import.meta.url), 'utf8');
  const response = JSON.parse(fixture('response'));
  const iat = JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url')).iat;
  const jwks = JSON.parse(fixture('jwks'));
  const verified = await verifyAttestationResult(response, jwks, { now: iat, nonce: JSON.parse(fixture('request')).nonce });
  const { fetch, asked } = responder();
  const revocation = await ask(verified, jwks, { fetch, now: iat });
  assert.deepEqual(asked, []);
  assert.equal(revocation.status, 'not-checked');
  assert.match(revocation.notChecked, /CA 001/);
  // Verified without pinning: nothing trusted to ask about.
  const unpinned = await verifyAttestationResult(response, jwks, { now: iat, nonce: JSON.parse(fixture('request')).nonce, signers: 'any' });
  const none = await ask(unpinned, jwks, { fetch, now: iat });
  assert.equal(none.status, 'not-checked');
  assert.match(none.notChecked, /without pinning/);
  assert.deepEqual(asked, []);
});

test('signer OCSP: a remote key set gives the set it fetched and its anchors', async () => {
  const { verified, jwks, signers } = await signedBy('good');
  const remote = createRemoteJWKSet('https://signer.test/jwks.json', {
    signers, fetch: async () => new Response(JSON.stringify(jwks), { headers: { 'content-type': 'application/json' } }),
  });
  await assert.rejects(ask(verified, remote, { fetch: responder().fetch }), { code: 'ERR_INVALID_ARGUMENT', field: 'jwks' });
  await remote.reload();
  const { fetch, asked } = responder();
  const revocation = await ask(verified, remote, { fetch });
  assert.equal(revocation.status, 'good');
  assert.deepEqual(asked, [AIA_URL]);
});

test('signer OCSP: an answer is reused until its cacheUntil, checked again each time', async () => {
  const { verified, jwks, signers, now } = await signedBy('good');
  const { fetch, asked } = responder();
  const url = 'http://127.0.0.1:9/cache-test';
  const first = await fetchSignerOcsp(verified, jwks, { signers, fetch, url, now });
  const until = first.certificates[0].cacheUntil;
  assert.ok(until > now, 'openssl -ndays 1 gives a nextUpdate');
  const again = await fetchSignerOcsp(verified, jwks, { signers, fetch, url, now: now + 60 });
  assert.equal(again.status, 'good');
  assert.deepEqual(asked, [url], 'the second call asks nothing');
  await fetchSignerOcsp(verified, jwks, { signers, fetch, url, now: now + 60, cache: false });
  assert.equal(asked.length, 2, 'cache: false asks');
  // Past cacheUntil the answer is not reused (and, a day old, would not verify).
  await assert.rejects(fetchSignerOcsp(verified, jwks, { signers, fetch: responder('silent').fetch, url, now: until + 1, timeoutMs: 100 }),
    { code: 'ERR_SIGNER_REVOCATION_UNCONFIRMED' });
});
