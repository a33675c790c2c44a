// The local verifier's revocation rule through the npm package: checkOcspResponses and
// fetchOcspStatus with `rule` (allowUnknown, revokedGracePeriod, allowHold) and `component`,
// on the static responses of tests/fixtures/generated/ocsp/responses (made offline by `openssl
// ocsp` for requests our code built; see ocsp.test.mjs). Each outcome the rule lets pass makes
// the chain `good` with one warning naming the component and the rule member; the shorthand
// `allowHold` is merged into `rule`, never replaces it; a response not believed fails whatever
// the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOcspResponses, fetchOcspStatus } from '../../pkg/local/index.js';
import { text, bytes, manifest, nonce, answer } from './support/ocsp-fixtures.mjs';


/** Every device response is current at NOW; brom_revoked and brom_hold were revoked at REVOKED_AT. */
const NOW = manifest['brom_good.der'].now;
const REVOKED_AT = 1717200000;
const REVOKED_AT_TEXT = '2024-06-01T00:00:00Z';
const AGE = NOW - REVOKED_AT;

/** Checks a device chain `chain_<status>.pem` whose BROM answer is `brom` (ica, identity good). */
function device(status, brom, options) {
  const answers = [typeof brom === 'string' ? answer(brom) : brom, answer('ica.der'), answer('identity.der')];
  return checkOcspResponses(text(`chain_${status}.pem`), 'device', answers, NOW, options);
}

/** A pass under the rule: `good`, not held unless `held`, one warning naming `chain` and `member`. */
function relaxed(result, chain, member, held = false) {
  assert.equal(result.status, 'good', JSON.stringify(result));
  assert.equal(result.held, held ? true : undefined);
  assert.equal(result.serviceCode, undefined);
  assert.equal(result.warnings.length, 1, JSON.stringify(result.warnings));
  assert.ok(result.warnings[0].includes(`of the ${chain}`), result.warnings[0]);
  assert.ok(result.warnings[0].includes(member), result.warnings[0]);
  return result.warnings[0];
}

test('allowUnknown: an unknown certificate and an unanswered query pass with a warning; a response not believed does not', () => {
  const strict = device('unknown', 'brom_unknown.der');
  assert.equal(strict.status, 'unknown');
  assert.equal(strict.serviceCode, 5003);
  assert.deepEqual(strict.warnings, []);
  const rule = { allowUnknown: true };
  const warning = relaxed(device('unknown', 'brom_unknown.der', { rule }), 'device certificate chain', 'allowUnknown');
  assert.match(warning, /does not know a certificate/);
  // Unanswered: the host could not fetch it.
  const timeout = device('good', { error: 'timeout' }, { rule });
  assert.match(relaxed(timeout, 'device certificate chain', 'allowUnknown'), /could not be had \(ERR_OCSP_UNAVAILABLE\)/);
  assert.equal(timeout.certificates[0].status, 'failed');
  assert.equal(device('good', { error: 'timeout' }).code, 'ERR_OCSP_UNAVAILABLE');
  // Had but not believed: not "no answer".
  for (const [file, code] of [['bad_signature.der', 'ERR_OCSP_SIGNATURE_INVALID'], ['rogue_responder.der', 'ERR_OCSP_UNAUTHORIZED_RESPONDER']]) {
    const refused = device('good', file, { rule: { allowUnknown: true, allowHold: true, revokedGracePeriod: 2 ** 32 } });
    assert.equal(refused.status, 'failed', file);
    assert.equal(refused.code, code, file);
    assert.deepEqual(refused.warnings, []);
  }
  // allowUnknown accepts neither a revoked nor a held certificate.
  assert.equal(device('revoked', 'brom_revoked.der', { rule }).status, 'revoked');
  assert.equal(device('hold', 'brom_hold.der', { rule }).status, 'revoked');
});

