// OCSP through the npm package: ocspRequests / checkOcspResponses (wasm core) with the
// static responses of tests/fixtures/generated/ocsp/responses (made offline by `openssl
// ocsp` and Python `cryptography` for requests our code built), and fetchOcspStatus with a
// stand-in fetch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ocspRequests, checkOcspResponses, fetchOcspStatus, NVIDIA_OCSP_URL } from '../../pkg/local/index.js';
import { text, bytes, manifest, nonce, answer } from './support/ocsp-fixtures.mjs';

/** A time at which every listed response is current. */
const nowFor = (...files) => Math.max(...files.map((f) => manifest[f].now));

const DEVICE = ['brom_good', 'ica', 'identity'];
const REVOKED_AT = 1717200000;

function rejects(fn, code, field) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

/** Checks a device chain whose BROM answer is `brom` (ica and identity good). */
function device(status, brom, options) {
  const files = [brom, 'ica.der', 'identity.der'];
  return checkOcspResponses(text(`chain_${status}.pem`), 'device', files.map(answer), nowFor(...files), options);
}

test('ocspRequests: our requests for the device chain, byte for byte', () => {
  const requests = ocspRequests(text('chain_good.pem'), { kind: 'device', nonces: DEVICE.map(nonce) });
  assert.deepEqual(requests.map((r) => r.certificate), ['GH100 A01 GSP BROM', 'Test OCSP GH100 Provisioner ICA 1', 'Test OCSP GH100 Identity']);
  assert.deepEqual(requests.map((r) => r.index), [1, 2, 3]);
  requests.forEach((r, i) => {
    assert.deepEqual(r.request, bytes(`responses/requests/${DEVICE[i]}.der`), DEVICE[i]);
    assert.deepEqual(r.nonce, nonce(DEVICE[i]));
  });
  const responders = JSON.parse(text('responders.json'));
  assert.match(requests[0].cacheKey, new RegExp(`^sha384:${responders.ica.issuer_key_hash.sha384}:4f4e2365c69b7e7e61b2e376df44bfc1c64b08eb$`));
});

test('ocspRequests: fresh random nonces by default; RIM chains include the signer', () => {
  const a = ocspRequests(text('chain_good.pem'), { kind: 'device' });
  const b = ocspRequests(text('chain_good.pem'), { kind: 'device' });
  for (const [x, y] of a.map((r, i) => [r, b[i]])) {
    assert.equal(x.nonce.length, 32);
    assert.notDeepEqual(x.nonce, y.nonce);
    assert.equal(x.cacheKey, y.cacheKey);
  }
  const rim = ocspRequests(text('rim_signer_chain.pem'), { kind: 'rim' });
  assert.deepEqual(rim.map((r) => r.certificate), ['Test OCSP RIM L4 Signer good', 'Test OCSP Reference Value L3 GH100', 'Test OCSP Reference Value GH100 CA']);
});

test('checkOcspResponses: a good device chain, per certificate', () => {
  const result = device('good', 'brom_good.der');
  assert.equal(result.status, 'good');
  assert.equal(result.serviceCode, undefined);
  assert.equal(result.certificates.length, 3);
  for (const [i, cert] of result.certificates.entries()) {
    const file = `${DEVICE[i]}.der`;
    assert.equal(cert.status, 'good', cert.subject);
    assert.equal(cert.nonce, 'matched');
    assert.equal(cert.thisUpdate, manifest[file].this_update);
    assert.equal(cert.nextUpdate, manifest[file].this_update + 86400);
    assert.equal(cert.cacheUntil, cert.nextUpdate);
  }
  assert.equal(result.certificates[0].subject, 'GH100 A01 GSP BROM');
});

test('checkOcspResponses: revoked, unknown and held chains', () => {
  const revoked = device('revoked', 'brom_revoked.der');
  assert.equal(revoked.status, 'revoked');
  assert.equal(revoked.reason, 'keyCompromise');
  assert.equal(revoked.serviceCode, 5002);
  assert.equal(revoked.certificates[0].revokedAt, REVOKED_AT);
  assert.equal(revoked.certificates[1].status, 'good');

  const unknown = device('unknown', 'brom_unknown.der');
  assert.equal(unknown.status, 'unknown');
  assert.equal(unknown.serviceCode, 5003);

  const held = device('hold', 'brom_hold.der');
  assert.equal(held.status, 'revoked');
  assert.equal(held.reason, 'certificateHold');
  const allowed = device('hold', 'brom_hold.der', { allowHold: true });
  assert.equal(allowed.status, 'good');
  assert.equal(allowed.held, true);
  assert.equal(allowed.certificates[0].reason, 'certificateHold');
});

