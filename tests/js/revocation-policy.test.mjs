// The relying party's revocation policy through the npm package: verifyAttestationResult's
// `revocation` option (per component allowUnknown, revokedGracePeriod, allowHold), the
// `revocationRelaxed` flag and the device warnings naming each acceptance. Tokens: NVIDIA's
// real claims 3.0 Hopper token's claim set (tests/fixtures/nvidia/nras/nvat), edited to say
// what this crate's service writes for a chain that is unknown, revoked (with its
// `x-edgeattest-cert-revocation-time`) or on hold, minted and signed here (as
// revocation-verdict.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createDetachedEat, createJwks, generateKeyPair, verifyAttestationResult } from '../../pkg/index.js';

const fixtures = new URL('../fixtures/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const NOW = 1_800_000_000;
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };
const overallClaims = {
  sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': '3.0', 'x-nvidia-overall-att-result': true, eat_nonce: NONCE,
};
const DEVICE = 'x-nvidia-gpu-attestation-report-cert-chain';
const DRIVER = 'x-nvidia-gpu-driver-rim-cert-chain';
const VBIOS = 'x-nvidia-gpu-vbios-rim-cert-chain';
const CHAINS = { deviceChain: DEVICE, driverRimChain: DRIVER, vbiosRimChain: VBIOS };
const DESCRIBED = { deviceChain: 'device certificate chain', driverRimChain: 'driver RIM chain', vbiosRimChain: 'VBIOS RIM chain' };
/** Revoked an hour before NOW. */
const REVOKED_AT = NOW - 3600;
const rfc3339 = (secs) => new Date(secs * 1000).toISOString().replace('.000Z', 'Z');
const HOLD_WARNING = (chain) => `A certificate of the ${chain} is on hold (certificateHold), accepted because allowHold is set (the revocation policy, or the request's X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true)`;
const GRACE_WARNING = (chain) => `A certificate of the ${chain} was revoked at ${rfc3339(REVOKED_AT)} (keyCompromise), accepted until ${rfc3339(REVOKED_AT + 7200)} because the revocation policy sets revokedGracePeriod`;

/** The Hopper's claims with `edit` applied to the chain object of `component`. */
function hopper(component, edit = () => {}) {
  const claims = { ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times };
  if (component) {
    const chain = { ...claims[CHAINS[component]] };
    edit(chain, claims);
    claims[CHAINS[component]] = chain;
  }
  return claims;
}

const unknown = (chain) => { chain['x-nvidia-cert-ocsp-status'] = 'unknown'; };
/** Revoked, as this crate's service writes a chain passed in its grace period. */
const revoked = ({ dated = true, prose = true } = {}) => (chain, claims) => {
  Object.assign(chain, { 'x-nvidia-cert-status': 'revoked', 'x-nvidia-cert-ocsp-status': 'revoked', 'x-nvidia-cert-revocation-reason': 'keyCompromise' });
  if (dated) chain['x-edgeattest-cert-revocation-time'] = rfc3339(REVOKED_AT);
  if (prose) claims['x-nvidia-attestation-warning'] = GRACE_WARNING('device certificate chain');
};
/** On hold, reported revoked with the reason certificateHold. */
const held = (chain) => {
  Object.assign(chain, { 'x-nvidia-cert-status': 'revoked', 'x-nvidia-cert-ocsp-status': 'revoked', 'x-nvidia-cert-revocation-reason': 'certificateHold' });
  chain['x-edgeattest-cert-revocation-time'] = rfc3339(REVOKED_AT);
};

const key = await generateKeyPair({ kid: 'k', backend: 'software' });
const jwks = createJwks([{ kid: 'k', key: key.publicJwk }]);
const mint = (claims) => createDetachedEat(overallClaims, { 'GPU-0': claims }, key.privateKey, { kid: 'k' });
const verify = (result, options = {}) => verifyAttestationResult(result, jwks, { now: NOW, nonce: NONCE, signers: 'any', ...options });
const refusal = (result, options) => verify(result, options).then(() => assert.fail(`resolved under ${JSON.stringify(options)}`), (e) => e);