test('revokedGracePeriod: a revoked certificate passes until revocationTime + period (exclusive), its warning dated', () => {
  const strict = device('revoked', 'brom_revoked.der');
  assert.equal(strict.status, 'revoked');
  assert.equal(strict.certificates[0].revokedAt, REVOKED_AT);
  // Inside: one second left.
  const inside = device('revoked', 'brom_revoked.der', { rule: { revokedGracePeriod: AGE + 1 } });
  const warning = relaxed(inside, 'device certificate chain', 'revokedGracePeriod');
  assert.ok(warning.includes(`was revoked at ${REVOKED_AT_TEXT} (keyCompromise)`), warning);
  assert.ok(warning.includes(`accepted until ${new Date((NOW + 1) * 1000).toISOString().replace('.000Z', 'Z')}`), warning);
  // The certificate's own entry still says what the responder said.
  assert.equal(inside.certificates[0].status, 'revoked');
  assert.equal(inside.certificates[0].reason, 'keyCompromise');
  // Outside: the period ends exactly now, and a year early.
  for (const period of [AGE, AGE - 365 * 86400]) {
    const outside = device('revoked', 'brom_revoked.der', { rule: { revokedGracePeriod: period } });
    assert.equal(outside.status, 'revoked', `${period}`);
    assert.equal(outside.reason, 'keyCompromise');
    assert.equal(outside.serviceCode, 5002);
    assert.deepEqual(outside.warnings, []);
  }
  // A RIM chain, named by its component.
  const files = ['rim_signer_revoked.der', 'rim_l3.der', 'rim_ca.der'];
  const rim = checkOcspResponses(text('rim_signer_revoked_chain.pem'), 'rim', files.map(answer), NOW,
    { rule: { revokedGracePeriod: 2 ** 32 }, component: 'driverRimChain' });
  relaxed(rim, 'driver RIM chain', 'revokedGracePeriod');
});

test('allowHold: a held certificate passes as held; the shorthand is merged into rule', () => {
  const hold = (options) => device('hold', 'brom_hold.der', options);
  assert.equal(hold().status, 'revoked');
  assert.equal(hold().reason, 'certificateHold');
  relaxed(hold({ rule: { allowHold: true } }), 'device certificate chain', 'allowHold', true);
  relaxed(hold({ allowHold: true }), 'device certificate chain', 'allowHold', true);
  // Shorthand and rule together: the rule's other members stay.
  const both = { allowHold: true, rule: { allowUnknown: true } };
  relaxed(hold(both), 'device certificate chain', 'allowHold', true);
  relaxed(device('unknown', 'brom_unknown.der', both), 'device certificate chain', 'allowUnknown');
  relaxed(device('revoked', 'brom_revoked.der', { allowHold: true, rule: { revokedGracePeriod: AGE + 60 } }),
    'device certificate chain', 'revokedGracePeriod');
  // The shorthand false does not turn the rule's allowHold off; it adds nothing else.
  relaxed(hold({ allowHold: false, rule: { allowHold: true } }), 'device certificate chain', 'allowHold', true);
  assert.equal(device('unknown', 'brom_unknown.der', { allowHold: true }).status, 'unknown');
  // A hold not allowed is revoked: a grace period covers it.
  const graced = hold({ rule: { revokedGracePeriod: AGE + 60 } });
  assert.match(relaxed(graced, 'device certificate chain', 'revokedGracePeriod'), /\(certificateHold\)/);
  assert.equal(graced.held, undefined);
});

test('component names the chain in the warnings; a strict rule and a good chain warn of nothing', () => {
  const components = {
    deviceChain: 'device certificate chain',
    switchChain: 'switch certificate chain',
    driverRimChain: 'driver RIM chain',
    vbiosRimChain: 'VBIOS RIM chain',
    signerChain: "result signer's chain",
  };
  for (const [component, chain] of Object.entries(components)) {
    const result = device('unknown', 'brom_unknown.der', { rule: { allowUnknown: true }, component });
    relaxed(result, chain, 'allowUnknown');
    for (const [other, name] of Object.entries(components)) {
      if (other !== component && !chain.includes(name)) assert.ok(!result.warnings[0].includes(`of the ${name}`), `${component}: ${other}`);
    }
  }
  // Without component, a RIM chain is "RIM chain".
  const files = ['rim_signer_revoked.der', 'rim_l3.der', 'rim_ca.der'];
  const rim = checkOcspResponses(text('rim_signer_revoked_chain.pem'), 'rim', files.map(answer), NOW, { rule: { revokedGracePeriod: 2 ** 32 } });
  relaxed(rim, 'RIM chain', 'revokedGracePeriod');
  const everything = { rule: { allowUnknown: true, allowHold: true, revokedGracePeriod: 2 ** 32 }, component: 'deviceChain' };
  const good = device('good', 'brom_good.der', everything);
  assert.equal(good.status, 'good');
  assert.deepEqual(good.warnings, []);
  assert.equal(good.held, undefined);
});

