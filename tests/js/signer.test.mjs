// Signer pinning for relying parties: verifyJwt, verifyAttestationResult, verifyEar and
// createRemoteJWKSet use a JWKS key only when its x5c chain reaches a trusted anchor
// (`signers`; by default NVIDIA Attestation Service GPU Intermediate 004's key). On the
// recorded NRAS results and on a worker run as the local service runs it (its development
// chain): each way a key fails pinning has its own code; the x5c link signatures go through
// the same backend as the token signatures; 'any' opts out and says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildAttestRequest,
  createRemoteJWKSet,
  verifyAttestationResult,
  verifyEar,
  verifyJwt,
} from '../../pkg/index.js';
import { KeySet, prepareJwtVerification } from '../../pkg/edgeattest.js';
import { createDevelopmentChain } from '../../pkg-config/dev-certificate.mjs';
import { localBindings } from '../../pkg-config/local-config.mjs';
import { capture, ls10 } from './support/fixtures.mjs';
import { startWorker } from './support/worker.mjs';

const NRAS_SPKI = 'fd32837f954e2c45db073105166dfe6985ae0480bb113fba63b091a75affe896';
const NRAS_ANCHOR = `spkiSha256:${NRAS_SPKI}`;
const LEAF = 'CN=NVIDIA Attestation Service GPU GH100';
const INTERMEDIATE = 'CN=NVIDIA Attestation Service GPU Intermediate 004';
const BACKENDS = ['webcrypto', 'software'];