/** A relaxed pass: `revocationRelaxed`, and a device warning naming the chain and the member. */
function assertRelaxed(verified, component, member) {
  assert.equal(verified.revocationRelaxed, true);
  assert.equal(verified.appraisal.passed, true);
  assert.equal(verified.appraisal.revocationConfirmed, false);
  const [gpu] = verified.appraisal.devices;
  const ours = `relying party's revocation policy sets ${member}`;
  assert.ok(gpu.warnings.some((w) => w.includes(DESCRIBED[component]) && w.includes(ours)), JSON.stringify(gpu.warnings));
}

test('allowUnknown: an unknown chain passes only under its own component\'s rule', async () => {
  for (const component of Object.keys(CHAINS)) {
    const result = await mint(hopper(component, unknown));
    const strict = await refusal(result);
    assert.equal(strict.code, 'ERR_REVOCATION_UNCONFIRMED', component);
    assert.equal(strict.result.revocationRelaxed, false);
    assertRelaxed(await verify(result, { revocation: { [component]: { allowUnknown: true } } }), component, 'allowUnknown');
    // Every other component's rule, and its own grace period and hold, do not.
    const others = Object.fromEntries(Object.keys(CHAINS).filter((c) => c !== component)
      .map((c) => [c, { allowUnknown: true, allowHold: true, revokedGracePeriod: 2 ** 32 }]));
    for (const revocation of [others, { [component]: { allowHold: true, revokedGracePeriod: 2 ** 32 } }]) {
      assert.equal((await refusal(result, { revocation })).code, 'ERR_REVOCATION_UNCONFIRMED', `${component} ${JSON.stringify(revocation)}`);
    }
    // The shorthand is allowUnknown everywhere, merged with the policy.
    assertRelaxed(await verify(result, { allowUnknownRevocation: true }), component, 'allowUnknown');
    assertRelaxed(await verify(result, { allowUnknownRevocation: true, revocation: { deviceChain: { allowHold: true } } }), component, 'allowUnknown');
  }
});

test('revokedGracePeriod counts from x-edgeattest-cert-revocation-time: inside passes, outside is refused', async () => {
  const result = await mint(hopper('deviceChain', revoked()));
  const strict = await refusal(result);
  assert.equal(strict.code, 'ERR_ATTESTATION_FAILED');
  // Revoked an hour ago: two hours cover now.
  const inside = await verify(result, { revocation: { deviceChain: { revokedGracePeriod: 7200 } } });
  assertRelaxed(inside, 'deviceChain', 'revokedGracePeriod');
  const sentence = inside.appraisal.devices[0].warnings.find((w) => w.includes('the relying party'));
  assert.ok(sentence.includes(`was revoked at ${rfc3339(REVOKED_AT)} (keyCompromise)`), sentence);
  assert.ok(sentence.includes(`accepted until ${rfc3339(REVOKED_AT + 7200)}`), sentence);
  // The period ends exactly now (exclusive), and half an hour ago.
  for (const period of [3600, 1800]) {
    const outside = await refusal(result, { revocation: { deviceChain: { revokedGracePeriod: period } } });
    assert.equal(outside.code, 'ERR_ATTESTATION_FAILED', `${period}`);
    assert.equal(outside.field, 'GPU-0');
    assert.match(outside.appraisal.devices[0].reasons[0].message, /revokedGracePeriod ended at/);
    assert.equal(outside.result.revocationRelaxed, false);
  }
  // allowUnknown, allowHold, and another component's period do not accept it.
  for (const revocation of [{ deviceChain: { allowUnknown: true, allowHold: true } }, { driverRimChain: { revokedGracePeriod: 2 ** 32 } }]) {
    assert.equal((await refusal(result, { revocation })).code, 'ERR_ATTESTATION_FAILED', JSON.stringify(revocation));
  }
  assert.equal((await refusal(result, { allowUnknownRevocation: true })).code, 'ERR_ATTESTATION_FAILED');
});