test('a malformed rule or component is a coded error', () => {
  const answers = ['brom_good.der', 'ica.der', 'identity.der'].map(answer);
  const refused = (options, field) => assert.throws(
    () => checkOcspResponses(text('chain_good.pem'), 'device', answers, NOW, options),
    (error) => {
      assert.equal(error.code, 'ERR_INVALID_ARGUMENT', error.message);
      assert.ok(String(error.field).startsWith(field), `${error.field} ${error.message}`);
      return true;
    },
  );
  refused({ component: 'gpuChain' }, 'component');
  refused({ component: 7 }, 'component');
  refused({ rule: { allowUnknown: 'yes' } }, 'rule');
  refused({ rule: { revokedGracePeriod: -1 } }, 'rule');
  refused({ rule: { allowUnknwn: true } }, 'rule');
  refused({ rule: true }, 'rule');
});

test('fetchOcspStatus: rule and component reach the check, and allowHold merges with rule', async () => {
  // A stand-in responder answering with the static response of the certificate in the body.
  const names = ['brom_good', 'brom_unknown', 'brom_hold', 'brom_revoked', 'ica', 'identity'];
  const byRequest = new Map(names.map((n) => [Buffer.from(bytes(`responses/requests/${n}.der`).subarray(0, 150)).toString('hex'), n]));
  const fetch = async (url, init) => {
    const name = byRequest.get(Buffer.from(init.body.subarray(0, 150)).toString('hex'));
    assert.ok(name, 'a request of the fixtures');
    return new Response(bytes(`responses/${name}.der`), { status: 200 });
  };
  const fetched = (status, brom, options) => fetchOcspStatus(text(`chain_${status}.pem`),
    { fetch, now: NOW, nonces: [nonce(brom), nonce('ica'), nonce('identity')], ...options });

  assert.equal((await fetched('unknown', 'brom_unknown')).status, 'unknown');
  relaxed(await fetched('unknown', 'brom_unknown', { rule: { allowUnknown: true }, component: 'switchChain' }),
    'switch certificate chain', 'allowUnknown');
  relaxed(await fetched('revoked', 'brom_revoked', { rule: { revokedGracePeriod: AGE + 1 }, component: 'vbiosRimChain', kind: 'device' }),
    'VBIOS RIM chain', 'revokedGracePeriod');
  assert.equal((await fetched('revoked', 'brom_revoked', { rule: { revokedGracePeriod: AGE } })).status, 'revoked');
  // The shorthand alone, and merged with a rule whose allowUnknown stays.
  relaxed(await fetched('hold', 'brom_hold', { allowHold: true }), 'device certificate chain', 'allowHold', true);
  const both = { allowHold: true, rule: { allowUnknown: true }, component: 'deviceChain' };
  relaxed(await fetched('hold', 'brom_hold', both), 'device certificate chain', 'allowHold', true);
  relaxed(await fetched('unknown', 'brom_unknown', both), 'device certificate chain', 'allowUnknown');
  // An unreachable responder is unanswered: allowUnknown passes it, the strict default does not.
  const down = { fetch: async () => { throw new TypeError('fetch failed'); } };
  assert.equal((await fetchOcspStatus(text('chain_good.pem'), down)).code, 'ERR_OCSP_UNAVAILABLE');
  const passed = await fetchOcspStatus(text('chain_good.pem'), { ...down, rule: { allowUnknown: true }, component: 'deviceChain' });
  assert.equal(passed.status, 'good');
  assert.equal(passed.warnings.length, 3, 'one warning per unanswered certificate');
  for (const warning of passed.warnings) assert.match(warning, /device certificate chain could not be had .*allowUnknown/);
  await assert.rejects(fetchOcspStatus(text('chain_good.pem'), { fetch, rule: { allowUnknown: 1 } }), { code: 'ERR_INVALID_ARGUMENT' });
});
