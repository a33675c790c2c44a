// The worker enforcing a relying-party policy (EDGEATTEST_POLICY), in workerd: a switch that
// passes NVIDIA's checks but not the policy fails with 4091 and the rules named, and the
// relying party's own `appraise` over the verified result agrees; a malformed policy stops
// the service (503 with the policy's code) instead of serving without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appraise, buildAttestRequest, verifyAttestationResult } from '../../pkg/index.js';
import { startWorker } from './support/worker.mjs';
import { ls10 } from './support/fixtures.mjs';

const fixtures = new URL('../fixtures/', import.meta.url);
const nvidiaPolicy = readFileSync(new URL('nvidia/policies/nvtrust/remote_v4_NVSwitchRemotePolicyExample.json', fixtures), 'utf8');
const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');

async function attest(bindings) {
  const worker = await startWorker({ bindings });
  try {
    const body = buildAttestRequest({ endpoint: '/v4/attest/switch', nonce, evidence: [ls10] });
    const response = await fetch(`${worker.origin}/v4/attest/switch`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    assert.equal(response.status, 200);
    const jwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
    return verifyAttestationResult(await response.json(), jwks, { nonce, allowFailedResult: true, allowUnknownRevocation: true, signers: 'any' });
  } finally {
    await worker.stop();
  }
}

test('without a policy the switch passes; with NVIDIA\'s v4 policy and OCSP off it fails, naming the OCSP rules', async () => {
  const open = await attest({});
  assert.equal(open.overallResult, true);
  // The relying party's appraisal of the open service's result names what the policy lacks.
  const decision = appraise(open, nvidiaPolicy);
  const failed = decision.devices[0].rules.filter((r) => r.status !== 'pass').map((r) => r.path);
  assert.deepEqual(failed, [
    '/x-nvidia-switch-attestation-report-cert-chain/x-nvidia-cert-ocsp-status',
    '/x-nvidia-switch-bios-rim-cert-chain/x-nvidia-cert-ocsp-status',
  ]);

  const gated = await attest({ EDGEATTEST_POLICY: nvidiaPolicy });
  assert.equal(gated.overallResult, false);
  assert.equal(gated.appraisal.passed, false);
  const details = gated.devices[0].payload['x-nvidia-error-details'];
  assert.equal(details.code, 4091);
  assert.equal(details.message, 'RELYING_PARTY_POLICY_NOT_MET');
  assert.equal(details.fieldName, 'policy');
  for (const path of failed) assert.ok(details.description.includes(path), details.description);
  assert.equal(appraise(gated, nvidiaPolicy).passed, false);
});

test('a malformed policy stops the service with its code', async () => {
  const worker = await startWorker({ bindings: { EDGEATTEST_POLICY: '{"version": "9.0", "authorization-rules": {}}' } });
  try {
    const response = await fetch(`${worker.origin}/health`);
    assert.equal(response.status, 503);
    const body = await response.json();
    assert.equal(body.code, 'ERR_POLICY_UNKNOWN_VERSION');
    // A configuration error names the setting in its message (`field` is for request members).
    assert.match(body.message, /not configured: policy: unknown policy version "9\.0"/);
  } finally {
    await worker.stop();
  }
});
