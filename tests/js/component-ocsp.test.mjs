// The verifier component's `ocsp` interface against the npm package's ocspRequests /
// checkOcspResponses, on every recorded response of tests/fixtures/generated/ocsp/responses
// (good, revoked, unknown, held, stale, bad signature, rogue responders, nonce mismatch and
// not echoed, ...), on every fetch failure and under each revocation rule: the same requests
// byte for byte, the same chain status whole. A revoked or failed chain is a status that is
// not `good`, never an error and never a pass. Hostile arguments: coded errors, and the instance stays usable.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { ocspRequests, checkOcspResponses } from '../../pkg/local/index.js';
import { agree, caught, codedError, loadComponent, ocspStatusToJs, witAnswer } from './support/component.mjs';

const pki = new URL('../fixtures/generated/ocsp/', import.meta.url);
const text = (file) => readFileSync(new URL(file, pki), 'utf8');
const bytes = (file) => new Uint8Array(readFileSync(new URL(file, pki)));
const manifest = JSON.parse(text('responses/manifest.json'));
/** The fixed nonce of a named request (tests/common/ocsp_fixtures.rs `nonce`). */
const nonce = (name) => new Uint8Array(createHash('sha256').update(`edgeattest ocsp fixture ${name}`).digest());
const DEVICE = ['brom_good', 'ica', 'identity'];
const RIM = ['rim_signer', 'rim_l3', 'rim_ca'];

let wit;
before(async () => {
  wit = await loadComponent();
});

/** The JS `CheckOcspOptions` as the component's `options` (JSON; none when absent). */
const witOptions = (options) => (options === undefined ? undefined : JSON.stringify(options));
const HOLD = witOptions({ allowHold: true });

/** Both sides check `answers` for `chain` at `now` under the JS `options`; returns the JS status. */
function check(chain, kind, answers, now, options, label) {
  const js = caught(() => checkOcspResponses(chain, kind, answers, now, options));
  const component = caught(() => wit.ocsp.checkOcspResponses(chain, kind, answers.map(witAnswer), BigInt(now), witOptions(options)));
  agree(js, component, label, ocspStatusToJs);
  if (js.ok && js.ok.status !== 'good') {
    assert.notEqual(component.ok.status, 'good', `${label}: a ${js.ok.status} chain must not read as good`);
    assert.ok(component.ok.serviceCode >= 5001, label);
  }
  return js.ok;
}

test('ocsp-requests agrees with ocspRequests on every fixture chain, byte for byte (nonces from the host)', () => {
  const chains = readdirSync(pki).filter((f) => /^chain_.*\.pem$/.test(f));
  assert.ok(chains.length >= 12, `${chains.length} chains`);
  const cases = [...chains.map((f) => [f, 'device']), ['rim_signer_chain.pem', 'rim'], ['rim_signer_revoked_chain.pem', 'rim'], ['chain_good.pem', 'rim']];
  for (const [file, kind] of cases) {
    const chain = text(file);
    const count = wit.ocsp.ocspRequestCount(chain, kind);
    const nonces = Array.from({ length: count }, (_, i) => nonce(`${file} ${i}`));
    const js = ocspRequests(chain, { kind, nonces });
    assert.equal(js.length, count, file);
    const component = wit.ocsp.ocspRequests(chain, kind, nonces);
    assert.deepEqual(
      component.map((r) => ({ ...r, request: [...r.request], nonce: [...r.nonce] })),
      js.map((r) => ({ ...r, request: [...r.request], nonce: [...r.nonce] })),
      `${file} ${kind}`,
    );
  }
  // The recorded requests themselves (responses/requests/*.der), with their nonces.
  const device = wit.ocsp.ocspRequests(text('chain_good.pem'), 'device', DEVICE.map(nonce));
  device.forEach((r, i) => assert.deepEqual([...r.request], [...bytes(`responses/requests/${DEVICE[i]}.der`)], DEVICE[i]));
});

