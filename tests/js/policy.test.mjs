// appraise(result, policy) in the release package (pkg/, pkg/local/ and pkg/service/): NVIDIA's JSON
// policies over the objects verifyAttestationResult returns — a real NRAS result, a refused
// one (the error's `result`), a re-signed real Hopper device with one claim changed — and
// the coded refusals of malformed and hostile policies and of a value that is not a result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  EdgeAttestError,
  appraise,
  createDetachedEat,
  createJwks,
  generateKeyPair,
  signJwt,
  verifyAttestationResult,
} from '../../pkg/index.js';
import * as service from '../../pkg/service/index.js';
import * as local from '../../pkg/local/index.js';
import { capture } from './support/fixtures.mjs';

const fixtures = new URL('../fixtures/', import.meta.url);
const text = (path) => readFileSync(new URL(path, fixtures), 'utf8');
const json = (path) => JSON.parse(text(path));
const policyText = (name) => text(`nvidia/policies/nvtrust/${name}.json`);
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const NOW = 1_800_000_000;


const times = { iss: 'https://edgeattest.test', iat: NOW, nbf: NOW, exp: NOW + 3600, jti: 'j' };
// Claims 3.0 of NVIDIA's real Hopper token (tests/fixtures/nvidia/nras/nvat), re-signed.
const hopper = () => ({ ...json('nvidia/nras/nvat/hopperClaimsv3_decoded.json')['GPU-0'], ...times });

async function hopperResult(edit = () => {}) {
  const { privateKey, publicJwk } = await generateKeyPair({ kid: 'k', backend: 'software' });
  const claims = hopper();
  edit(claims);
  const device = await signJwt(claims, privateKey, { kid: 'k' });
  const overall = {
    sub: 'NVIDIA-PLATFORM-ATTESTATION', ...times, 'x-nvidia-ver': '3.0',
    'x-nvidia-overall-att-result': true, eat_nonce: NONCE,
  };
  const result = await createDetachedEat(overall, { 'GPU-0': device }, privateKey, { kid: 'k' });
  const jwks = createJwks([{ kid: 'k', key: publicJwk }]);
  return verifyAttestationResult(result, jwks, { nonce: NONCE, now: NOW, allowFailedResult: true, signers: 'any' });
}

test('a real NRAS result passes the matching NVIDIA policy, rule by rule', async () => {
  const c = capture('v3_8gpu_success_20260629');
  const result = await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat });
  for (const appraiseIn of [appraise, local.appraise, service.appraise]) {
    const decision = appraiseIn(result, policyText('remote_v3_NVGPURemotePolicyExample'));
    assert.equal(decision.passed, true);
    assert.equal(decision.version, '3.0');
    assert.deepEqual(decision.overall.map((r) => [r.path, r.status]), [
      ['/x-nvidia-overall-att-result', 'pass'], ['/x-nvidia-ver', 'pass'],
    ]);
    assert.equal(decision.devices.length, 8);
    for (const device of decision.devices) {
      assert.equal(device.passed, true);
      assert.equal(device.rules.length, 17);
      assert.ok(device.rules.every((r) => r.status === 'pass' && r.found === r.expected));
    }
  }
});

test('a refused result is appraised from the error: its rules fail, never pass', async () => {
  const c = capture('v3_8gpu_nonce_mismatch_20260520');
  const error = await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat })
    .then(() => assert.fail('a failed attestation resolved'), (e) => e);
  assert.equal(error.code, 'ERR_ATTESTATION_FAILED');
  const decision = appraise(error.result, JSON.parse(policyText('remote_v3_NVGPURemotePolicyExample')));
  assert.equal(decision.passed, false);
  assert.deepEqual(decision.overall.filter((r) => r.status !== 'pass'), [
    { path: '/x-nvidia-overall-att-result', expected: true, found: false, status: 'mismatch' },
  ]);
  for (const device of decision.devices) {
    assert.equal(device.passed, false);
    assert.ok(device.rules.every((r) => r.status === 'missing' && !('found' in r)));
  }
});

test('one changed claim fails exactly its rule', async () => {
  const policy = new TextEncoder().encode(policyText('remote_v4_NVGPURemotePolicyExample'));
  assert.equal(appraise(await hopperResult(), policy).passed, true);
  const result = await hopperResult((c) => {
    c['x-nvidia-gpu-vbios-rim-cert-chain']['x-nvidia-cert-status'] = 'expired';
  });
  const decision = appraise(result, policy);
  assert.equal(decision.passed, false);
  const failed = decision.devices.flatMap((d) => d.rules.filter((r) => r.status !== 'pass').map((r) => [d.label, r]));
  assert.deepEqual(failed, [['GPU-0', {
    path: '/x-nvidia-gpu-vbios-rim-cert-chain/x-nvidia-cert-status',
    expected: 'valid', found: 'expired', status: 'mismatch',
  }]]);
});

test('bad policies and bad results throw coded errors', async () => {
  const result = await hopperResult();
  const cases = [
    ['{"version": "5.0", "authorization-rules": {}}', 'ERR_POLICY_UNKNOWN_VERSION', '/version'],
    ['{"version": "4.0", "version": "4.0"}', 'ERR_JSON_DUPLICATE_MEMBER', 'version'],
    ['{"version": "4.0", "authorization-rules": {"type": "JWT", "overall-claims": {}, "detached-claim": {"a": 1}}}',
      'ERR_POLICY_SHAPE', '/authorization-rules/detached-claim'],
    [policyText('remote_v1_NVGPURemotePolicyExample'), 'ERR_POLICY_RESULT_FORMAT', undefined],
    [`{"version": "1.0", "authorization-rules": {"a": "${'x'.repeat(70_000)}"}}`, 'ERR_POLICY_TOO_LARGE', undefined],
    [`{"version": "1.0", "authorization-rules": {"a": [${Array(65).fill(0)}]}}`, 'ERR_POLICY_ARRAY_TOO_LARGE', '/authorization-rules/a'],
    [42, 'ERR_INVALID_ARGUMENT', 'policy'],
  ];
  for (const [policy, code, field] of cases) {
    assert.throws(() => appraise(result, policy), (e) => {
      assert.ok(e instanceof EdgeAttestError, String(e));
      assert.equal(e.code, code, e.message);
      assert.equal(e.field, field, e.message);
      return true;
    });
  }
  const policy = policyText('remote_v4_NVGPURemotePolicyExample');
  for (const bad of [null, 'text', {}, { format: 'detached', overall: {}, devices: [] }, { ...result, format: 'v2' }]) {
    assert.throws(() => appraise(bad, policy), (e) => e.code === 'ERR_INVALID_ARGUMENT' && e.field === 'result');
  }
});

test('appraise is in the default entry, the local verifier and the service: one function over the same result', async () => {
  const c = capture('v3_8gpu_nonce_mismatch_20260520');
  const refused = await verifyAttestationResult(c.response, c.jwks, { nonce: c.nonce, now: c.iat }).catch((e) => e);
  assert.equal(refused.code, 'ERR_ATTESTATION_FAILED');
  const policy = policyText('remote_v3_NVGPURemotePolicyExample');
  const decisions = [appraise, local.appraise, service.appraise].map((appraiseIn) => appraiseIn(refused.result, policy));
  assert.equal(decisions[0].passed, false);
  assert.deepEqual(decisions[1], decisions[0]);
  assert.deepEqual(decisions[2], decisions[0]);
});
