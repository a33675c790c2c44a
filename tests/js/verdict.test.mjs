// The verdict rule of verifyAttestationResult in the release package (pkg/): an authentic
// result whose service verdict is false or absent rejects with its own code, carrying the
// appraisal and the verified result; allowFailedResult resolves it; a forged result still
// fails with the forgery's code; every error is an EdgeAttestError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  EdgeAttestError,
  createDetachedEat,
  createJwks,
  createV1Result,
  generateKeyPair,
  signJwt,
  verifyAttestationResult,
  verifyJwt,
  buildAttestRequest,
} from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import { capture } from './support/fixtures.mjs';

const BACKENDS = ['webcrypto', 'software'];
const fixtures = new URL('../fixtures/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const NOW = 1_800_000_000;
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';


async function keys() {
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k', backend: 'software' });
  return { privateKey, jwks: createJwks([{ kid: 'k', key: publicJwk }]) };
}

const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };
const overallClaims = (verdict) => ({
  sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': '3.0',
  ...(verdict !== undefined && { 'x-nvidia-overall-att-result': verdict }), eat_nonce: NONCE,
});
// Claims 3.0 of NVIDIA's real Hopper token (tests/fixtures/nvidia/nras/nvat).
const hopper = () => ({ ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times });

for (const backend of BACKENDS) {
  test(`a recorded failed result rejects with ERR_ATTESTATION_FAILED, appraisal and result (${backend})`, async () => {
    const c = capture('v3_8gpu_nonce_mismatch_20260520');
    const options = { backend, nonce: c.nonce, now: c.iat };
    const error = await verifyAttestationResult(c.response, c.jwks, options).then(
      () => assert.fail('a failed attestation resolved'),
      (e) => e,
    );
    assert.ok(error instanceof EdgeAttestError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, 'ERR_ATTESTATION_FAILED');
    const first = Object.keys(c.response[1])[0];
    assert.equal(error.field, first);
    assert.match(error.message, new RegExp(`^the attestation failed: ${first}: the service reported error 4010 NONCE_NOT_MATCHING`));
    assert.equal(error.appraisal.passed, false);
    assert.equal(error.appraisal.overallResult, false);
    assert.equal(error.appraisal.devices.length, 8);
    for (const device of error.appraisal.devices) {
      assert.equal(device.passed, false);
      assert.deepEqual(device.reasons.map((r) => r.claim), ['x-nvidia-error-details']);
      assert.equal(device.reasons[0].value.code, 4010);
    }
    // The verified data rides on the error: the same as allowFailedResult resolves.
    assert.equal(error.result.overallResult, false);
    assert.equal(error.result.devices.length, 8);
    assert.deepEqual(error.result.appraisal, error.appraisal);
    const allowed = await verifyAttestationResult(c.response, c.jwks, { ...options, allowFailedResult: true });
    assert.deepEqual(allowed, error.result);
  });

  test(`a recorded pass resolves with a passed appraisal (${backend})`, async () => {
    const c = capture('v3_8gpu_success_20260629');
    const verified = await verifyAttestationResult(c.response, c.jwks, { backend, nonce: c.nonce, now: c.iat });
    assert.equal(verified.appraisal.passed, true);
    assert.equal(verified.appraisal.overallResult, true);
    assert.deepEqual(verified.appraisal.devices.map((d) => [d.label, d.passed, d.reasons.length]),
      verified.devices.map((d) => [d.label, true, 0]));
  });

  test(`a forged failed result fails with its own code, never the verdict's (${backend})`, async () => {
    const c = capture('v3_8gpu_nonce_mismatch_20260520');
    const [head, payload, signature] = c.response[0][1].split('.');
    const flipped = Buffer.from(signature, 'base64url');
    flipped[10] ^= 1;
    const forged = [['JWT', `${head}.${payload}.${flipped.toString('base64url')}`], c.response[1]];
    for (const allowFailedResult of [false, true]) {
      const error = await verifyAttestationResult(forged, c.jwks, { backend, nonce: c.nonce, now: c.iat, allowFailedResult }).catch((e) => e);
      assert.ok(error instanceof EdgeAttestError);
      assert.equal(error.code, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
      assert.equal(error.appraisal, undefined);
      assert.equal(error.result, undefined);
    }
    // A re-signed failure with a foreign key: the key's code.
    const { privateKey, jwks } = await keys();
    const resigned = await createDetachedEat(overallClaims(false), { 'GPU-0': hopper() }, privateKey, { kid: 'k' });
    const error = await verifyAttestationResult(resigned, c.jwks, { backend, now: NOW }).catch((e) => e);
    assert.equal(error.code, 'ERR_JWKS_NO_MATCHING_KEY');
    const own = await verifyAttestationResult(resigned, jwks, { backend, now: NOW, signers: 'any' }).catch((e) => e);
    assert.equal(own.code, 'ERR_ATTESTATION_FAILED');
  });
}

test('an absent verdict rejects with ERR_ATTESTATION_RESULT_MISSING; allowFailedResult resolves', async () => {
  const { privateKey, jwks } = await keys();
  const result = await createDetachedEat(overallClaims(undefined), { 'GPU-0': hopper() }, privateKey, { kid: 'k' });
  const error = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any' }).catch((e) => e);
  assert.ok(error instanceof EdgeAttestError);
  assert.equal(error.code, 'ERR_ATTESTATION_RESULT_MISSING');
  assert.equal(error.message, 'the attestation result carries no overall verdict');
  assert.deepEqual(error.appraisal, {
    level: 'failed', passed: false, overallResult: null, revocationConfirmed: true,
    devices: [{ label: 'GPU-0', passed: true, revocationConfirmed: true, reasons: [], warnings: [] }],
  });
  assert.equal(error.level, 'failed');
  const allowed = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', allowFailedResult: true });
  assert.equal(allowed.overallResult, null);
  assert.equal(allowed.appraisal.passed, false);
  await assert.rejects(verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', allowFailedResult: 'yes' }), { code: 'ERR_INVALID_ARGUMENT', field: 'allowFailedResult' });
});

test('the appraisal names each failed claim in words, most decisive first', async () => {
  const { privateKey, jwks } = await keys();
  const failed = hopper();
  failed.measres = 'fail';
  failed.secboot = null;
  failed['x-nvidia-gpu-driver-rim-cert-chain'] = { ...failed['x-nvidia-gpu-driver-rim-cert-chain'], 'x-nvidia-cert-status': 'expired' };
  failed['x-nvidia-error-details'] = { code: 4011, fieldName: 'rim', httpStatus: '400 BAD_REQUEST', description: 'RIM signing certificate chain has expired', message: 'CERTIFICATE_EXPIRED' };
  const result = await createDetachedEat(overallClaims(false), { 'GPU-0': hopper(), 'GPU-1': failed }, privateKey, { kid: 'k' });
  const verified = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', nonce: NONCE, allowFailedResult: true });
  assert.equal(verified.appraisal.passed, false);
  const [good, bad] = verified.appraisal.devices;
  assert.deepEqual(good, { label: 'GPU-0', passed: true, revocationConfirmed: true, reasons: [], warnings: [] });
  assert.deepEqual(bad.reasons.map((r) => r.message), [
    'the service reported error 4011 CERTIFICATE_EXPIRED: RIM signing certificate chain has expired',
    "the driver RIM's signing certificate chain has expired (2026-06-01T02:08:29Z)",
    'the measurement comparison did not succeed (fail)',
  ]);
  assert.equal(bad.reasons[1].claim, 'x-nvidia-gpu-driver-rim-cert-chain');
  assert.equal(bad.reasons[1].value['x-nvidia-cert-status'], 'expired');
  const error = await verifyAttestationResult(result, jwks, { now: NOW, signers: 'any', nonce: NONCE }).catch((e) => e);
  assert.equal(error.message, 'the attestation failed: GPU-1: the service reported error 4011 CERTIFICATE_EXPIRED: RIM signing certificate chain has expired');
});

test('a V1 result is appraised as its one GPU and refused when failed', async () => {
  const { privateKey, jwks } = await keys();
  const token = await signJwt({ ...times, sub: 'NVIDIA-GPU-ATTESTATION', 'x-nvidia-ver': '1.0', 'x-nvidia-overall-att-result': false,
    measres: 'comparison-fail', 'x-nvidia-attestation-detailed-result': { 'x-nvidia-gpu-measurements-match': false } }, privateKey, { kid: 'k' });
  const error = await verifyAttestationResult(createV1Result(token), jwks, { now: NOW, signers: 'any', format: 'v1' }).catch((e) => e);
  assert.equal(error.code, 'ERR_ATTESTATION_FAILED');
  assert.deepEqual(error.appraisal.devices[0].reasons.map((r) => r.claim), ['x-nvidia-gpu-measurements-match', 'measres']);
  assert.equal(error.message, 'the attestation failed: GPU-0: the measurements do not match the reference values');
});

test('every error the package throws is an EdgeAttestError, from either entry', async () => {
  const fromWasm = (() => { try { buildAttestRequest({ endpoint: '/v9/attest/gpu', evidence: [] }); } catch (e) { return e; } })();
  const fromJs = await verifyJwt('a.b.c', { keys: [] }, { backend: 'openssl' }).catch((e) => e);
  const fromToken = await verifyJwt('a.b.c', { keys: [] }).catch((e) => e);
  for (const error of [fromWasm, fromJs, fromToken]) {
    assert.ok(error instanceof EdgeAttestError, `${error?.name} ${error?.message}`);
    assert.ok(error instanceof local.EdgeAttestError);
    assert.equal(typeof error.code, 'string');
  }
  assert.equal(fromJs.code, 'ERR_INVALID_ARGUMENT');
  assert.equal(fromJs.constructor, EdgeAttestError);
  // A plain Error, or an object that only looks like one, is not an EdgeAttestError.
  assert.ok(!(new Error('x') instanceof EdgeAttestError));
  assert.ok(!({ name: 'EdgeAttestError', code: 'ERR_X' } instanceof EdgeAttestError));
  assert.ok(!(Object.assign(new Error('x'), { name: 'EdgeAttestError' }) instanceof EdgeAttestError));
  const made = new EdgeAttestError('ERR_X', 'made here', { field: 'f' });
  assert.deepEqual([made.name, made.code, made.field, made.message], ['EdgeAttestError', 'ERR_X', 'f', 'made here']);
  // The local verifier's entry rejects a failed result the same way.
  const c = capture('v3_8gpu_nonce_mismatch_20260520');
  const refused = await local.verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat }).catch((e) => e);
  assert.ok(refused instanceof local.EdgeAttestError);
  assert.equal(refused.code, 'ERR_ATTESTATION_FAILED');
  assert.equal(refused.appraisal.devices.length, 8);
});