test('checkOcspResponses: responses not believed and responders not reached', () => {
  const cases = [
    ['bad_signature.der', 'ERR_OCSP_SIGNATURE_INVALID'],
    ['rogue_responder.der', 'ERR_OCSP_UNAUTHORIZED_RESPONDER'],
    ['foreign_responder.der', 'ERR_OCSP_UNAUTHORIZED_RESPONDER'],
    ['ecdsa_sha256.der', 'ERR_OCSP_SIGNATURE_ALGORITHM'],
    ['brom_revoked.der', 'ERR_OCSP_CERT_ID_MISMATCH'],
  ];
  for (const [file, code] of cases) {
    const result = device('good', file);
    assert.equal(result.status, 'failed', file);
    assert.equal(result.code, code, file);
    assert.equal(result.serviceCode, 5001);
    assert.equal(result.certificates[0].status, 'failed');
    assert.equal(result.certificates[0].code, code);
    assert.equal(result.certificates[0].thisUpdate, null);
  }
  // A replay: the right response with another request's nonce.
  const chain = text('chain_good.pem');
  const now = nowFor('brom_good.der', 'ica.der', 'identity.der');
  const replay = [{ body: bytes('responses/brom_good.der'), nonce: nonce('ica') }, answer('ica.der'), answer('identity.der')];
  assert.equal(checkOcspResponses(chain, 'device', replay, now).code, 'ERR_OCSP_NONCE_MISMATCH');
  // Stale a day and 5 minutes after thisUpdate.
  const stale = checkOcspResponses(chain, 'device', DEVICE.map((n) => answer(`${n}.der`)), now + 86400 + 300);
  assert.equal(stale.code, 'ERR_OCSP_STALE');
  // Network failures, in chain order: the first non-good one decides.
  const down = checkOcspResponses(chain, 'device', [answer('brom_good.der'), { error: 'timeout' }, { error: 'status', status: 503 }], now);
  assert.equal(down.status, 'failed');
  assert.equal(down.code, 'ERR_OCSP_UNAVAILABLE');
  assert.equal(down.certificates[2].message, 'OCSP unavailable: the responder answered HTTP 503');
});

test('checkOcspResponses: a RIM chain', () => {
  const files = ['rim_signer.der', 'rim_l3.der', 'rim_ca.der'];
  const good = checkOcspResponses(text('rim_signer_chain.pem'), 'rim', files.map(answer), nowFor(...files));
  assert.equal(good.status, 'good');
  const revokedFiles = ['rim_signer_revoked.der', 'rim_l3.der', 'rim_ca.der'];
  const revoked = checkOcspResponses(text('rim_signer_revoked_chain.pem'), 'rim', revokedFiles.map(answer), nowFor(...revokedFiles));
  assert.equal(revoked.status, 'revoked');
  assert.equal(revoked.reason, 'keyCompromise');
});