test('the warning prose alone dates nothing: a revoked chain without the member is refused under any period', async () => {
  const result = await mint(hopper('deviceChain', revoked({ dated: false })));
  const error = await refusal(result, { revocation: { deviceChain: { revokedGracePeriod: 2 ** 32 } } });
  assert.equal(error.code, 'ERR_ATTESTATION_FAILED');
  assert.match(error.appraisal.devices[0].reasons[0].message, /carry no revocation time/);
  // The member without the prose is enough.
  const dated = await mint(hopper('deviceChain', revoked({ prose: false })));
  assertRelaxed(await verify(dated, { revocation: { deviceChain: { revokedGracePeriod: 7200 } } }), 'deviceChain', 'revokedGracePeriod');
});

test('a malformed x-edgeattest-cert-revocation-time is refused as unreadable, never a pass', async () => {
  const revocation = { deviceChain: { revokedGracePeriod: 2 ** 32, allowUnknown: true, allowHold: true } };
  for (const bad of ['2027-01-15 07:00:00Z', '1799996400', 'an hour ago', 1_799_996_400, null, false, [rfc3339(REVOKED_AT)]]) {
    const result = await mint(hopper('deviceChain', (chain, claims) => {
      revoked()(chain, claims);
      chain['x-edgeattest-cert-revocation-time'] = bad;
    }));
    const error = await refusal(result, { revocation, allowUnknownRevocation: true });
    assert.equal(error.code, 'ERR_EAT_CLAIMS_UNREADABLE', JSON.stringify(bad));
    assert.equal(error.field, 'GPU-0');
    const [reason] = error.appraisal.devices[0].reasons;
    assert.equal(reason.claim, DEVICE);
    assert.match(reason.message, /x-edgeattest-cert-revocation-time is not an RFC 3339 time/);
  }
});

test('allowHold: a held chain passes only under its own component\'s rule', async () => {
  for (const component of Object.keys(CHAINS)) {
    // Reported revoked with the reason certificateHold (the service refused the hold).
    const result = await mint(hopper(component, held));
    assert.equal((await refusal(result)).code, 'ERR_ATTESTATION_FAILED', component);
    assertRelaxed(await verify(result, { revocation: { [component]: { allowHold: true } } }), component, 'allowHold');
    for (const revocation of [{ [component]: { allowUnknown: true } }, Object.fromEntries(Object.keys(CHAINS).filter((c) => c !== component).map((c) => [c, { allowHold: true }]))]) {
      assert.equal((await refusal(result, { revocation })).code, 'ERR_ATTESTATION_FAILED', `${component} ${JSON.stringify(revocation)}`);
    }
    // Accepted by the service (its chain reads good, its warning says hold).
    const accepted = await mint(hopper(component, (chain, claims) => {
      chain['x-edgeattest-cert-revocation-time'] = rfc3339(REVOKED_AT);
      claims['x-nvidia-attestation-warning'] = HOLD_WARNING(DESCRIBED[component]);
    }));
    assert.equal((await refusal(accepted)).code, 'ERR_REVOCATION_UNCONFIRMED', component);
    assert.equal((await refusal(accepted, { allowUnknownRevocation: true })).code, 'ERR_REVOCATION_UNCONFIRMED', component);
    assertRelaxed(await verify(accepted, { revocation: { [component]: { allowHold: true } } }), component, 'allowHold');
  }
});

test('a good result is confirmed and never relaxed, whatever the policy; a malformed policy is a coded error', async () => {
  const result = await mint(hopper());
  for (const revocation of [undefined, {}, { deviceChain: { allowUnknown: true, allowHold: true, revokedGracePeriod: 60 } }]) {
    const verified = await verify(result, revocation ? { revocation } : {});
    assert.equal(verified.revocationRelaxed, false);
    assert.equal(verified.appraisal.revocationConfirmed, true);
    assert.deepEqual(verified.appraisal.devices[0].warnings, []);
  }
  for (const revocation of [{ gpuChain: {} }, { deviceChain: { allowUnknown: 1 } }, { deviceChain: { revokedGracePeriod: -5 } }, true, 'strict']) {
    await assert.rejects(verify(result, { revocation }), (error) => {
      assert.equal(error.code, 'ERR_INVALID_ARGUMENT', `${JSON.stringify(revocation)}: ${error.message}`);
      assert.match(String(error.field), /^revocation/);
      return true;
    });
  }
});