test('every rejection carries its level on the verdict scale, decided by the core', async () => {
  const c = capture('v3_1gpu_success_20260629');
  const typo = `${c.nonce.slice(0, -1)}${c.nonce.endsWith('0') ? '1' : '0'}`;
  const forged = structuredClone(c.response);
  forged[0][1] = `${forged[0][1].slice(0, -1)}${forged[0][1].endsWith('A') ? 'B' : 'A'}`;
  const cases = [
    ['expired', c.response, c.jwks, { nonce: c.nonce, now: c.iat + 2 * 86400 }, 'ERR_JWT_EXPIRED'],
    ['wrong-nonce', c.response, c.jwks, { nonce: typo, now: c.iat }, 'ERR_EAT_NONCE_MISMATCH'],
    ['forged', forged, c.jwks, { nonce: c.nonce, now: c.iat }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    ['forged', c.response, capture('v3_8gpu_nonce_mismatch_20260520').jwks, { nonce: c.nonce, now: c.iat }, 'ERR_JWKS_NO_MATCHING_KEY'],
  ];
  for (const [level, result, jwks, options, code] of cases) {
    for (const backend of ['webcrypto', 'software']) {
      const error = await verifyAttestationResult(JSON.stringify(result), jwks, { ...options, backend }).catch((e) => e);
      assert.equal(error.code, code, `${level} ${backend}`);
      assert.equal(error.level, level, `${code} ${backend}`);
    }
  }
  const passed = await verifyAttestationResult(JSON.stringify(c.response), c.jwks, { nonce: c.nonce, now: c.iat });
  assert.equal(passed.appraisal.level, 'passed');
  assert.deepEqual(passed.appraisal.devices.map((d) => d.warnings), [[]]);
  const failed = capture('v3_8gpu_nonce_mismatch_20260520');
  const refused = await verifyAttestationResult(JSON.stringify(failed.response), failed.jwks, { nonce: failed.nonce, now: failed.iat }).catch((e) => e);
  assert.equal(refused.code, 'ERR_ATTESTATION_FAILED');
  assert.equal(refused.level, 'failed');
  assert.equal(refused.appraisal.level, 'failed');
});
