// The relying party's revocation and readability rules of verifyAttestationResult in the
// release package (pkg/): a passing result whose certificate chains are not confirmed good is
// refused with ERR_REVOCATION_UNCONFIRMED unless allowUnknownRevocation, and then resolves
// saying so (revocationRelaxed); a device token whose claims do not read as its claims
// version defines them (a check of the wrong type, no verdict claim) is refused with
// ERR_EAT_CLAIMS_UNREADABLE and fails with that reason. Tokens: NVIDIA's real claims 3.0
// Hopper token's claim set (tests/fixtures/nvidia/nras/nvat), minted and signed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EdgeAttestError, createDetachedEat, createJwks, generateKeyPair, verifyAttestationResult } from '../../pkg/index.js';

const fixtures = new URL('../fixtures/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const NOW = 1_800_000_000;
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };
const overallClaims = (version = '3.0') => ({
  sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': version, 'x-nvidia-overall-att-result': true, eat_nonce: NONCE,
});
const hopper = () => ({ ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times });
const CHAINS = ['x-nvidia-gpu-attestation-report-cert-chain', 'x-nvidia-gpu-driver-rim-cert-chain', 'x-nvidia-gpu-vbios-rim-cert-chain'];
const WARNING = 'Certificate revocation (OCSP) was not checked by this verifier';

/** The Hopper token as this crate's service writes it without a responder: OCSP unknown. */
function unchecked() {
  const claims = hopper();
  for (const chain of CHAINS) claims[chain] = { ...claims[chain], 'x-nvidia-cert-ocsp-status': 'unknown' };
  claims['x-nvidia-attestation-warning'] = WARNING;
  return claims;
}

async function mint(devices, version) {
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k', backend: 'software' });
  const jwks = createJwks([{ kid: 'k', key: publicJwk }]);
  return { jwks, result: await createDetachedEat(overallClaims(version), devices, privateKey, { kid: 'k' }) };
}

for (const backend of ['webcrypto', 'software']) {
  test(`a pass whose chains are unknown rejects by default and resolves only with allowUnknownRevocation (${backend})`, async () => {
    const { jwks, result } = await mint({ 'GPU-0': hopper(), 'GPU-1': unchecked() });
    const options = { backend, now: NOW, nonce: NONCE };
    const error = await verifyAttestationResult(result, jwks, options).then(() => assert.fail('resolved'), (e) => e);
    assert.ok(error instanceof EdgeAttestError);
    assert.equal(error.code, 'ERR_REVOCATION_UNCONFIRMED');
    assert.equal(error.field, 'GPU-1');
    assert.match(error.message, /GPU-1 are not confirmed good/);
    assert.equal(error.appraisal.passed, true);
    assert.equal(error.appraisal.revocationConfirmed, false);
    assert.deepEqual(error.appraisal.devices.map((d) => [d.label, d.revocationConfirmed]), [['GPU-0', true], ['GPU-1', false]]);
    assert.equal(error.result.revocationRelaxed, false);
    // allowFailedResult is not the opt-in: the result did not fail.
    const still = await verifyAttestationResult(result, jwks, { ...options, allowFailedResult: true }).catch((e) => e);
    assert.equal(still.code, 'ERR_REVOCATION_UNCONFIRMED');
    const relaxed = await verifyAttestationResult(result, jwks, { ...options, allowUnknownRevocation: true });
    assert.equal(relaxed.appraisal.passed, true);
    assert.equal(relaxed.revocationRelaxed, true, 'the returned value says it was relaxed');
    await assert.rejects(verifyAttestationResult(result, jwks, { ...options, allowUnknownRevocation: 'yes' }),
      { code: 'ERR_INVALID_ARGUMENT', field: 'allowUnknownRevocation' });
  });
}

test('every chain good resolves by default, not relaxed', async () => {
  const { jwks, result } = await mint({ 'GPU-0': hopper() });
  const verified = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', nonce: NONCE });
  assert.equal(verified.revocationRelaxed, false);
  assert.equal(verified.appraisal.revocationConfirmed, true);
  const same = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', nonce: NONCE, allowUnknownRevocation: true });
  assert.equal(same.revocationRelaxed, false);
});

test('claims 2.0 saying revocation was not checked are unconfirmed', async () => {
  const claims2 = (warning) => {
    const claims = hopper();
    for (const chain of CHAINS) delete claims[chain];
    delete claims['x-nvidia-gpu-attestation-report-cert-chain-fwid-match'];
    delete claims['x-nvidia-gpu-driver-rim-version-match'];
    delete claims['x-nvidia-gpu-vbios-rim-version-match'];
    return {
      ...claims,
      'x-nvidia-gpu-attestation-report-cert-chain-validated': true,
      'x-nvidia-gpu-driver-rim-cert-validated': true,
      'x-nvidia-gpu-vbios-rim-cert-validated': true,
      'x-nvidia-attestation-warning': warning,
    };
  };
  const good = await mint({ 'GPU-0': claims2(null) }, '2.0');
  assert.equal((await verifyAttestationResult(good.result, good.jwks, { now: NOW, signers: 'any' })).revocationRelaxed, false);
  const off = await mint({ 'GPU-0': claims2(WARNING) }, '2.0');
  const error = await verifyAttestationResult(off.result, off.jwks, { now: NOW, signers: 'any' }).catch((e) => e);
  assert.equal(error.code, 'ERR_REVOCATION_UNCONFIRMED');
});

test('check claims of the wrong type and tokens without a verdict are refused as unreadable', async () => {
  const cases = {
    'x-nvidia-gpu-arch-check': (c) => { c['x-nvidia-gpu-arch-check'] = 'false'; },
    'x-nvidia-error-details': (c) => { c['x-nvidia-error-details'] = 'boom'; },
    measres: (c) => { for (const name of Object.keys(c)) if (!(name in times) && name !== 'eat_nonce') delete c[name]; },
  };
  for (const [claim, edit] of Object.entries(cases)) {
    const device = hopper();
    edit(device);
    const { jwks, result } = await mint({ 'GPU-0': device });
    const error = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', nonce: NONCE }).catch((e) => e);
    assert.ok(error instanceof EdgeAttestError, claim);
    assert.equal(error.code, 'ERR_EAT_CLAIMS_UNREADABLE', claim);
    assert.equal(error.field, 'GPU-0');
    assert.equal(error.appraisal.passed, false);
    const [gpu] = error.appraisal.devices;
    assert.equal(gpu.passed, false, claim);
    assert.equal(gpu.reasons[0].claim, claim);
    // The opt-ins do not make it a pass; allowFailedResult resolves it as the failure it is.
    const relaxed = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', allowUnknownRevocation: true }).catch((e) => e);
    assert.equal(relaxed.code, 'ERR_EAT_CLAIMS_UNREADABLE');
    const shown = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', allowFailedResult: true });
    assert.equal(shown.appraisal.passed, false);
    assert.equal(shown.appraisal.devices[0].reasons[0].claim, claim);
  }
});
