// The verifier component's OCSP for the chain of the key that signed a result
// (`signer-ocsp-request-count`, `signer-ocsp-requests`, `check-signer-ocsp`: the JS
// signerOcspRequests / checkSignerOcsp). Key sets whose leaves name an AIA OCSP responder
// (tests/fixtures/generated/signer_ocsp/), pinned to their root; the component's own requests
// are answered by `openssl ocsp` as the root's delegated responder, and the answers judged
// under the policy's `signerChain` rule: good passes, revoked is refused, unknown and
// unanswered are refused strictly and a warning under allowUnknown. NRAS's recorded key set
// (pinned by default) has nothing to ask, and says why. Every request and status equals the
// npm package's (signerOcspRequests / checkSignerOcsp) whole. Hostile arguments: coded errors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../pkg/local/index.js';
import { checkSignerOcsp, signerOcspRequests } from '../../pkg/local/edgeattest.js';
import { agree, caught, codedError, loadComponent, signerOcspStatusToJs, utf8, witAnswer } from './support/component.mjs';

const PKI = fileURLToPath(new URL('../fixtures/generated/signer_ocsp/', import.meta.url));
const AIA_URL = 'http://ocsp.signer.test/';
const ROOT = readFileSync(join(PKI, 'root.pem'), 'utf8');
const ANCHOR = 'certificate:O=Test Signer OCSP PKI,CN=Test Signer OCSP Root CA';
const pemBlocks = (text) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g);
const base64 = (block) => block.replace(/-----[A-Z ]+-----|\s/g, '');
const nonce = (name) => new Uint8Array(createHash('sha256').update(`signer ocsp ${name}`).digest());
/** The leaves are valid now (the Rust tests use the clock too). */
const NOW = BigInt(Math.floor(Date.now() / 1000));

let wit;
before(async () => {
  wit = await loadComponent();
});

/** The key set of the `status` leaf: its public key with x5c = [leaf, root], as JSON bytes. */
function jwks(status) {
  const { kty, crv, x, y } = createPrivateKey(readFileSync(join(PKI, `leaf_${status}_key.pem`), 'utf8')).export({ format: 'jwk' });
  const x5c = pemBlocks(readFileSync(join(PKI, `chain_${status}.pem`), 'utf8')).map(base64);
  return utf8(JSON.stringify({ keys: [{ kty, crv, x, y, kid: status, alg: 'ES384', use: 'sig', x5c }] }));
}

/** The options JSON: the `status` key, pinned to the test root, under `signerChain`. */
const options = (status, signerChain) => JSON.stringify({
  kid: status, signers: [{ certificate: ROOT }], ...(signerChain ? { revocation: { signerChain } } : {}),
});