const one = capture('v3_1gpu_success_20260629');
const eight = capture('v3_8gpu_success_20260629');
const kidOf = (token) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url')).kid;
const overallToken = (c) => c.response[0][1];
const pemOf = (b64) => `-----BEGIN CERTIFICATE-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
const blocks = (text) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g);
const x5cOf = (text) => blocks(text).map((block) => block.replace(/-----[^-]+-----|\s/g, ''));

/** The capture's JWKS with the signing key changed by `edit` (a copy). */
function withKey(c, edit) {
  const kid = kidOf(overallToken(c));
  return { keys: c.jwks.keys.map((key) => (key.kid === kid ? edit(structuredClone(key)) : key)) };
}
const signingKey = (c) => c.jwks.keys.find((key) => key.kid === kidOf(overallToken(c)));
/** The NRAS leaf's public key (node KeyObject). */
const leafKey = (c) => new X509Certificate(Buffer.from(signingKey(c).x5c[0], 'base64')).publicKey;
/** A development chain (a fresh self-signed root and a leaf) for the capture's signing key, made at `at`. */
function foreignChain(c, at) {
  const text = createDevelopmentChain(leafKey(c), at);
  return { x5c: x5cOf(text), root: blocks(text)[1] };
}
const options = (c, extra = {}) => ({ nonce: c.nonce, now: c.iat, ...extra });

/** The signer a verified JWT or attestation result reports. */
const signerOf = (verified) => verified.signer;

test('the recorded NRAS results verify with the default anchors, which report the chain and the anchor reached', async () => {
  for (const c of [one, eight]) {
    for (const backend of BACKENDS) {
      const verified = await verifyAttestationResult(c.response, c.jwks, options(c, { backend }));
      const signer = signerOf(verified);
      assert.equal(signer.pinned, true, backend);
      assert.equal(signer.anchor, NRAS_ANCHOR);
      assert.equal(signer.kid, kidOf(overallToken(c)));
      assert.deepEqual(signer.chain.map((link) => link.subject.split(',')[0]), [LEAF, INTERMEDIATE]);
      assert.match(signer.chain[0].issuer, /Intermediate 004/);
      for (const link of signer.chain) assert.ok(link.notBefore < c.iat && c.iat < link.notAfter, JSON.stringify(link));

      const jwt = await verifyJwt(overallToken(c), c.jwks, { now: c.iat, backend });
      assert.deepEqual(signerOf(jwt), signer);
    }
  }
});

test('a key whose x5c chain is foreign fails with ERR_SIGNER_UNTRUSTED, saying how to trust it', async () => {
  const { x5c } = foreignChain(one, one.iat);
  const jwks = withKey(one, (key) => ({ ...key, x5c }));
  for (const backend of BACKENDS) {
    const error = await verifyAttestationResult(one.response, jwks, options(one, { backend })).catch((e) => e);
    assert.equal(error.code, 'ERR_SIGNER_UNTRUSTED', `${backend}: ${error.message}`);
    assert.match(error.message, /signers/);
    const jwtError = await verifyJwt(overallToken(one), jwks, { now: one.iat, backend }).catch((e) => e);
    assert.equal(jwtError.code, 'ERR_SIGNER_UNTRUSTED');
  }
});

test("a key whose x5c leaf carries another key than the JWK's x/y fails with ERR_SIGNER_KEY_MISMATCH", async () => {
  const other = one.jwks.keys.find((key) => key.kid !== signingKey(one).kid);
  const jwks = withKey(one, (key) => ({ ...key, x5c: other.x5c }));
  for (const backend of BACKENDS) {
    const error = await verifyAttestationResult(one.response, jwks, options(one, { backend })).catch((e) => e);
    assert.equal(error.code, 'ERR_SIGNER_KEY_MISMATCH', `${backend}: ${error.message}`);
  }
});

test('a key without x5c fails with ERR_SIGNER_NO_X5C under pinning and verifies, unpinned, with signers: "any"', async () => {
  const jwks = withKey(one, ({ x5c: _x5c, ...key }) => key);
  for (const backend of BACKENDS) {
    const error = await verifyAttestationResult(one.response, jwks, options(one, { backend })).catch((e) => e);
    assert.equal(error.code, 'ERR_SIGNER_NO_X5C', `${backend}: ${error.message}`);
    assert.match(error.message, /any|signers/);
    const any = await verifyAttestationResult(one.response, jwks, options(one, { backend, signers: 'any' }));
    assert.deepEqual(signerOf(any), { pinned: false });
  }
  // 'any' on a key that has its chain: still unpinned (nothing is validated, nothing claimed).
  assert.deepEqual(signerOf(await verifyAttestationResult(one.response, one.jwks, options(one, { signers: 'any' }))), { pinned: false });
});

test('a chain whose leaf expired before the token was issued fails with ERR_SIGNER_EXPIRED; the same chain when valid passes', async () => {
  const month = 31 * 86400;
  const expired = foreignChain(one, one.iat - month);
  const current = foreignChain(one, one.iat);
  for (const backend of BACKENDS) {
    const error = await verifyAttestationResult(
      one.response,
      withKey(one, (key) => ({ ...key, x5c: expired.x5c })),
      options(one, { backend, signers: [{ certificate: expired.root }] }),
    ).catch((e) => e);
    assert.equal(error.code, 'ERR_SIGNER_EXPIRED', `${backend}: ${error.message}`);
    const verified = await verifyAttestationResult(
      one.response,
      withKey(one, (key) => ({ ...key, x5c: current.x5c })),
      options(one, { backend, signers: [{ certificate: current.root }] }),
    );
    assert.equal(signerOf(verified).anchor, 'certificate:CN=edgeattest development root,O=edgeattest');
  }
});

test('ES384 links are handed out with the token checks and run on its backend; a forged link fails with ERR_SIGNER_UNTRUSTED', async () => {
  // A development chain (ES384 links) for the recorded signing key, pinned to its root.
  const dev = foreignChain(one, one.iat);
  const key = { ...signingKey(one), x5c: dev.x5c };
  const keySet = new KeySet(new TextEncoder().encode(JSON.stringify({ keys: [key] })));
  const prepare = (signers) => prepareJwtVerification(overallToken(one), keySet, { now: one.iat, signers });
  const count = (signers) => {
    const verification = prepare(signers);
    try {
      return verification.checks().length;
    } finally {
      verification.free();
    }
  };
  const pinned = [{ certificate: dev.root }];
  // The token's own check, and under pinning the leaf's signature by the root, and the root's own.
  assert.equal(count('any'), 1);
  const checks = count(pinned);
  assert.ok(checks >= 2, `${checks} checks`);
  const verification = prepare(pinned);
  assert.deepEqual(Object.keys(verification.finish(Array(checks).fill(true)).signer), ['pinned', 'anchor', 'chain', 'kid']);
  verification.free();
  for (let forged = 1; forged < checks; forged += 1) {
    const again = prepare(pinned);
    const verdicts = Array(checks).fill(true);
    verdicts[forged] = false;
    assert.throws(() => again.finish(verdicts), { code: 'ERR_SIGNER_UNTRUSTED' }, `check ${forged}`);
    again.free();
  }
  keySet.free();

  // Through the public API, on both backends: the leaf's signature bytes altered, in the
  // development chain (ES384, deferred) and in NRAS's (RSA, checked in the core).
  const alter = (b64) => {
    const der = Buffer.from(b64, 'base64');
    der[der.length - 10] ^= 1;
    return der.toString('base64');
  };
  for (const [x5c, signers] of [[[alter(dev.x5c[0]), dev.x5c[1]], pinned], [[alter(signingKey(one).x5c[0]), signingKey(one).x5c[1]], undefined]]) {
    const jwks = withKey(one, (k) => ({ ...k, x5c }));
    for (const backend of BACKENDS) {
      const error = await verifyAttestationResult(one.response, jwks, options(one, { backend, ...(signers && { signers }) })).catch((e) => e);
      assert.equal(error.code, 'ERR_SIGNER_UNTRUSTED', `${backend}: ${error.message}`);
    }
  }
});

test('several anchors at once (a rotation): any one of them reached is enough', async () => {
  const intermediate = pemOf(signingKey(one).x5c[1]);
  const next = { spkiSha256: 'ab'.repeat(32) };
  const foreign = foreignChain(one, one.iat);
  for (const signers of [
    [next, { spkiSha256: NRAS_SPKI }],
    [{ spkiSha256: NRAS_SPKI }, next],
    [{ certificate: foreign.root }, { certificate: intermediate }],
  ]) {
    const verified = await verifyAttestationResult(one.response, one.jwks, options(one, { signers }));
    assert.equal(signerOf(verified).pinned, true, JSON.stringify(signers));
  }
  const foreignSet = withKey(one, (key) => ({ ...key, x5c: foreign.x5c }));
  const both = [{ spkiSha256: NRAS_SPKI }, { certificate: foreign.root }];
  assert.equal(signerOf(await verifyAttestationResult(one.response, foreignSet, options(one, { signers: both }))).pinned, true);
  assert.equal(signerOf(await verifyAttestationResult(one.response, one.jwks, options(one, { signers: both }))).anchor, NRAS_ANCHOR);
  // Only the next one: the recorded chain reaches none.
  await assert.rejects(verifyAttestationResult(one.response, one.jwks, options(one, { signers: [next] })), { code: 'ERR_SIGNER_UNTRUSTED' });
});

test('signers of the wrong shape are refused before any verification', async () => {
  for (const signers of ['none', [], [{}], [{ spkiSha256: 'zz' }], [{ certificate: 'not a certificate' }], [{ spkiSha256: NRAS_SPKI, certificate: 'x' }], 7]) {
    const error = await verifyAttestationResult(one.response, one.jwks, options(one, { signers })).catch((e) => e);
    assert.ok(error?.code?.startsWith('ERR_'), `${JSON.stringify(signers)}: ${error}`);
    assert.notEqual(error.code, 'ERR_SIGNER_UNTRUSTED', JSON.stringify(signers));
  }
});

/** A fetch answering the JWKS URL with `jwks`; counts its calls. */
function jwksFetch(jwks) {
  const served = { calls: 0 };
  served.fetch = async () => {
    served.calls += 1;
    return new Response(JSON.stringify(jwks), { headers: { 'content-type': 'application/json' } });
  };
  return served;
}
const NRAS_JWKS_URL = 'https://nras.attestation.nvidia.com/.well-known/jwks.json';

test('createRemoteJWKSet pins per verification: the default, its own signers, and a call that names signers', async () => {
  const foreign = foreignChain(one, one.iat);
  const foreignSet = withKey(one, (key) => ({ ...key, x5c: foreign.x5c }));

  // Default: the NRAS anchor; the set is served whole, whatever its keys.
  const nras = jwksFetch(one.jwks);
  const remote = createRemoteJWKSet(NRAS_JWKS_URL, { fetch: nras.fetch });
  assert.equal(signerOf(await verifyAttestationResult(one.response, remote, options(one))).anchor, NRAS_ANCHOR);
  const served = jwksFetch(foreignSet);
  const unpinned = createRemoteJWKSet(NRAS_JWKS_URL, { fetch: served.fetch });
  await assert.rejects(verifyAttestationResult(one.response, unpinned, options(one)), { code: 'ERR_SIGNER_UNTRUSTED' });
  assert.equal(served.calls, 1, 'a pinning failure is not an unknown key: no second fetch');

  // The set's own signers apply to every verification that uses it.
  const pinned = createRemoteJWKSet(NRAS_JWKS_URL, { fetch: served.fetch, signers: [{ certificate: foreign.root }] });
  assert.equal(signerOf(await verifyAttestationResult(one.response, pinned, options(one))).pinned, true);
  assert.equal(signerOf(await verifyJwt(overallToken(one), pinned, { now: one.iat })).pinned, true);
  assert.deepEqual(pinned.signers, [{ certificate: foreign.root }]);
  const any = createRemoteJWKSet(NRAS_JWKS_URL, { fetch: served.fetch, signers: 'any' });
  assert.deepEqual(signerOf(await verifyAttestationResult(one.response, any, options(one))), { pinned: false });

  // A call's own signers win over the set's.
  await assert.rejects(verifyAttestationResult(one.response, pinned, options(one, { signers: [{ spkiSha256: NRAS_SPKI }] })), { code: 'ERR_SIGNER_UNTRUSTED' });
  // Refused at creation when of the wrong shape.
  assert.throws(() => createRemoteJWKSet(NRAS_JWKS_URL, { signers: 'none' }), { code: 'ERR_INVALID_ARGUMENT', field: 'signers' });
  assert.throws(() => createRemoteJWKSet(NRAS_JWKS_URL, { signers: [] }), { code: 'ERR_INVALID_ARGUMENT', field: 'signers' });
});

// ---- a relying party of our own service, run as the local service runs it ----------------

const NOW = Math.floor(Date.now() / 1000);
const switchNonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
const switchBody = JSON.stringify(buildAttestRequest({ endpoint: '/v4/attest/switch', nonce: switchNonce, evidence: [ls10] }));
const EAR_ACCEPT = 'application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear"';

let dir;
let worker;
let root;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeattest-signer-'));
  // The local service's bindings: the development key and its development chain.
  const { bindings } = await localBindings({}, () => {}, { dir, now: NOW });
  root = blocks(bindings.EDGEATTEST_SIGNING_CERTIFICATE)[1];
  worker = await startWorker({ bindings });
});
after(async () => {
  await worker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const attest = (accept) => fetch(`${worker.origin}/v4/attest/switch`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(accept && { accept }) },
  body: switchBody,
});
const relying = { nonce: switchNonce, allowUnknownRevocation: true };

test("our own service: pinned to its development root its results and EARs verify; pinned to NVIDIA's they fail", async () => {
  const jwksUrl = `${worker.origin}/.well-known/jwks.json`;
  const published = await (await fetch(jwksUrl)).json();
  assert.ok(published.keys.every((key) => key.x5c?.length === 2), 'the development service publishes its chain');

  const result = await (await attest()).json();
  const ours = createRemoteJWKSet(jwksUrl, { signers: [{ certificate: root }] });
  const verified = await verifyAttestationResult(result, ours, relying);
  const signer = signerOf(verified);
  assert.equal(signer.anchor, 'certificate:CN=edgeattest development root,O=edgeattest');
  assert.deepEqual(signer.chain.map((link) => link.subject), ['CN=edgeattest development token signing key,O=edgeattest', 'CN=edgeattest development root,O=edgeattest']);
  assert.equal(signer.kid, published.keys[0].kid);

  const error = await verifyAttestationResult(result, createRemoteJWKSet(jwksUrl), relying).catch((e) => e);
  assert.equal(error.code, 'ERR_SIGNER_UNTRUSTED', error.message);
  assert.match(error.message, /signers/);

  const ear = await (await attest(EAR_ACCEPT)).text();
  const read = await verifyEar(ear, published, { nonce: switchNonce, maxTokenAge: 300, signers: [{ certificate: root }] });
  assert.equal(read.nonce, switchNonce);
  await assert.rejects(verifyEar(ear, published, { nonce: switchNonce, maxTokenAge: 300 }), { code: 'ERR_SIGNER_UNTRUSTED' });
});

test('our own service without a configured chain publishes no x5c: pinned, ERR_SIGNER_NO_X5C; "any" verifies unpinned', async (t) => {
  const bare = await startWorker();
  t.after(() => bare.stop());
  const jwks = await (await fetch(`${bare.origin}/.well-known/jwks.json`)).json();
  const result = await (await fetch(`${bare.origin}/v4/attest/switch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: switchBody })).json();
  await assert.rejects(verifyAttestationResult(result, jwks, { ...relying, signers: [{ certificate: root }] }), { code: 'ERR_SIGNER_NO_X5C' });
  assert.deepEqual(signerOf(await verifyAttestationResult(result, jwks, { ...relying, signers: 'any' })), { pinned: false });
});

test('a development chain from another run (another root) does not verify this run', async () => {
  const other = createDevelopmentChain(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey, NOW);
  const result = await (await attest()).json();
  const jwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
  await assert.rejects(verifyAttestationResult(result, jwks, { ...relying, signers: [{ certificate: blocks(other)[1] }] }), { code: 'ERR_SIGNER_UNTRUSTED' });
});