test('check-ocsp-responses agrees with checkOcspResponses on every recorded response (with and without allowHold, current and stale)', () => {
  const files = readdirSync(new URL('responses/', pki)).filter((f) => f.endsWith('.der'));
  assert.ok(files.length >= 35, `${files.length} responses`);
  const statuses = new Map();
  for (const file of files) {
    const entry = manifest[file] ?? { request: 'brom_good', now: manifest['brom_good.der'].now };
    const request = entry.request;
    // The chain the response is about, and the place of its certificate in it.
    const rim = request.startsWith('rim_');
    const chainFile = rim
      ? (request === 'rim_signer_revoked' ? 'rim_signer_revoked_chain.pem' : 'rim_signer_chain.pem')
      : (request.startsWith('brom_') ? `chain_${request.slice(5)}.pem` : 'chain_good.pem');
    const names = rim ? RIM.map((n) => (n === 'rim_signer' && request === 'rim_signer_revoked' ? request : n)) : DEVICE.map((n) => (n === 'brom_good' && request.startsWith('brom_') ? request : n));
    const at = names.indexOf(request);
    assert.ok(at >= 0, `${file}: ${request}`);
    const answers = names.map((n, i) => (i === at
      ? { body: bytes(`responses/${file}`), nonce: nonce(request) }
      : { body: bytes(`responses/${n}.der`), nonce: nonce(n) }));
    const kind = rim ? 'rim' : 'device';
    const chain = text(chainFile);
    for (const now of [entry.now, entry.now + 86_400 + 300]) {
      for (const allowHold of [false, true]) {
        const status = check(chain, kind, answers, now, allowHold ? { allowHold } : undefined, `${file} at ${now}${allowHold ? ' allowing hold' : ''}`);
        if (status) statuses.set(`${status.status} ${status.code ?? ''}`.trim(), file);
      }
    }
    // Without the nonce (a response compared with none), and replayed under another request's.
    check(chain, kind, answers.map((a, i) => (i === at ? { body: a.body } : a)), entry.now, undefined, `${file} without nonce`);
    check(chain, kind, answers.map((a, i) => (i === at ? { body: a.body, nonce: nonce('another request') } : a)), entry.now, undefined, `${file} replayed`);
  }
  // The fixtures cover every outcome the issue names.
  for (const seen of ['good', 'revoked', 'unknown', 'failed ERR_OCSP_STALE', 'failed ERR_OCSP_SIGNATURE_INVALID', 'failed ERR_OCSP_NONCE_MISMATCH', 'failed ERR_OCSP_UNAUTHORIZED_RESPONDER']) {
    assert.ok(statuses.has(seen), `no fixture gave ${seen}: ${[...statuses.keys()].join(', ')}`);
  }
});

test('check-ocsp-responses: revoked and held chains are typed non-good states; allowHold is the caller\'s', () => {
  const answer = (file, name) => ({ body: bytes(`responses/${file}`), nonce: nonce(name) });
  const rest = [answer('ica.der', 'ica'), answer('identity.der', 'identity')];
  const now = BigInt(manifest['brom_good.der'].now);
  const revoked = wit.ocsp.checkOcspResponses(text('chain_revoked.pem'), 'device', [answer('brom_revoked.der', 'brom_revoked'), ...rest].map(witAnswer), now, HOLD);
  assert.deepEqual([revoked.status, revoked.reason, revoked.serviceCode, revoked.held], ['revoked', 'keyCompromise', 5002, false]);
  assert.equal(revoked.certificates[0].revokedAt, 1717200000n);
  const held = [answer('brom_hold.der', 'brom_hold'), ...rest].map(witAnswer);
  const refused = wit.ocsp.checkOcspResponses(text('chain_hold.pem'), 'device', held, now, undefined);
  assert.deepEqual([refused.status, refused.reason], ['revoked', 'certificateHold']);
  const allowed = wit.ocsp.checkOcspResponses(text('chain_hold.pem'), 'device', held, now, HOLD);
  assert.deepEqual([allowed.status, allowed.held], ['good', true]);
  const unknown = wit.ocsp.checkOcspResponses(text('chain_unknown.pem'), 'device', [answer('brom_unknown.der', 'brom_unknown'), ...rest].map(witAnswer), now, undefined);
  assert.deepEqual([unknown.status, unknown.serviceCode], ['unknown', 5003]);
});

test('check-ocsp-responses: the revocation rule and component (options JSON) agree with checkOcspResponses; each relaxation a warning', () => {
  const answer = (file, name) => ({ body: bytes(`responses/${file}`), nonce: nonce(name) });
  const rest = [answer('ica.der', 'ica'), answer('identity.der', 'identity')];
  const now = manifest['brom_good.der'].now;
  const since = now - 1717200000;
  const chains = [
    ['revoked', [answer('brom_revoked.der', 'brom_revoked'), ...rest]],
    ['unknown', [answer('brom_unknown.der', 'brom_unknown'), ...rest]],
    ['hold', [answer('brom_hold.der', 'brom_hold'), ...rest]],
    ['good', [{ error: 'timeout' }, ...rest]],
  ];
  const rules = [{}, { allowUnknown: true }, { allowHold: true }, { revokedGracePeriod: since + 3600 }, { revokedGracePeriod: since - 3600 }];
  const seen = new Set();
  for (const [status, answers] of chains) {
    for (const rule of rules) {
      for (const component of [undefined, 'switchChain', 'driverRimChain']) {
        const options = { rule, ...(component ? { component } : {}) };
        const label = `${status} under ${JSON.stringify(options)}`;
        const js = check(text(`chain_${status}.pem`), 'device', answers, now, options, label);
        assert.equal(js.status === 'good', js.warnings.length === 1, `${label}: a relaxed pass carries its warning`);
        if (js.status === 'good') seen.add(`${status} ${Object.keys(rule)[0]}`);
      }
    }
  }
  // Each rule member lets its own outcomes pass, and only those (a hold is a revocation: the
  // grace period covers it too).
  assert.deepEqual([...seen].sort(), ['good allowUnknown', 'hold allowHold', 'hold revokedGracePeriod', 'revoked revokedGracePeriod', 'unknown allowUnknown']);
  const chain = text('chain_good.pem');
  const good = DEVICE.map((n) => witAnswer({ body: bytes(`responses/${n}.der`), nonce: nonce(n) }));
  for (const [options, label] of [['{"rule":{"allowUnknown":1}}', 'a number for a flag'], ['{"colour":"red"}', 'an unknown member'], ['{"allowHold":true,"allowHold":true}', 'a duplicate member'], ['not JSON', 'not JSON']]) {
    assert.equal(codedError(() => wit.ocsp.checkOcspResponses(chain, 'device', good, BigInt(now), options), 'ERR_INVALID_ARGUMENT', label).field, 'options');
  }
});