/** `openssl ocsp` as the root's delegated responder, answering one DER request. */
function opensslAnswer(request) {
  const work = mkdtempSync(join(tmpdir(), 'edgeattest-component-signer-ocsp-'));
  try {
    writeFileSync(join(work, 'req'), request);
    execFileSync('openssl', ['ocsp', '-index', join(PKI, 'index_root.txt'), '-CA', join(PKI, 'root.pem'),
      '-rsigner', join(PKI, 'responder_root.pem'), '-rkey', join(PKI, 'responder_root_key.pem'), '-rmd', 'sha384',
      '-resp_key_id', '-ndays', '1', '-reqin', join(work, 'req'), '-respout', join(work, 'resp')], { stdio: 'pipe' });
    return readFileSync(join(work, 'resp'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The component's requests for the `status` key, each answered by the responder with its nonce. */
function asked(status) {
  const count = wit.ocsp.signerOcspRequestCount(jwks(status), options(status), NOW);
  const nonces = Array.from({ length: count }, (_, i) => nonce(`${status} ${i}`));
  const requests = wit.ocsp.signerOcspRequests(jwks(status), options(status), NOW, nonces);
  assert.equal(requests.length, count, status);
  const answers = requests.map((r) => witAnswer({ body: opensslAnswer(r.request), nonce: r.nonce }));
  return { requests, answers };
}

test('signer-ocsp-requests: the leaf, at the responder its AIA names, with the host\'s nonce', () => {
  const { requests } = asked('good');
  assert.equal(requests.length, 1, 'the leaf only: the root is the anchor');
  const [r] = requests;
  assert.deepEqual([r.url, r.index, r.certificate], [AIA_URL, 0, 'Test token signer (good)']);
  assert.deepEqual([...r.nonce], [...nonce('good 0')]);
  assert.match(r.cacheKey, /^sha384:[0-9a-f]{96}:[0-9a-f]+$/);
  assert.equal(r.request[0], 0x30, 'a DER SEQUENCE');
  // The same request with the nonce given in the options (hex) instead.
  const viaOptions = JSON.stringify({ ...JSON.parse(options('good')), nonces: [Buffer.from(nonce('good 0')).toString('hex')] });
  assert.deepEqual([...wit.ocsp.signerOcspRequests(jwks('good'), viaOptions, NOW, [])[0].request], [...r.request]);
});

test('check-signer-ocsp: a good signer passes, with the anchor its path reached', () => {
  const { answers } = asked('good');
  const status = wit.ocsp.checkSignerOcsp(jwks('good'), answers, NOW, options('good'));
  assert.deepEqual([status.status, status.anchor, status.code, status.message, status.warnings], ['good', ANCHOR, undefined, undefined, []]);
  assert.equal(status.certificates.length, 1);
  assert.deepEqual([status.certificates[0].status, status.certificates[0].nonce], ['good', 'matched']);
});

test('check-signer-ocsp: a revoked signer is refused with ERR_SIGNER_REVOKED, naming the time and reason', () => {
  const { answers } = asked('revoked');
  const status = wit.ocsp.checkSignerOcsp(jwks('revoked'), answers, NOW, options('revoked'));
  assert.deepEqual([status.status, status.code], ['revoked', 'ERR_SIGNER_REVOKED']);
  for (const part of ['Test token signer (revoked)', '2024-06-01T00:00:00Z', 'keyCompromise']) assert.ok(status.message.includes(part), status.message);
  assert.deepEqual([status.certificates[0].status, status.certificates[0].reason, status.certificates[0].revokedAt], ['revoked', 'keyCompromise', 1717200000n]);
  // allowUnknown does not pass a revoked signer.
  const still = wit.ocsp.checkSignerOcsp(jwks('revoked'), answers, NOW, options('revoked', { allowUnknown: true }));
  assert.equal(still.code, 'ERR_SIGNER_REVOKED');
});

test('check-signer-ocsp: unknown and unanswered are ERR_SIGNER_REVOCATION_UNCONFIRMED strictly, a warning under signerChain.allowUnknown', () => {
  const cases = [
    ['unknown', asked('unknown').answers, 'unknown'],
    ['good', [witAnswer({ error: 'timeout' })], 'failed'],
    ['good', [witAnswer({ error: 'status', status: 503 })], 'failed'],
  ];
  for (const [status, answers, refusedAs] of cases) {
    const label = `${status} ${JSON.stringify(answers[0].tag === 'failed' ? answers[0].val : 'answered')}`;
    const strict = wit.ocsp.checkSignerOcsp(jwks(status), answers, NOW, options(status));
    assert.deepEqual([strict.status, strict.code], [refusedAs, 'ERR_SIGNER_REVOCATION_UNCONFIRMED'], label);
    assert.ok(strict.message.length > 0, label);
    const relaxed = wit.ocsp.checkSignerOcsp(jwks(status), answers, NOW, options(status, { allowUnknown: true }));
    assert.deepEqual([relaxed.status, relaxed.code, relaxed.message], ['good', undefined, undefined], label);
    assert.equal(relaxed.warnings.length, 1, label);
    assert.match(relaxed.warnings[0], /signer/i, label);
  }
});

test('NRAS\'s recorded key set, pinned by default, asks nothing and is not-checked naming "CA 001"', () => {
  const fixture = (kind) => readFileSync(new URL(`../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_${kind}.json`, import.meta.url), 'utf8');
  const token = JSON.parse(fixture('response'))[0][1];
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url')));
  const keys = utf8(fixture('jwks'));
  const nras = JSON.stringify({ kid: header.kid });
  const iat = BigInt(claims.iat);
  assert.equal(wit.ocsp.signerOcspRequestCount(keys, nras, iat), 0);
  assert.deepEqual(wit.ocsp.signerOcspRequests(keys, nras, iat, []), []);
  const status = wit.ocsp.checkSignerOcsp(keys, [], iat, nras);
  assert.equal(status.status, 'not-checked');
  assert.match(status.notChecked, /CA 001/);
  assert.deepEqual([status.code, status.certificates, status.warnings], [undefined, [], []]);
  assert.match(status.anchor, /./, 'pinned: the anchor it reached');
  // Unpinned (`signers: "any"`) there is no trusted path to ask about: not-checked, saying so.
  const any = wit.ocsp.checkSignerOcsp(keys, [], iat, JSON.stringify({ kid: header.kid, signers: 'any' }));
  assert.deepEqual([any.status, any.anchor], ['not-checked', undefined]);
  assert.match(any.notChecked, /without pinning/);
  // A foreign anchor: the key does not pin, a coded error (never a status that passes).
  codedError(() => wit.ocsp.checkSignerOcsp(keys, [], iat, JSON.stringify({ kid: header.kid, signers: [{ certificate: ROOT }] })), 'ERR_SIGNER_UNTRUSTED');
});

test('the component agrees with signerOcspRequests / checkSignerOcsp: the same requests byte for byte, the same status whole', () => {
  const plain = (r) => ({ ...r, request: [...r.request], nonce: [...r.nonce] });
  const js = (status, more = {}) => ({ kid: status, signers: [{ certificate: ROOT }], ...more });
  let compared = 0;
  for (const status of ['good', 'revoked', 'unknown']) {
    const keys = jwks(status);
    const nonces = [nonce(`${status} agree`)];
    const jsRequests = signerOcspRequests(keys, js(status, { nonces }), Number(NOW));
    const requests = wit.ocsp.signerOcspRequests(keys, options(status), NOW, nonces);
    assert.deepEqual(requests.map(plain), jsRequests.map(plain), status);
    const answered = [{ body: new Uint8Array(opensslAnswer(requests[0].request)), nonce: requests[0].nonce }];
    for (const answers of [answered, [{ error: 'timeout' }], [{ body: answered[0].body }], [{ body: answered[0].body, nonce: nonce('another request') }]]) {
      for (const signerChain of [undefined, { allowUnknown: true }, { revokedGracePeriod: 10 * 365 * 86_400 }]) {
        const label = `${status} ${JSON.stringify(answers[0].error ?? Object.keys(answers[0]))} ${JSON.stringify(signerChain)}`;
        agree(
          caught(() => checkSignerOcsp(keys, answers, Number(NOW), js(status, signerChain ? { revocation: { signerChain } } : {}))),
          caught(() => wit.ocsp.checkSignerOcsp(keys, answers.map(witAnswer), NOW, options(status, signerChain))),
          label, signerOcspStatusToJs,
        );
        compared += 1;
      }
    }
  }
  assert.equal(compared, 36);
  // NRAS's key set at its token's time, and the errors: the same code, field and message.
  const fixture = (kind) => readFileSync(new URL(`../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_${kind}.json`, import.meta.url), 'utf8');
  const token = JSON.parse(fixture('response'))[0][1];
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url')));
  const keys = utf8(fixture('jwks'));
  agree(caught(() => checkSignerOcsp(keys, [], claims.iat, { kid: header.kid })), caught(() => wit.ocsp.checkSignerOcsp(keys, [], BigInt(claims.iat), JSON.stringify({ kid: header.kid }))), 'NRAS', signerOcspStatusToJs);
  const errors = [
    ['no such kid', jwks('good'), { kid: 'other', signers: [{ certificate: ROOT }] }, NOW, [nonce('x')]],
    ['a foreign anchor', keys, { kid: header.kid, signers: [{ certificate: ROOT }] }, BigInt(claims.iat), []],
    ['a nonce short', jwks('good'), { kid: 'good', signers: [{ certificate: ROOT }] }, NOW, []],
  ];
  for (const [label, set, o, at, nonces] of errors) {
    const outcome = agree(
      caught(() => signerOcspRequests(set, { ...o, nonces }, Number(at))),
      caught(() => wit.ocsp.signerOcspRequests(set, JSON.stringify(o), at, nonces)),
      label,
    );
    assert.equal(outcome, 'error', label);
  }
});

test('hostile signer-ocsp arguments: coded errors, no trap, the instance stays usable', () => {
  const good = jwks('good');
  const opts = options('good');
  const e = [
    codedError(() => wit.ocsp.signerOcspRequests(good, opts, NOW, []), 'ERR_INVALID_ARGUMENT', 'no nonce'),
    codedError(() => wit.ocsp.signerOcspRequests(good, opts, NOW, [nonce('a'), nonce('b')]), 'ERR_INVALID_ARGUMENT', 'a nonce too many'),
    codedError(() => wit.ocsp.signerOcspRequests(good, opts, NOW, [new Uint8Array(31)]), 'ERR_INVALID_ARGUMENT', '31-byte nonce'),
    codedError(() => wit.ocsp.signerOcspRequests(good, opts, NOW, Array.from({ length: 10_000 }, () => nonce('x'))), 'ERR_INVALID_ARGUMENT', '10,000 nonces'),
    codedError(() => wit.ocsp.signerOcspRequests(good, JSON.stringify({ ...JSON.parse(opts), nonces: ['00'.repeat(32)] }), NOW, [nonce('a')]), 'ERR_INVALID_ARGUMENT', 'nonces twice'),
    codedError(() => wit.ocsp.signerOcspRequestCount(good, '{"kid":"good","colour":"red"}', NOW), 'ERR_INVALID_ARGUMENT', 'unknown member'),
    codedError(() => wit.ocsp.signerOcspRequestCount(good, '{"kid":"good","kid":"good"}', NOW), 'ERR_INVALID_ARGUMENT', 'duplicate member'),
    codedError(() => wit.ocsp.signerOcspRequestCount(good, 'not JSON', NOW), 'ERR_INVALID_ARGUMENT', 'not JSON'),
    codedError(() => wit.ocsp.checkSignerOcsp(good, [], NOW, opts), 'ERR_INVALID_ARGUMENT', 'an answer short'),
    codedError(() => wit.ocsp.checkSignerOcsp(good, Array.from({ length: 1000 }, () => witAnswer({ error: 'timeout' })), NOW, opts), 'ERR_INVALID_ARGUMENT', '1000 answers'),
    codedError(() => wit.ocsp.checkSignerOcsp(good, [{ tag: 'failed', val: { tag: 'http-status', val: 42 } }], NOW, opts), 'ERR_INVALID_ARGUMENT', 'HTTP 42'),
    codedError(() => wit.ocsp.checkSignerOcsp(good, [witAnswer({ error: 'timeout' })], 2n ** 63n, opts), 'ERR_INVALID_ARGUMENT', 'now out of range'),
  ];
  assert.deepEqual(e.map((x) => x.field), ['nonces', 'nonces', 'nonces[0]', 'nonces', 'nonces', 'options', 'options', 'options', 'answers', 'answers', 'answers[0]', 'now']);
  assert.match(codedError(() => wit.ocsp.signerOcspRequestCount(good, JSON.stringify({ kid: 'other' }), NOW), 'ERR_JWKS_NO_MATCHING_KEY').message, /./);
  codedError(() => wit.ocsp.signerOcspRequestCount(utf8('{"keys":'), opts, NOW), 'ERR_JSON_SYNTAX', 'a broken key set');
  codedError(() => wit.ocsp.signerOcspRequestCount(good, undefined, NOW), 'ERR_SIGNER_UNTRUSTED', 'NRAS\'s anchors by default');
  // A 1 MiB body where a response goes: a failed certificate, so unconfirmed, not a pass.
  const huge = wit.ocsp.checkSignerOcsp(good, [witAnswer({ body: new Uint8Array(1 << 20) })], NOW, opts);
  assert.deepEqual([huge.status, huge.code], ['failed', 'ERR_SIGNER_REVOCATION_UNCONFIRMED']);
  assert.equal(wit.ocsp.checkSignerOcsp(good, asked('good').answers, NOW, opts).status, 'good');
});
