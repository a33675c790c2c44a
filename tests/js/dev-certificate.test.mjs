// The embedded default's development certificate chain (pkg-config/dev-certificate.mjs):
// made once for the development key and reused, renewed when the key is replaced or the
// chain expires, accepted by the crate's own parser and chain validator, by openssl and by
// the checks NVIDIA's SDKs make, and served by the worker in workerd as the JWKS's x5c.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttestationService, buildAttestRequest, verifyAttestationResult, verifyCertificateChain } from '../../pkg/service/index.js';
import { DEV_CHAIN_FILE, localBindings } from '../../pkg-config/local-config.mjs';
import {
  DEV_CHAIN_LIFETIME_SECONDS,
  DEV_CHAIN_RENEW_BEFORE_SECONDS,
  chainProblem,
  createDevelopmentChain,
} from '../../pkg-config/dev-certificate.mjs';
import { freshSigningKeyPem, startWorker } from './support/worker.mjs';
import { ls10 } from './support/fixtures.mjs';

const NOW = Math.floor(Date.now() / 1000);
const DAY = 86400;

function stateDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'edgeattest-dev-cert-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
/** The local run's bindings with its state in `dir`; the log lines collected. */
async function start(dir, now = NOW, env = {}) {
  const lines = [];
  const { bindings } = await localBindings(env, (line) => lines.push(line), { dir, now });
  return { bindings, lines };
}
const blocks = (text) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n/g);
const certificates = (text) => blocks(text).map((block) => new X509Certificate(block));
const spki = (key) => (typeof key === 'string' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
const x5cOf = (text) => blocks(text).map((block) => block.replace(/-----[^-]+-----|\s/g, ''));
const jwksOf = (service, now = NOW) =>
  JSON.parse(Buffer.from(service.handle({ method: 'GET', path: '/.well-known/jwks.json' }, now).body));

test('a first start makes the chain for the development key; later starts reuse it unchanged', async (t) => {
  const dir = stateDir(t);
  const first = await start(dir);
  const chain = first.bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  assert.equal(readFileSync(join(dir, DEV_CHAIN_FILE), 'utf8'), chain);
  assert.ok(first.lines.some((line) => line.startsWith('created a development certificate chain')));

  const [leaf, root] = certificates(chain);
  assert.equal(root.subject, 'O=edgeattest\nCN=edgeattest development root');
  assert.equal(root.issuer, root.subject);
  assert.equal(leaf.issuer, root.subject);
  assert.equal(root.ca, true);
  assert.equal(leaf.ca, false);
  assert.ok(spki(leaf.publicKey).equals(spki(first.bindings.EDGEATTEST_SIGNING_KEY)), 'the leaf carries the key');
  assert.equal(Date.parse(leaf.validTo) / 1000, NOW + DEV_CHAIN_LIFETIME_SECONDS);

  const again = await start(dir, NOW + DAY);
  assert.equal(again.bindings.EDGEATTEST_SIGNING_KEY, first.bindings.EDGEATTEST_SIGNING_KEY);
  assert.equal(again.bindings.EDGEATTEST_SIGNING_CERTIFICATE, chain);
  assert.ok(!again.lines.some((line) => /certificate chain/.test(line)), again.lines.join('\n'));
});

test("the crate's own parser and chain validator accept the chain; the JWKS carries it as x5c", async (t) => {
  const { bindings } = await start(stateDir(t));
  const chain = bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  const [, rootPem] = blocks(chain);
  const report = verifyCertificateChain({ certificate: chain, trustAnchors: rootPem, now: NOW, enforceTime: true });
  assert.equal(report.status, 'valid');
  assert.deepEqual(report.subjects, ['CN=edgeattest development token signing key,O=edgeattest', 'CN=edgeattest development root,O=edgeattest']);
  // Expired once its lifetime is over: the validity period is real.
  assert.throws(
    () => verifyCertificateChain({ certificate: chain, trustAnchors: rootPem, now: NOW + DEV_CHAIN_LIFETIME_SECONDS + 1, enforceTime: true }),
    { code: 'ERR_CHAIN_EXPIRED' },
  );

  const service = new AttestationService({ signingKey: bindings.EDGEATTEST_SIGNING_KEY, certificate: chain });
  const [key] = jwksOf(service).keys;
  assert.deepEqual(key.x5c, x5cOf(chain));
  const leafJwk = new X509Certificate(Buffer.from(key.x5c[0], 'base64')).publicKey.export({ format: 'jwk' });
  assert.deepEqual([leafJwk.x, leafJwk.y], [key.x, key.y]);
});

test('a chain for another key is not used: renewed for the new key, and refused by the core', async (t) => {
  const dir = stateDir(t);
  const old = await start(dir);
  const oldChain = old.bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  const newKey = await freshSigningKeyPem();
  writeFileSync(join(dir, 'dev-signing-key.pem'), newKey); // the key was replaced
  assert.equal(chainProblem(oldChain, createPublicKey(newKey), NOW), 'its leaf is for another key');
  assert.throws(() => new AttestationService({ signingKey: newKey, certificate: oldChain }), { code: 'ERR_JWKS_INVALID', field: 'certificate' });

  const renewed = await start(dir);
  const chain = renewed.bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  assert.ok(renewed.lines.some((line) => line.endsWith('its leaf is for another key')), renewed.lines.join('\n'));
  assert.ok(spki(certificates(chain)[0].publicKey).equals(spki(newKey)));
  assert.notEqual(certificates(chain)[1].fingerprint256, certificates(oldChain)[1].fingerprint256, 'a new root');
  assert.equal(readFileSync(join(dir, DEV_CHAIN_FILE), 'utf8'), chain);
  new AttestationService({ signingKey: newKey, certificate: chain }); // accepted
});

test('the chain is renewed when less than a day of validity is left, or before it is valid (injected clock)', async (t) => {
  const dir = stateDir(t);
  const chain = (await start(dir)).bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  const renewAt = NOW + DEV_CHAIN_LIFETIME_SECONDS - DEV_CHAIN_RENEW_BEFORE_SECONDS;
  assert.equal((await start(dir, renewAt - 1)).bindings.EDGEATTEST_SIGNING_CERTIFICATE, chain, 'still a day left');
  const late = await start(dir, renewAt);
  const renewed = late.bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  assert.notEqual(renewed, chain);
  assert.ok(late.lines.some((line) => /: expires /.test(line)), late.lines.join('\n'));
  assert.equal(Date.parse(certificates(renewed)[0].validTo) / 1000, renewAt + DEV_CHAIN_LIFETIME_SECONDS);
  assert.equal(verifyCertificateChain({ certificate: renewed, trustAnchors: blocks(renewed)[1], now: renewAt + DAY, enforceTime: true }).status, 'valid');
  // A clock set back before notBefore (which is backdated by an hour) gets a chain valid then.
  const early = await start(dir, NOW - 2 * 3600);
  assert.ok(early.lines.some((line) => /: not valid before /.test(line)), early.lines.join('\n'));
  assert.notEqual(early.bindings.EDGEATTEST_SIGNING_CERTIFICATE, renewed);
});

test('a damaged chain file or a leaf its root did not sign is replaced, never used', async (t) => {
  const dir = stateDir(t);
  const { bindings } = await start(dir);
  const key = createPublicKey(bindings.EDGEATTEST_SIGNING_KEY);
  const [leaf] = blocks(bindings.EDGEATTEST_SIGNING_CERTIFICATE);
  const [, otherRoot] = blocks(createDevelopmentChain(key, NOW));
  assert.equal(chainProblem(leaf + otherRoot, key, NOW), 'the leaf is not issued by its self-signed root');
  assert.equal(chainProblem(leaf, key, NOW), 'holds 1 certificates, not 2');
  const truncated = `${leaf.slice(0, 200)}\n-----END CERTIFICATE-----\n${otherRoot}`;
  assert.match(chainProblem(truncated, key, NOW), /^a certificate does not parse/);

  for (const text of [leaf + otherRoot, 'not a certificate\n']) {
    writeFileSync(join(dir, DEV_CHAIN_FILE), text);
    const again = await start(dir);
    const chain = again.bindings.EDGEATTEST_SIGNING_CERTIFICATE;
    assert.ok(again.lines.some((line) => line.startsWith('renewing the development certificate chain')));
    assert.equal(chainProblem(chain, key, NOW), null);
  }
});

test('a configured key without a certificate is published without x5c; a configured certificate is used as given', async (t) => {
  const dir = stateDir(t);
  const keyFile = join(dir, 'configured-key.pem');
  writeFileSync(keyFile, await freshSigningKeyPem());
  const alone = await start(dir, NOW, { EDGEATTEST_SIGNING_KEY: keyFile });
  assert.equal(alone.bindings.EDGEATTEST_SIGNING_CERTIFICATE, undefined);
  assert.throws(() => readFileSync(join(dir, DEV_CHAIN_FILE)), { code: 'ENOENT' });
  const service = new AttestationService({ signingKey: alone.bindings.EDGEATTEST_SIGNING_KEY });
  assert.equal(jwksOf(service).keys[0].x5c, undefined);

  const chainFile = join(dir, 'configured-chain.pem');
  writeFileSync(chainFile, createDevelopmentChain(createPublicKey(readFileSync(keyFile, 'utf8')), NOW));
  const both = await start(dir, NOW, { EDGEATTEST_SIGNING_KEY: keyFile, EDGEATTEST_SIGNING_CERTIFICATE: chainFile });
  assert.equal(both.bindings.EDGEATTEST_SIGNING_CERTIFICATE, readFileSync(chainFile, 'utf8'));
  assert.throws(() => readFileSync(join(dir, DEV_CHAIN_FILE)), { code: 'ENOENT' });
});

const openssl = spawnSync('openssl', ['version']).status === 0;
test('openssl reads the chain as meant and verifies it strictly', { skip: !openssl && 'openssl is not installed' }, async (t) => {
  const dir = stateDir(t);
  const chain = (await start(dir)).bindings.EDGEATTEST_SIGNING_CERTIFICATE;
  const [leaf, root] = blocks(chain);
  writeFileSync(join(dir, 'leaf.pem'), leaf);
  writeFileSync(join(dir, 'root.pem'), root);
  const run = (...args) => spawnSync('openssl', args, { encoding: 'utf8' });
  const leafText = run('x509', '-in', join(dir, 'leaf.pem'), '-noout', '-text').stdout;
  const rootText = run('x509', '-in', join(dir, 'root.pem'), '-noout', '-text').stdout;
  for (const text of [leafText, rootText]) {
    assert.match(text, /Version: 3 \(0x2\)/);
    assert.match(text, /Signature Algorithm: ecdsa-with-SHA384/);
    assert.match(text, /NIST CURVE: P-384/);
  }
  assert.match(rootText, /Basic Constraints: critical\n\s+CA:TRUE, pathlen:0/);
  assert.match(rootText, /Key Usage: critical\n\s+Certificate Sign\n/);
  assert.match(leafText, /Basic Constraints: critical\n\s+CA:FALSE/);
  assert.match(leafText, /Key Usage: critical\n\s+Digital Signature\n/);
  const verify = run('verify', '-x509_strict', '-CAfile', join(dir, 'root.pem'), join(dir, 'leaf.pem'));
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  // Negative: another development root does not verify this leaf.
  writeFileSync(join(dir, 'other.pem'), blocks(createDevelopmentChain(createPublicKey(leaf), NOW))[1]);
  assert.notEqual(run('verify', '-x509_strict', '-CAfile', join(dir, 'other.pem'), join(dir, 'leaf.pem')).status, 0);
});

// NVIDIA's SDKs ignore JWKS keys without x5c and verify with the key of the x5c[0]
// certificate (nvattest); nv-attestation-sdk picks the key by kid and requires x5c. Here:
// a JWKS rebuilt as such a client sees it — only the keys with x5c, key material from x5c[0].
function jwksAsNvidiaSees(set) {
  const keys = set.keys.filter((key) => Array.isArray(key.x5c) && key.x5c.length > 0);
  return {
    keys: keys.map((key) => {
      const { x, y } = new X509Certificate(Buffer.from(key.x5c[0], 'base64')).publicKey.export({ format: 'jwk' });
      return { kty: 'EC', crv: 'P-384', kid: key.kid, x, y };
    }),
  };
}

const python = spawnSync('python3', ['-c', 'import jwt, cryptography']).status === 0;
// nv-attestation-sdk's way (Python): the x5c[0] certificate loaded with `cryptography`, its key verifying ES384 with PyJWT.
const NVT_CHECK = `
import json, sys, jwt
from cryptography import x509
data = json.load(sys.stdin)
for token in data["tokens"]:
    kid = jwt.get_unverified_header(token)["kid"]
    key = next(k for k in data["jwks"]["keys"] if k["kid"] == kid)
    pem = "-----BEGIN CERTIFICATE-----\\n" + key["x5c"][0] + "\\n-----END CERTIFICATE-----"
    cert = x509.load_pem_x509_certificate(pem.encode())
    jwt.decode(token, cert.public_key(), algorithms=["ES384"], options={"verify_iat": False, "verify_nbf": False})
print("ok")
`;

test('workerd: the JWKS carries x5c whose leaf is the JWK; tokens verify with the x5c[0] key as NVIDIA clients do', async (t) => {
  const dir = stateDir(t);
  const { bindings } = await start(dir);
  const worker = await startWorker({ bindings });
  t.after(() => worker.stop());
  const set = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
  assert.equal(set.keys.length, 1);
  const [key] = set.keys;
  assert.deepEqual(key.x5c, x5cOf(bindings.EDGEATTEST_SIGNING_CERTIFICATE));
  const leaf = new X509Certificate(Buffer.from(key.x5c[0], 'base64'));
  assert.deepEqual(leaf.publicKey.export({ format: 'jwk' }), { kty: 'EC', crv: 'P-384', x: key.x, y: key.y });

  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/switch', nonce, evidence: [ls10] });
  const response = await fetch(`${worker.origin}/v4/attest/switch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  const result = await response.json();
  const asServed = await verifyAttestationResult(result, set, { nonce, issuer: worker.origin, allowUnknownRevocation: true, signers: [{ certificate: blocks(bindings.EDGEATTEST_SIGNING_CERTIFICATE)[1] }] });
  assert.equal(asServed.devices.length, 1);
  const nvidia = jwksAsNvidiaSees(set);
  assert.equal(nvidia.keys.length, 1);
  const viaCertificate = await verifyAttestationResult(result, nvidia, { nonce, issuer: worker.origin, allowUnknownRevocation: true, signers: 'any' });
  assert.equal(viaCertificate.overall.kid, key.kid);

  // Negative: with a chain for another key as x5c, the certificate's key does not verify our tokens.
  const otherLeaf = x5cOf(createDevelopmentChain(createPublicKey(await freshSigningKeyPem()), NOW))[0];
  const foreign = jwksAsNvidiaSees({ keys: [{ ...key, x5c: [otherLeaf] }] });
  await assert.rejects(verifyAttestationResult(result, foreign, { nonce, issuer: worker.origin, signers: 'any' }), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  // And a key without x5c is invisible to such a client.
  assert.equal(jwksAsNvidiaSees({ keys: [{ ...key, x5c: undefined }] }).keys.length, 0);

  if (python) {
    const tokens = [result[0][1], ...Object.values(result[1])];
    const run = spawnSync('python3', ['-c', NVT_CHECK], { input: JSON.stringify({ tokens, jwks: set }), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'ok');
    const refused = spawnSync('python3', ['-c', NVT_CHECK], { input: JSON.stringify({ tokens, jwks: { keys: [{ ...key, x5c: [otherLeaf] }] } }), encoding: 'utf8' });
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /InvalidSignatureError/);
  } else {
    t.diagnostic('python3 with PyJWT and cryptography is absent: the nv-attestation-sdk cross-check was skipped');
  }

  // A second start with the same state serves the same x5c.
  const restarted = await start(dir);
  assert.equal(restarted.bindings.EDGEATTEST_SIGNING_CERTIFICATE, bindings.EDGEATTEST_SIGNING_CERTIFICATE);
});