test('check-ocsp-responses agrees on every fetch failure (unreachable, timeout, HTTP status, too large, not fetched)', () => {
  const chain = text('chain_good.pem');
  const now = manifest['brom_good.der'].now;
  const good = DEVICE.map((n) => ({ body: bytes(`responses/${n}.der`), nonce: nonce(n) }));
  const failures = [{ error: 'unreachable' }, { error: 'timeout' }, { error: 'status', status: 503 }, { error: 'status', status: 404 }, { error: 'too-large' }, { error: 'not-fetched' }];
  for (const failure of failures) {
    for (let at = 0; at < 3; at++) {
      const status = check(chain, 'device', good.map((a, i) => (i === at ? failure : a)), now, undefined, `${JSON.stringify(failure)} at ${at}`);
      assert.equal(status.code, 'ERR_OCSP_UNAVAILABLE');
    }
  }
  check(chain, 'device', good, now, undefined, 'all good');
});

test('hostile ocsp arguments: coded errors, no trap, the instance stays usable', () => {
  const chain = text('chain_good.pem');
  const now = BigInt(manifest['brom_good.der'].now);
  const good = DEVICE.map((n) => witAnswer({ body: bytes(`responses/${n}.der`), nonce: nonce(n) }));
  const big = 'A'.repeat(16 * 1024 * 1024);
  const e = [
    codedError(() => wit.ocsp.ocspRequests(chain, 'device', [nonce('a')]), 'ERR_INVALID_ARGUMENT', 'one nonce short'),
    codedError(() => wit.ocsp.ocspRequests(chain, 'device', [nonce('a'), nonce('b'), new Uint8Array(31)]), 'ERR_INVALID_ARGUMENT', '31-byte nonce'),
    codedError(() => wit.ocsp.ocspRequests(chain, 'device', Array.from({ length: 10_000 }, () => nonce('x'))), 'ERR_INVALID_ARGUMENT', '10,000 nonces'),
    codedError(() => wit.ocsp.ocspRequests('not PEM', 'device', []), 'ERR_CHAIN_EMPTY'),
    codedError(() => wit.ocsp.ocspRequests(big, 'device', []), 'ERR_CHAIN_EMPTY', '16 MiB chain'),
    codedError(() => wit.ocsp.ocspRequestCount(`${chain}`.repeat(20), 'device'), 'ERR_CHAIN_TOO_MANY_CERTIFICATES', '80 certificates'),
    codedError(() => wit.ocsp.ocspRequests(chain.split(/(?<=-----END CERTIFICATE-----\n)/).reverse().join(''), 'device', DEVICE.map(nonce)), 'ERR_OCSP_INVALID_CERTIFICATE', 'out of order'),
    codedError(() => wit.ocsp.checkOcspResponses(chain, 'device', good.slice(1), now, undefined), 'ERR_INVALID_ARGUMENT', 'an answer short'),
    codedError(() => wit.ocsp.checkOcspResponses(chain, 'device', Array.from({ length: 1000 }, () => good[0]), now, undefined), 'ERR_INVALID_ARGUMENT', '1000 answers'),
    codedError(() => wit.ocsp.checkOcspResponses(chain, 'device', [good[0], good[1], { tag: 'failed', val: { tag: 'http-status', val: 42 } }], now, undefined), 'ERR_INVALID_ARGUMENT', 'HTTP 42'),
    codedError(() => wit.ocsp.checkOcspResponses(chain, 'device', good, 2n ** 63n, undefined), 'ERR_INVALID_ARGUMENT', 'now out of range'),
  ];
  assert.equal(e[0].field, 'nonces');
  assert.equal(e[1].field, 'nonces[2]');
  assert.equal(e[7].field, 'answers');
  assert.equal(e[9].field, 'answers[2]');
  // A 1 MiB body where a response goes: a failed certificate, not an error (as in JS).
  const huge = wit.ocsp.checkOcspResponses(chain, 'device', [witAnswer({ body: new Uint8Array(1 << 20) }), good[1], good[2]], now, undefined);
  assert.equal(huge.status, 'failed');
  assert.equal(wit.ocsp.checkOcspResponses(chain, 'device', good, now, undefined).status, 'good');
});