test('hostile arguments are coded errors', () => {
  const chain = text('chain_good.pem');
  rejects(() => ocspRequests(chain, { kind: 'leaf' }), 'ERR_INVALID_ARGUMENT', 'kind');
  rejects(() => ocspRequests(chain), 'ERR_INVALID_ARGUMENT', 'options');
  rejects(() => ocspRequests(42, { kind: 'device' }), 'ERR_INVALID_ARGUMENT', 'chainPem');
  rejects(() => ocspRequests('not PEM', { kind: 'device' }), 'ERR_CHAIN_EMPTY');
  rejects(() => ocspRequests(chain, { kind: 'device', nonces: [nonce('a')] }), 'ERR_INVALID_ARGUMENT', 'nonces');
  rejects(() => ocspRequests(chain, { kind: 'device', nonces: [nonce('a'), nonce('b'), new Uint8Array(31)] }), 'ERR_INVALID_ARGUMENT', 'nonces[2]');
  // Out of order: the leaf's issuer is not the next certificate.
  const reversed = chain.split(/(?<=-----END CERTIFICATE-----\n)/).reverse().join('');
  rejects(() => ocspRequests(reversed, { kind: 'device' }), 'ERR_OCSP_INVALID_CERTIFICATE');
  const answers = DEVICE.map((n) => answer(`${n}.der`));
  rejects(() => checkOcspResponses(chain, 'device', answers.slice(1), 0), 'ERR_INVALID_ARGUMENT', 'answers');
  rejects(() => checkOcspResponses(chain, 'device', 'x', 0), 'ERR_INVALID_ARGUMENT', 'answers');
  rejects(() => checkOcspResponses(chain, 'device', [answers[0], answers[1], { error: 'gone' }], 0), 'ERR_INVALID_ARGUMENT', 'answers[2].error');
  rejects(() => checkOcspResponses(chain, 'device', [answers[0], answers[1], { error: 'status' }], 0), 'ERR_INVALID_ARGUMENT', 'answers[2].status');
  rejects(() => checkOcspResponses(chain, 'device', [answers[0], answers[1], { body: 5 }], 0), 'ERR_INVALID_ARGUMENT', 'answers[2].body');
  rejects(() => checkOcspResponses(chain, 'device', answers, -1), 'ERR_INVALID_ARGUMENT', 'now');
  rejects(() => checkOcspResponses(chain, 'device', answers, 0, { allowHold: 'yes' }), 'ERR_INVALID_ARGUMENT', 'allowHold');
});

test('fetchOcspStatus: POSTs each request and checks the answers', async () => {
  // A stand-in responder answering with the static response of the CertID in the body.
  const byRequest = new Map(DEVICE.map((n) => [Buffer.from(bytes(`responses/requests/${n}.der`).subarray(0, 150)).toString('hex'), n]));
  const seen = [];
  const fetch = async (url, init) => {
    seen.push([url, init.method, init.headers['content-type']]);
    const name = byRequest.get(Buffer.from(init.body.subarray(0, 150)).toString('hex'));
    return new Response(bytes(`responses/${name}.der`), { status: 200 });
  };
  const now = nowFor('brom_good.der', 'ica.der', 'identity.der');
  const result = await fetchOcspStatus(text('chain_good.pem'), { fetch, now, nonces: DEVICE.map(nonce) });
  assert.equal(seen.length, 3);
  assert.deepEqual(seen[0], [NVIDIA_OCSP_URL, 'POST', 'application/ocsp-request']);
  assert.equal(result.status, 'good');
  assert.deepEqual(result.certificates.map((c) => c.nonce), ['matched', 'matched', 'matched']);
  // With fresh nonces the stand-in's recorded answers are replays.
  const replayed = await fetchOcspStatus(text('chain_good.pem'), { fetch, now, url: 'http://127.0.0.1:9/' });
  assert.equal(seen[3][0], 'http://127.0.0.1:9/');
  assert.equal(replayed.code, 'ERR_OCSP_NONCE_MISMATCH');

  const refused = await fetchOcspStatus(text('chain_good.pem'), { fetch: async () => { throw new TypeError('fetch failed'); } });
  assert.equal(refused.code, 'ERR_OCSP_UNAVAILABLE');
  assert.match(refused.certificates[0].message, /unreachable/);
  const slow = await fetchOcspStatus(text('chain_good.pem'), { timeoutMs: 20, fetch: (url, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted')))) });
  assert.match(slow.certificates[0].message, /did not answer in time/);
  const status = await fetchOcspStatus(text('chain_good.pem'), { fetch: async () => new Response('no', { status: 500 }) });
  assert.match(status.certificates[0].message, /HTTP 500/);
  const big = await fetchOcspStatus(text('chain_good.pem'), { fetch: async () => new Response(new Uint8Array(65537), { status: 200 }) });
  assert.equal(big.certificates[0].code, 'ERR_OCSP_UNAVAILABLE');
  assert.match(big.certificates[0].message, /too large/);
  await assert.rejects(fetchOcspStatus(text('chain_good.pem'), { fetch: 'no' }), { code: 'ERR_INVALID_ARGUMENT', field: 'fetch' });
});
